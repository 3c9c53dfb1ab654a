// Package gateway is the shop's proxy gateway: an HTTP proxy port (plain forwarding and
// CONNECT) and a SOCKS5 port (RFC 1928 CONNECT with RFC 1929 username/password) that
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
	"io"
	"log/slog"
	"net"
	"net/netip"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Source is where the gateway reads proxies from.
type Source interface {
	// Load answers every proxy and the change cursor the snapshot includes.
	Load(ctx context.Context) ([]Record, int64, error)
	// Changes answers the ids of the proxies changed after `cursor` and the new cursor;
	// reset says the cursor is too old to follow and everything must be loaded again.
	Changes(ctx context.Context, cursor int64) (ids []string, next int64, reset bool, err error)
	// Fetch answers the proxies among ids that exist (an id left out was deleted).
	Fetch(ctx context.Context, ids []string) ([]Record, error)
	// AllowedRanges answers the target ranges an admin allows despite the guard.
	AllowedRanges(ctx context.Context) ([]netip.Prefix, error)
	// ReportUpstream records that an upstream failed (err) or works again (nil).
	ReportUpstream(ctx context.Context, proxyID string, err error) error
	// FlushUsage adds a batch of counts to the hourly usage rows.
	FlushUsage(ctx context.Context, batch UsageBatch) error
	// MonthUsage answers each proxy's bytes (up and down) since `month` began.
	MonthUsage(ctx context.Context, month time.Time) (map[string]int64, error)
}

// Config is what the gateway listens on and how it behaves.
type Config struct {
	HTTPAddr  string // "host:port" of the HTTP proxy listener; "" = off
	SOCKSAddr string // "host:port" of the SOCKS5 listener; "" = off
	// OpenTargets lets connections reach loopback and private addresses: only when the
	// gateway listens on loopback (the embedded default on one machine).
	OpenTargets  bool
	Realm        string
	PollInterval time.Duration
	// AuthTimeout bounds a connection's first bytes and credentials (default 3 s);
	// HandshakeTimeout the whole handshake after them (default 10 s).
	AuthTimeout      time.Duration
	HandshakeTimeout time.Duration
	DialTimeout      time.Duration
	FlushInterval    time.Duration
	// MaxHandshakes bounds the connections in their handshake at once (default 4096), a
	// backstop behind MaxHandshakesPerSource: the connections of one address (an IPv6 /64)
	// not yet authenticated (default 128).
	MaxHandshakes          int
	MaxHandshakesPerSource int
	// AuthFailureLimit: an address (an IPv6 /64) with this many failed sign-ins within a
	// minute is refused until that minute ends (default 30; negative: no limit).
	AuthFailureLimit int
	// CatchUpEvery bounds how often failed sign-ins may make the gateway read the source's
	// changes at once (default 5 ms; a gateway following the shop over its API: more).
	CatchUpEvery time.Duration
	// MaxStale: without a successful read of the source's changes for this long the
	// gateway refuses new connections until it reads again (default 60 s; negative: never).
	MaxStale time.Duration
	// Name names this gateway in its stats rows (default GATEWAY_NAME or the host name).
	Name   string
	Logger *slog.Logger
}

func (c *Config) defaults() {
	if c.Realm == "" {
		c.Realm = "Proxy gateway"
	}
	if c.PollInterval <= 0 {
		c.PollInterval = 200 * time.Millisecond
	}
	if c.HandshakeTimeout <= 0 {
		c.HandshakeTimeout = 10 * time.Second
	}
	if c.AuthTimeout <= 0 {
		c.AuthTimeout = 3 * time.Second
	}
	c.AuthTimeout = min(c.AuthTimeout, c.HandshakeTimeout)
	if c.MaxHandshakesPerSource <= 0 {
		c.MaxHandshakesPerSource = 128
	}
	if c.AuthFailureLimit == 0 {
		c.AuthFailureLimit = 30
	}
	if c.CatchUpEvery <= 0 {
		c.CatchUpEvery = 5 * time.Millisecond
	}
	if c.MaxStale == 0 {
		c.MaxStale = time.Minute
	}
	if c.DialTimeout <= 0 {
		c.DialTimeout = 10 * time.Second
	}
	if c.MaxHandshakes <= 0 {
		c.MaxHandshakes = 4096
	}
	if c.FlushInterval <= 0 {
		c.FlushInterval = FlushInterval
	}
	if c.Name == "" {
		c.Name = gatewayName()
	}
	if c.Logger == nil {
		c.Logger = slog.Default()
	}
}

// Gateway is a running gateway.
type Gateway struct {
	cfg     Config
	source  Source
	index   *Index
	guard   *Guard
	dialer  *Dialer
	tunnels *tunnels
	meter   *Meter
	quotas  quotas

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
		cfg:        cfg,
		source:     source,
		index:      NewIndex(),
		guard:      NewGuard(cfg.OpenTargets),
		tunnels:    newTunnels(),
		meter:      newMeter(),
		ctx:        ctx,
		handshakes: make(chan struct{}, cfg.MaxHandshakes),
		failures:   failures{limit: cfg.AuthFailureLimit},
		fatal:      make(chan error, 1),
		cancel:     cancel,
	}
	g.dialer = &Dialer{
		guard:    g.guard,
		index:    g.index,
		timeout:  cfg.DialTimeout,
		resolver: net.DefaultResolver,
		health: newUpstreamHealth(func(proxyID string, err error) {
			go func() {
				if rerr := source.ReportUpstream(g.ctx, proxyID, err); rerr != nil {
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
	}{{g.cfg.HTTPAddr, g.serveHTTP}, {g.cfg.SOCKSAddr, g.serveSOCKS}} {
		if l.addr == "" {
			continue
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

// Addrs are the listeners' addresses (HTTP first when both are open).
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

// reload loads everything from the source.
func (g *Gateway) reload() error {
	g.pollMu.Lock()
	defer g.pollMu.Unlock()
	return g.reloadLocked()
}

func (g *Gateway) reloadLocked() error {
	records, cursor, err := g.source.Load(g.ctx)
	if err != nil {
		return err
	}
	for i := range records {
		g.dialer.health.seed(records[i].ID, records[i].UpstreamFailed)
	}
	g.applyChanges(g.index.Replace(records))
	g.cursor = cursor
	g.updated.Store(time.Now().UnixNano())
	g.refreshGuard()
	return nil
}

// refreshGuard gives the guard the ranges an admin allows and the addresses this gateway
// listens on and sends from (never dialled).
func (g *Gateway) refreshGuard() {
	bound := g.index.BindAddresses()
	for _, l := range g.listeners {
		if ap, err := netip.ParseAddrPort(l.Addr().String()); err == nil {
			bound = append(bound, ap.Addr())
		}
	}
	g.guard.SetBound(bound)
	prefixes, err := g.source.AllowedRanges(g.ctx)
	if err != nil {
		g.cfg.Logger.Warn("gateway: cannot read the allowed target ranges", "error", err)
		return
	}
	g.guard.SetAllowed(prefixes)
}

// catchUp makes sure a poll that began after `since` has finished (a login that failed
// at `since` then sees every change committed before it: a proxy bought a moment ago
// works at once); it answers whether the index may have changed meanwhile.
func (g *Gateway) catchUp(since time.Time) bool {
	g.pollMu.Lock()
	defer g.pollMu.Unlock()
	if g.lastPoll.After(since) {
		return true // a poll started after the login and has finished (we hold its lock)
	}
	if wait := g.cfg.CatchUpEvery - time.Since(g.lastPoll); wait > 0 {
		time.Sleep(wait)
	}
	return g.pollLocked() == nil
}

func (g *Gateway) poll() error {
	g.pollMu.Lock()
	defer g.pollMu.Unlock()
	return g.pollLocked()
}

func (g *Gateway) pollLocked() error {
	g.lastPoll = time.Now()
	ids, next, reset, err := g.source.Changes(g.ctx, g.cursor)
	if err != nil {
		return err
	}
	if reset {
		return g.reloadLocked()
	}
	if len(ids) > 0 {
		records, err := g.source.Fetch(g.ctx, ids)
		if err != nil {
			return err
		}
		for i := range records {
			g.dialer.health.seed(records[i].ID, records[i].UpstreamFailed)
		}
		g.applyChanges(g.index.Apply(ids, records))
	}
	g.cursor = next
	g.updated.Store(time.Now().UnixNano())
	return nil
}

func (g *Gateway) applyChanges(changes []Change) {
	for _, c := range changes {
		spent := c.Grant != nil && g.quotas.grantChanged(c.Grant, c.NewTerm)
		if c.Revoked || spent {
			g.tunnels.cut(c.ProxyID)
		} else if c.Grant != nil {
			g.tunnels.expireAt(c.ProxyID, c.Grant.ExpiresAt)
		}
	}
}

// refusal is why a connection is not served, in words a customer can act on.
type refusal struct {
	status int  // HTTP status
	socks  byte // SOCKS5 reply code (after authentication)
	text   string
}

var (
	refusedCredentials = &refusal{407, 0, "Proxy authentication required: use the username and password of an active proxy."}
	refusedPort        = &refusal{407, 0, "This proxy's type is not served on this port."}
	refusedClient      = &refusal{407, 0, "This proxy does not accept connections from your address (IP allowlist)."}
)

// authorize finds the grant for credentials given on `port` from `client`. Credentials it
// does not know make it catch up with the source first (a proxy bought a moment ago works
// at once), unless the same ones failed so just before; an address with too many failures
// is refused without looking.
func (g *Gateway) authorize(username, password string, port Port, client netip.Addr) (*Grant, Options, *refusal) {
	source, started := sourceOf(client), time.Now()
	if wait := g.failures.blockedFor(source, started); wait > 0 {
		return nil, Options{}, refusedGuessing(wait)
	}
	grant, opts, refused := g.authorizeNow(username, password, port, client)
	if refused != refusedCredentials {
		return grant, opts, refused
	}
	miss := missKey(username, password)
	if !g.misses.recent(miss, started) && g.catchUp(started) {
		grant, opts, refused = g.authorizeNow(username, password, port, client)
	}
	if refused == refusedCredentials {
		now := time.Now()
		g.misses.add(miss, now)
		g.failures.add(source, now)
	}
	return grant, opts, refused
}

func (g *Gateway) authorizeNow(username, password string, port Port, client netip.Addr) (*Grant, Options, *refusal) {
	grant := g.index.Authenticate(username, password)
	opts := Options{}
	if grant == nil {
		base, parsed, err := splitUsername(username)
		if err != nil {
			return nil, opts, &refusal{407, 0, "Proxy authentication failed: " + err.Error() + "."}
		}
		if parsed.empty() {
			return nil, opts, refusedCredentials
		}
		grant = g.index.Authenticate(base, password)
		if grant == nil {
			return nil, opts, refusedCredentials
		}
		if grant.Type != "RESIDENTIAL" {
			return nil, opts, &refusal{407, 0, "Username options (-session, -sesstime, -country) are for RESIDENTIAL proxies only."}
		}
		if parsed.Country != "" && grant.Country != "" && !strings.EqualFold(parsed.Country, grant.Country) {
			return nil, opts, &refusal{407, 0, "-country-" + parsed.Country + " is outside the location this proxy was bought for."}
		}
		opts = parsed
	}
	if grant.expired(time.Now()) {
		return nil, opts, refusedCredentials
	}
	if !grant.allowsPort(port) {
		return nil, opts, refusedPort
	}
	if !grant.allowsClient(client) {
		return nil, opts, refusedClient
	}
	return grant, opts, nil
}

func clientAddr(c net.Conn) netip.Addr {
	if ap, err := netip.ParseAddrPort(c.RemoteAddr().String()); err == nil {
		return ap.Addr().Unmap()
	}
	return netip.Addr{}
}

// dial reaches the target for a grant and meters the attempt.
func (g *Gateway) dial(grant *Grant, opts Options, host string, port int) (*conn, error) {
	started := time.Now()
	target, err := g.dialer.Dial(g.ctx, grant, opts, host, port)
	if err != nil {
		if !errors.Is(err, errTargetRefused) {
			g.meter.failed.Add(1)
			g.meter.of(grant.ProxyID, grant.OwnerID).failed.Add(1)
		}
		return nil, err
	}
	g.meter.connected(time.Since(started))
	return target, nil
}

// open runs a tunnel for a grant between client and target until it ends or is cut.
// oneWay: a plain HTTP request, whose client may send nothing more to the target.
// refuse answers the client in its protocol when the grant was revoked meanwhile.
// greet answers the client and sends what it already had for the target (a plain
// request, bytes sent before CONNECT's answer) through toTarget, which meters them and
// draws them on the proxy's budget. When the budget runs out, every tunnel of the proxy
// ends at its last byte.
func (g *Gateway) open(grant *Grant, client *net.TCPConn, target *conn, oneWay bool, greet func(toTarget io.Writer) error, refuse func(*refusal)) {
	t := &tunnel{proxyID: grant.ProxyID, client: client, target: target.tcp}
	g.tunnels.add(t, grant.ExpiresAt)
	defer g.tunnels.remove(t)
	// A change that landed between authorisation and now: the grant must still be current.
	if current := g.index.Grant(grant.ProxyID); current == nil || !current.sameAccess(grant) {
		target.tcp.Close()
		refuse(refusedCredentials)
		return
	}
	usage := g.meter.of(grant.ProxyID, grant.OwnerID)
	usage.connections.Add(1)
	b := g.quotas.of(grant)
	up := func(n int64) { usage.up.Add(n) }
	down := func(n int64) { usage.down.Add(n) }
	err := greet(&drawingWriter{w: target.tcp, b: b, add: up})
	if err == nil && len(target.pending) > 0 {
		_, err = (&drawingWriter{w: client, b: b, add: down}).Write(target.pending)
	}
	if err == nil && oneWay {
		err = pump(client, target.tcp, b, down)
	} else if err == nil {
		err = relay(client, target.tcp, b, up, down)
	}
	t.cut()
	if errors.Is(err, errBudgetSpent) {
		g.tunnels.cut(grant.ProxyID)
	}
}
