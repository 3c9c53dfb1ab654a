package gateway

import (
	"errors"
	"io"
	"net"
	"sync"
	"time"
)

// tunnel is one open connection of a customer through the gateway.
type tunnel struct {
	proxyID string
	client  net.Conn
	target  net.Conn
	timer   *time.Timer // cuts the tunnel when its proxy expires
	once    sync.Once
}

func (t *tunnel) cut() {
	t.once.Do(func() {
		t.client.Close()
		if t.target != nil {
			t.target.Close()
		}
	})
}

// tunnels are the open tunnels by proxy, so a change to a proxy can cut its own, and the
// connection slots each proxy's connections hold (its concurrency cap counts those).
type tunnels struct {
	mu      sync.Mutex
	byProxy map[string]map[*tunnel]struct{}
	slots   map[string]int
}

func newTunnels() *tunnels {
	return &tunnels{byProxy: map[string]map[*tunnel]struct{}{}, slots: map[string]int{}}
}

// takeSlot holds one of a proxy's connection slots for the life of a connection, from
// before its dial, so connections that arrive together cannot pass a cap (max > 0)
// together. ok is false when all max are taken; release gives the slot back (once).
func (ts *tunnels) takeSlot(proxyID string, max int) (release func(), ok bool) {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	if max > 0 && ts.slots[proxyID] >= max {
		return nil, false
	}
	ts.slots[proxyID]++
	return sync.OnceFunc(func() {
		ts.mu.Lock()
		defer ts.mu.Unlock()
		if ts.slots[proxyID]--; ts.slots[proxyID] <= 0 {
			delete(ts.slots, proxyID)
		}
	}), true
}

// add registers a tunnel of a grant, cut at the grant's expiry by the gateway's clock.
func (ts *tunnels) add(t *tunnel, expiresAt time.Time) {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	set := ts.byProxy[t.proxyID]
	if set == nil {
		set = map[*tunnel]struct{}{}
		ts.byProxy[t.proxyID] = set
	}
	set[t] = struct{}{}
	if !expiresAt.IsZero() {
		t.timer = time.AfterFunc(time.Until(expiresAt), t.cut)
	}
}

func (ts *tunnels) remove(t *tunnel) {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	if t.timer != nil {
		t.timer.Stop()
	}
	if set := ts.byProxy[t.proxyID]; set != nil {
		delete(set, t)
		if len(set) == 0 {
			delete(ts.byProxy, t.proxyID)
		}
	}
}

// cut closes every tunnel of a proxy.
func (ts *tunnels) cut(proxyID string) int {
	ts.mu.Lock()
	list := make([]*tunnel, 0, len(ts.byProxy[proxyID]))
	for t := range ts.byProxy[proxyID] {
		list = append(list, t)
	}
	ts.mu.Unlock()
	for _, t := range list {
		t.cut()
	}
	return len(list)
}

// cutAll closes every tunnel.
func (ts *tunnels) cutAll() {
	ts.mu.Lock()
	ids := make([]string, 0, len(ts.byProxy))
	for id := range ts.byProxy {
		ids = append(ids, id)
	}
	ts.mu.Unlock()
	for _, id := range ids {
		ts.cut(id)
	}
}

// expireAt moves a proxy's tunnels' cut to its new expiry (a renewal).
func (ts *tunnels) expireAt(proxyID string, expiresAt time.Time) {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	for t := range ts.byProxy[proxyID] {
		if t.timer != nil {
			t.timer.Stop()
			t.timer = nil
		}
		if !expiresAt.IsZero() {
			t.timer = time.AfterFunc(time.Until(expiresAt), t.cut)
		}
	}
}

// slotsTaken is the number of connections of one proxy, open or being opened.
func (ts *tunnels) slotsTaken(proxyID string) int {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	return ts.slots[proxyID]
}

// relay copies both ways between the client and the target until both directions end
// (a half-close is passed on) or one fails, draws both on the budget and adds what moved
// to the meter. It answers errBudgetSpent when the budget stopped it.
func relay(client, target *net.TCPConn, b *budget, up, down func(int64)) error {
	return relayBoth(client, target,
		func() error { return pump(target, client, b, up) },
		func() error { return pump(client, target, b, down) })
}

// relayBoth runs pumpUp (client to target) beside pumpDown (target to client) until both
// end, passing a half-close on (a TLS client's CloseWrite sends close_notify).
func relayBoth(client net.Conn, target *net.TCPConn, pumpUp, pumpDown func() error) error {
	var wg sync.WaitGroup
	var upErr error
	wg.Add(1)
	go func() {
		defer wg.Done()
		if upErr = pumpUp(); upErr != nil {
			client.Close()
			target.Close()
			return
		}
		_ = target.CloseWrite()
	}()
	downErr := pumpDown()
	if downErr != nil {
		client.Close()
		target.Close()
	} else if cw, ok := client.(interface{ CloseWrite() error }); ok {
		_ = cw.CloseWrite()
	}
	wg.Wait()
	client.Close()
	target.Close()
	if errors.Is(upErr, errBudgetSpent) {
		return upErr
	}
	return downErr
}

// drawingWriter writes to w what the budget allows and counts it (a plain request's head
// and body, bytes sent before a tunnel's answer); past the budget it stops with
// errBudgetSpent.
type drawingWriter struct {
	w   io.Writer
	b   *budget
	add func(int64)
}

func (d *drawingWriter) Write(p []byte) (int, error) {
	allowed := d.b.take(int64(len(p)))
	n, err := d.w.Write(p[:allowed])
	d.b.giveBack(allowed - int64(n))
	d.add(int64(n))
	if err == nil && allowed < int64(len(p)) {
		err = errBudgetSpent
	}
	return n, err
}
