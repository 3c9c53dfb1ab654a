package gateway

import (
	"sync"
	"time"
)

// upstreamRetryAfter: an upstream that failed is skipped for this long.
const upstreamRetryAfter = 30 * time.Second

// upstreamHealth remembers which upstreams failed, so pools skip them and the console
// can say so (through report).
type upstreamHealth struct {
	mu      sync.Mutex
	failing map[string]time.Time // proxy id -> skip until
	marked  map[string]bool      // the source holds a failure mark for it
	report  func(proxyID string, err error)
}

func newUpstreamHealth(report func(string, error)) *upstreamHealth {
	return &upstreamHealth{failing: map[string]time.Time{}, marked: map[string]bool{}, report: report}
}

func (h *upstreamHealth) seed(proxyID string, marked bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if marked {
		h.marked[proxyID] = true
	} else {
		delete(h.marked, proxyID)
	}
}

func (h *upstreamHealth) skip(proxyID string, now time.Time) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return now.Before(h.failing[proxyID])
}

func (h *upstreamHealth) failed(proxyID string, err error) {
	h.mu.Lock()
	h.failing[proxyID] = time.Now().Add(upstreamRetryAfter)
	first := !h.marked[proxyID]
	h.marked[proxyID] = true
	h.mu.Unlock()
	if first && h.report != nil {
		h.report(proxyID, err)
	}
}

func (h *upstreamHealth) succeeded(proxyID string) {
	h.mu.Lock()
	delete(h.failing, proxyID)
	was := h.marked[proxyID]
	delete(h.marked, proxyID)
	h.mu.Unlock()
	if was && h.report != nil {
		h.report(proxyID, nil)
	}
}
