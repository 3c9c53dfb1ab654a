package gateway

import (
	"sync"
	"sync/atomic"
	"time"
)

// Usage is one proxy's traffic since the counters were last taken.
type Usage struct {
	owner                         atomic.Pointer[string]
	up, down, connections, failed atomic.Int64
}

// Meter counts bytes and connections per proxy, and the gateway's own connect figures.
type Meter struct {
	mu      sync.Mutex
	byProxy map[string]*Usage

	ok, failed atomic.Int64
	refused    atomic.Int64 // 407 and 429 answers: no attempt to reach a target was made
	histogram  [len(ConnectBucketsMs) + 1]atomic.Int64
}

// ConnectBucketsMs are the upper bounds (ms) of the connect-time histogram; one more
// bucket holds everything slower.
var ConnectBucketsMs = [...]int64{1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000}

func newMeter() *Meter { return &Meter{byProxy: map[string]*Usage{}} }

func (m *Meter) of(proxyID, ownerID string) *Usage {
	m.mu.Lock()
	defer m.mu.Unlock()
	u := m.byProxy[proxyID]
	if u == nil {
		u = &Usage{}
		m.byProxy[proxyID] = u
	}
	if ownerID != "" {
		u.owner.Store(&ownerID)
	}
	return u
}

// connected records a connection that reached its target after `took`.
func (m *Meter) connected(took time.Duration) {
	m.ok.Add(1)
	ms := took.Milliseconds()
	i := 0
	for i < len(ConnectBucketsMs) && ms > ConnectBucketsMs[i] {
		i++
	}
	m.histogram[i].Add(1)
}

// Counts is a snapshot of one proxy's counters.
type Counts struct {
	OwnerID     string `json:"owner_id"`
	BytesUp     int64  `json:"bytes_up"`
	BytesDown   int64  `json:"bytes_down"`
	Connections int64  `json:"connections"`
	Failed      int64  `json:"failed"`
}

func (c Counts) bytes() int64 { return c.BytesUp + c.BytesDown }

// GatewayCounts is a snapshot of the gateway's own connect figures. A connection is an
// authorised attempt to reach a target: OK reached it, Failed did not. Refused counts the
// clients answered 407 (credentials, port, allowlist) or 429 (quota, concurrency, too
// many failed sign-ins) apart: they never became connections.
type GatewayCounts struct {
	OK        int64   `json:"ok"`
	Failed    int64   `json:"failed"`
	Refused   int64   `json:"refused"`
	Histogram []int64 `json:"histogram"` // len(ConnectBucketsMs)+1 buckets
}

// Take answers every proxy's counts since the last Take and the gateway's, and sets them
// back to zero.
func (m *Meter) Take() (map[string]Counts, GatewayCounts) {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := map[string]Counts{}
	for id, u := range m.byProxy {
		c := Counts{BytesUp: u.up.Swap(0), BytesDown: u.down.Swap(0), Connections: u.connections.Swap(0), Failed: u.failed.Swap(0)}
		if owner := u.owner.Load(); owner != nil {
			c.OwnerID = *owner
		}
		if c != (Counts{OwnerID: c.OwnerID}) {
			out[id] = c
		}
	}
	gc := GatewayCounts{OK: m.ok.Swap(0), Failed: m.failed.Swap(0), Refused: m.refused.Swap(0), Histogram: make([]int64, len(m.histogram))}
	for i := range m.histogram {
		gc.Histogram[i] = m.histogram[i].Swap(0)
	}
	return out, gc
}

// Peek answers one proxy's counts without resetting them.
func (m *Meter) Peek(proxyID string) Counts {
	u := m.of(proxyID, "")
	return Counts{BytesUp: u.up.Load(), BytesDown: u.down.Load(), Connections: u.connections.Load(), Failed: u.failed.Load()}
}

// UsageBatch is what one flush writes: per-proxy rows of an hour and the gateway's own.
type UsageBatch struct {
	Gateway   string            `json:"gateway"`
	Hour      time.Time         `json:"hour"` // the UTC hour the counts are added to
	Proxies   map[string]Counts `json:"proxies"`
	Counts    GatewayCounts     `json:"counts"`
	UpSeconds int64             `json:"up_seconds"`
}

// monthStart is the first instant of t's UTC calendar month.
func monthStart(t time.Time) time.Time {
	t = t.UTC()
	return time.Date(t.Year(), t.Month(), 1, 0, 0, 0, 0, time.UTC)
}

// refusedClient counts a refusal that keeps a client from becoming a connection: a 407 or
// a 429 (other answers, such as a malformed request or a lost shop, are not counted).
func (m *Meter) refusedClient(r *refusal) {
	if r != nil && (r.status == 407 || r.status == 429) {
		m.refused.Add(1)
	}
}
