package gateway

import (
	"crypto/sha256"
	"fmt"
	"net/netip"
	"sync"
	"time"
)

// sourceOf groups client addresses the way one client holds them: an IPv4 address, or an
// IPv6 /64 (a single customer's network hands out a whole /64).
func sourceOf(a netip.Addr) netip.Prefix {
	a = a.Unmap().WithZone("")
	if a.Is6() {
		p, _ := a.Prefix(64)
		return p
	}
	return netip.PrefixFrom(a, a.BitLen())
}

// handshake is one connection's hold on the handshake slots: its source's until it has
// authenticated, the gateway's until its tunnel opens. Both are given back once.
type handshake struct {
	g                  *Gateway
	source             netip.Prefix
	authOnce, doneOnce sync.Once
}

// authenticated gives back the source's slot: a client past authentication is a
// customer, bounded by its proxy's connection cap instead.
func (h *handshake) authenticated() {
	h.authOnce.Do(func() { h.g.unfinished.release(h.source) })
}

// done gives back both slots (the tunnel is open, or the connection ended).
func (h *handshake) done() {
	h.authenticated()
	h.doneOnce.Do(func() { <-h.g.handshakes })
}

// counters counts something per source (unfinished handshakes).
type counters struct {
	mu sync.Mutex
	by map[netip.Prefix]int
}

// take counts one more for source unless it has `max` already.
func (c *counters) take(source netip.Prefix, max int) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.by == nil {
		c.by = map[netip.Prefix]int{}
	}
	if c.by[source] >= max {
		return false
	}
	c.by[source]++
	return true
}

func (c *counters) release(source netip.Prefix) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.by[source]--; c.by[source] <= 0 {
		delete(c.by, source)
	}
}

// failureWindow is how long a source's failed sign-ins are counted (and at most how long
// it is refused).
const failureWindow = time.Minute

// failures throttles password guessing: a source with `limit` failed sign-ins within a
// window is refused, right credentials or not, until that window ends. Only sources are
// counted, never usernames, so nobody can lock a customer out of their own proxy from
// elsewhere.
type failures struct {
	mu     sync.Mutex
	limit  int // 0: no throttle
	by     map[netip.Prefix]failureCount
	pruned time.Time
}

type failureCount struct {
	since time.Time
	count int
}

// blockedFor answers how long a source is still refused (0: not refused).
func (f *failures) blockedFor(source netip.Prefix, now time.Time) time.Duration {
	if f.limit <= 0 {
		return 0
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	c := f.by[source]
	if c.count < f.limit || now.Sub(c.since) >= failureWindow {
		return 0
	}
	return c.since.Add(failureWindow).Sub(now)
}

// add counts a failed sign-in of a source.
func (f *failures) add(source netip.Prefix, now time.Time) {
	if f.limit <= 0 {
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.by == nil {
		f.by = map[netip.Prefix]failureCount{}
	}
	if now.Sub(f.pruned) > failureWindow {
		for s, c := range f.by {
			if now.Sub(c.since) >= failureWindow {
				delete(f.by, s)
			}
		}
		f.pruned = now
	}
	c := f.by[source]
	if now.Sub(c.since) >= failureWindow {
		c = failureCount{since: now}
	}
	c.count++
	f.by[source] = c
}

func refusedGuessing(wait time.Duration) *refusal {
	return &refusal{429, 0, fmt.Sprintf("Too many failed proxy sign-ins from your address; try again in %d s.", int(wait.Seconds())+1)}
}

// missCacheSize bounds the remembered misses; past it the expired ones go, and others
// until it is half full.
const missCacheSize = 10_000

// misses remembers credentials that failed just after the gateway caught up with the
// shop: the same wrong password again within missTTL is refused without asking the shop
// once more, so a flood of wrong passwords does not become a flood of polls.
type misses struct {
	mu sync.Mutex
	at map[[32]byte]time.Time
}

const missTTL = time.Second

func missKey(username, password string) [32]byte {
	return sha256.Sum256([]byte(username + "\x00" + password))
}

func (m *misses) recent(key [32]byte, now time.Time) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	at, ok := m.at[key]
	return ok && now.Sub(at) < missTTL
}

func (m *misses) add(key [32]byte, now time.Time) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.at == nil {
		m.at = map[[32]byte]time.Time{}
	}
	if len(m.at) >= missCacheSize {
		for k, at := range m.at {
			if now.Sub(at) >= missTTL || len(m.at) >= missCacheSize/2 {
				delete(m.at, k)
			}
		}
	}
	m.at[key] = now
}
