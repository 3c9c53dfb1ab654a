package gateway

import (
	"sync"
	"sync/atomic"
)

// Usage is one proxy's traffic since the counters were last taken.
type Usage struct {
	up, down, connections atomic.Int64
}

// Meter counts bytes and connections per proxy.
type Meter struct {
	mu      sync.Mutex
	byProxy map[string]*Usage
}

func newMeter() *Meter { return &Meter{byProxy: map[string]*Usage{}} }

func (m *Meter) of(proxyID string) *Usage {
	m.mu.Lock()
	defer m.mu.Unlock()
	u := m.byProxy[proxyID]
	if u == nil {
		u = &Usage{}
		m.byProxy[proxyID] = u
	}
	return u
}

// Counts is a snapshot of one proxy's counters.
type Counts struct {
	BytesUp, BytesDown, Connections int64
}

// Take answers every proxy's counts since the last Take and sets them back to zero.
func (m *Meter) Take() map[string]Counts {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := map[string]Counts{}
	for id, u := range m.byProxy {
		c := Counts{u.up.Swap(0), u.down.Swap(0), u.connections.Swap(0)}
		if c != (Counts{}) {
			out[id] = c
		}
	}
	return out
}

// Peek answers one proxy's counts without resetting them.
func (m *Meter) Peek(proxyID string) Counts {
	u := m.of(proxyID)
	return Counts{u.up.Load(), u.down.Load(), u.connections.Load()}
}
