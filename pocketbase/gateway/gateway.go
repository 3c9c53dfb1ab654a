// Package gateway is the shop's proxy gateway: an HTTP proxy port (plain forwarding and
// CONNECT; also over TLS) and a SOCKS5 port (RFC 1928 CONNECT and UDP ASSOCIATE with
// RFC 1929 username/password) that
// accept the credentials of ASSIGNED, unexpired proxies only, and send each connection
// out through the proxy's exit (direct, bound to a local address, or an upstream proxy;
// RESIDENTIAL proxies through a pool of their location's upstreams).
//
// The gateway holds no state of its own but an in-memory index of the credentials and
// its counters. A Source (the shop's database in the same process, or PocketBase's API
// from another machine) gives it every proxy and then the ids of the proxies that
// changed; the gateway follows those changes within a second and cuts the tunnels of a
// proxy whose access changed.
package gateway

import (
	"context"
	"errors"
	"net"
	"sync"
	"sync/atomic"
	"time"
)

// Gateway is a running gateway.
type Gateway struct {
	cfg         Config
	credentials Credentials // the source's credentials side
	usageStore  UsageStore  // the source's usage side
	index       *Index
	guard       *Guard
	dialer      *Dialer
	tunnels     *tunnels
	meter       *Meter
	quotas      quotas

	listeners []net.Listener
	ctx       context.Context
	cancel    context.CancelFunc
	wg        sync.WaitGroup
	ready     atomic.Bool

	flushMu   sync.Mutex
	lastFlush time.Time

	handshakes  chan struct{} // a slot per connection in its handshake
	unfinished  counters      // connections not yet authenticated, per source
	refusedBusy atomic.Int64  // connections closed because every slot was taken
	failures    failures      // failed sign-ins per source
	misses      misses        // credentials refused just after catching up

	pollMu   sync.Mutex // one poll at a time: the loop's, or a catch-up's
	cursor   int64
	lastPoll time.Time
	updated  atomic.Int64 // unix nanoseconds of the last successful read of the source
	fatal    chan error   // the shop refused this gateway: it has stopped serving
}

// New makes a gateway; Start opens its listeners.
func New(cfg Config, source Source) *Gateway {
	cfg.defaults()
	ctx, cancel := context.WithCancel(context.Background())
	g := &Gateway{
		cfg:         cfg,
		credentials: source,
		usageStore:  source,
		index:       NewIndex(),
		guard:       NewGuard(cfg.OpenTargets),
		tunnels:     newTunnels(),
		meter:       newMeter(),
		ctx:         ctx,
		handshakes:  make(chan struct{}, cfg.MaxHandshakes),
		failures:    failures{limit: cfg.AuthFailureLimit},
		fatal:       make(chan error, 1),
		cancel:      cancel,
	}
	g.dialer = &Dialer{
		guard:    g.guard,
		index:    g.index,
		timeout:  cfg.DialTimeout,
		resolver: net.DefaultResolver,
		health: newUpstreamHealth(func(proxyID string, err error) {
			go func() {
				if rerr := g.credentials.ReportUpstream(g.ctx, proxyID, err); rerr != nil {
					cfg.Logger.Warn("gateway: cannot record an upstream's state", "proxy", proxyID, "error", rerr)
				}
			}()
		}),
	}
	return g
}

// Start loads the proxies, opens the listeners and follows the source until Close.
func (g *Gateway) Start() error {
	if err := g.reload(); err != nil {
		return err
	}
	g.readMonthUsage(g.ctx)
	g.lastFlush = time.Now().UTC()
	for _, l := range []struct {
		addr  string
		serve func(net.Conn, *handshake)
	}{{g.cfg.HTTPAddr, g.serveHTTP}, {g.cfg.SOCKSAddr, g.serveSOCKS}, {g.cfg.HTTPSAddr, g.serveHTTPS}} {
		if l.addr == "" {
			continue
		}
		if l.addr == g.cfg.HTTPSAddr && g.cfg.TLS == nil {
			g.Close()
			return errors.New("the HTTPS proxy listener needs a certificate")
		}
		ln, err := net.Listen("tcp", l.addr)
		if err != nil {
			g.Close()
			return err
		}
		g.listeners = append(g.listeners, ln)
		g.wg.Add(1)
		go g.accept(ln, l.serve)
	}
	g.refreshGuard() // with the listeners' addresses
	g.wg.Add(2)
	go g.follow()
	go g.meterLoop()
	g.cfg.Logger.Info("gateway: usage is written every " + g.cfg.FlushInterval.String() + "; a stop without Close (a crash, SIGKILL) loses at most that much of it")
	g.ready.Store(true)
	return nil
}

// Addrs are the listeners' addresses in the order HTTP, SOCKS5, HTTPS (those open).
func (g *Gateway) Addrs() []net.Addr {
	out := []net.Addr{}
	for _, l := range g.listeners {
		out = append(out, l.Addr())
	}
	return out
}

// Close stops listening, cuts every tunnel and waits for the loops to end.
func (g *Gateway) Close() {
	g.cancel()
	g.stopServing()
	g.wg.Wait()
	if g.ready.Load() {
		flushCtx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		g.flush(flushCtx, true)
		g.cfg.Logger.Info("gateway: stopped; usage written up to this moment")
	}
}

// Meter is the traffic counters.
func (g *Gateway) Meter() *Meter { return g.meter }

// accept serves each connection of a listener. At most MaxHandshakesPerSource
// connections of one address may be unauthenticated at once, and MaxHandshakes be in their
// handshake (a slow client holds a slot for up to AuthTimeout, then HandshakeTimeout):
// past either a new connection is closed at once, so a flood from one address neither
// grows memory nor shuts out anyone else.
func (g *Gateway) accept(ln net.Listener, serve func(net.Conn, *handshake)) {
	defer g.wg.Done()
	backoff := 5 * time.Millisecond
	for {
		c, err := ln.Accept()
		if err != nil {
			if g.ctx.Err() != nil || errors.Is(err, net.ErrClosed) {
				return
			}
			g.cfg.Logger.Warn("gateway: accept failed", "error", err)
			time.Sleep(backoff)
			backoff = min(backoff*2, time.Second)
			continue
		}
		backoff = 5 * time.Millisecond
		source := sourceOf(clientAddr(c))
		if !g.unfinished.take(source, g.cfg.MaxHandshakesPerSource) {
			c.Close()
			g.refusedBusy.Add(1)
			continue
		}
		select {
		case g.handshakes <- struct{}{}:
		default:
			g.unfinished.release(source)
			c.Close()
			g.refusedBusy.Add(1)
			continue
		}
		h := &handshake{g: g, source: source}
		go func() {
			defer h.done()
			serve(c, h)
		}()
	}
}
