package gateway

import (
	"sync"
	"time"
)

// upstreamRetryAfter: an upstream that failed is skipped for this long.
const upstreamRetryAfter = 30 * time.Second

// upstreamHealth remembers which upstreams failed, so pools skip them and the console
// can say so (through report), and which exits hold a failure mark, so the probe can try
// them again (probe.go): a marked upstream that answers loses its mark, sold or not.
type upstreamHealth struct {
	mu      sync.Mutex
	failing map[string]time.Time // proxy id -> skip until
	marked  map[string]bool      // the source holds a failure mark for it
	exits   map[string]Exit      // the upstream exits of the marked proxies, for the probe
	report  func(proxyID string, err error)
}

func newUpstreamHealth(report func(string, error)) *upstreamHealth {
	return &upstreamHealth{failing: map[string]time.Time{}, marked: map[string]bool{}, exits: map[string]Exit{}, report: report}
}

// seed takes the source's mark of a record (any status: an unsold upstream is probed too).
func (h *upstreamHealth) seed(r *Record) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if r.UpstreamFailed && r.Exit.Upstream {
		h.marked[r.ID] = true
		h.exits[r.ID] = r.Exit
	} else {
		delete(h.marked, r.ID)
		delete(h.exits, r.ID)
	}
}

// forget drops what is known of a proxy that is gone.
func (h *upstreamHealth) forget(proxyID string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	delete(h.marked, proxyID)
	delete(h.exits, proxyID)
	delete(h.failing, proxyID)
}

func (h *upstreamHealth) skip(proxyID string, now time.Time) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return now.Before(h.failing[proxyID])
}

func (h *upstreamHealth) failed(exit Exit, err error) {
	h.mu.Lock()
	h.failing[exit.ProxyID] = time.Now().Add(upstreamRetryAfter)
	first := !h.marked[exit.ProxyID]
	h.marked[exit.ProxyID] = true
	h.exits[exit.ProxyID] = exit
	h.mu.Unlock()
	if first && h.report != nil {
		h.report(exit.ProxyID, err)
	}
}

func (h *upstreamHealth) succeeded(proxyID string) {
	h.mu.Lock()
	delete(h.failing, proxyID)
	was := h.marked[proxyID]
	delete(h.marked, proxyID)
	delete(h.exits, proxyID)
	h.mu.Unlock()
	if was && h.report != nil {
		h.report(proxyID, nil)
	}
}

// retain forgets the proxies that are not in a full snapshot of the source.
func (h *upstreamHealth) retain(records []Record) {
	seen := make(map[string]bool, len(records))
	for i := range records {
		seen[records[i].ID] = true
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	for id := range h.exits {
		if !seen[id] {
			delete(h.marked, id)
			delete(h.exits, id)
		}
	}
}

// markedExits answers up to `limit` marked upstream exits (Go's map order picks a random
// share of them when there are more).
func (h *upstreamHealth) markedExits(limit int) []Exit {
	h.mu.Lock()
	defer h.mu.Unlock()
	out := make([]Exit, 0, min(limit, len(h.exits)))
	for _, e := range h.exits {
		if len(out) == limit {
			break
		}
		out = append(out, e)
	}
	return out
}
