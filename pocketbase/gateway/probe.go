// Probing marked upstreams: an upstream the gateway marked failing (health.go) is tried
// again every ProbeInterval whether or not a customer uses it, so an unsold one that
// answers again loses its mark and the shop puts it back in stock (issue #28). Bounded: at
// most probeBatch upstreams a round, probeParallel at once, each within probeTimeout.

package gateway

import (
	"context"
	"net"
	"strconv"
	"sync"
	"time"
)

const (
	probeBatch    = 64
	probeParallel = 8
	probeTimeout  = 5 * time.Second
)

// probeLoop probes the marked upstreams until Close.
func (g *Gateway) probeLoop() {
	defer g.wg.Done()
	ticker := time.NewTicker(g.cfg.ProbeInterval)
	defer ticker.Stop()
	for {
		select {
		case <-g.ctx.Done():
			return
		case <-ticker.C:
		}
		g.probeMarked(g.ctx)
	}
}

// probeMarked tries one round of marked upstreams; one that answers loses its mark.
func (g *Gateway) probeMarked(ctx context.Context) {
	slots := make(chan struct{}, probeParallel)
	var wg sync.WaitGroup
	for _, exit := range g.dialer.health.markedExits(probeBatch) {
		wg.Add(1)
		slots <- struct{}{}
		go func(exit Exit) {
			defer wg.Done()
			defer func() { <-slots }()
			if g.dialer.probe(ctx, exit) == nil {
				g.dialer.health.succeeded(exit.ProxyID)
			}
		}(exit)
	}
	wg.Wait()
}

// probe reaches the upstream: a TCP connection, and for a SOCKS5 upstream its greeting and
// sign-in (an HTTP upstream needs a target to say more than that it listens).
func (d *Dialer) probe(ctx context.Context, exit Exit) error {
	ctx, cancel := context.WithTimeout(ctx, min(d.timeout, probeTimeout))
	defer cancel()
	var dialer net.Dialer
	raw, err := dialer.DialContext(ctx, "tcp", net.JoinHostPort(exit.Host, strconv.Itoa(exit.Port)))
	if err != nil {
		return err
	}
	defer raw.Close()
	if !exit.SOCKS {
		return nil
	}
	tcp := raw.(*net.TCPConn)
	if deadline, ok := ctx.Deadline(); ok {
		_ = tcp.SetDeadline(deadline)
	}
	return socksClientSignIn(tcp, exit.Username, exit.Password)
}
