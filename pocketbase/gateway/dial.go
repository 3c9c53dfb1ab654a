package gateway

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"net/netip"
	"strconv"
	"time"
)

// Refusal kinds of a dial, each answered in its protocol's words.
var (
	errTargetRefused = errors.New("the target address is not allowed through this gateway")
	errUpstream      = errors.New("the proxy's upstream could not be reached")
)

// dialError wraps a failure to reach the target itself.
type dialError struct{ err error }

func (e *dialError) Error() string { return e.err.Error() }

func (e *dialError) Unwrap() error { return e.err }

// Dialer opens the connection a grant's traffic leaves through.
type Dialer struct {
	guard    *Guard
	index    *Index
	health   *upstreamHealth
	sessions sessions
	timeout  time.Duration
	resolver *net.Resolver
}

// conn is an open connection to the target: the TCP connection to relay with, and bytes
// an upstream sent after its handshake that belong to the client.
type conn struct {
	tcp     *net.TCPConn
	pending []byte
}

// Dial reaches host:port for the grant, through its exit (or its pool's).
func (d *Dialer) Dial(ctx context.Context, g *Grant, opts Options, host string, port int) (*conn, error) {
	ctx, cancel := context.WithTimeout(ctx, d.timeout)
	defer cancel()
	candidates := d.exitsFor(g, opts)
	var lastErr error = errUpstream
	for _, exit := range candidates {
		c, err := d.dialExit(ctx, exit, host, port)
		if err == nil {
			if exit.Upstream {
				d.health.succeeded(exit.ProxyID)
			}
			if opts.Session != "" {
				now := time.Now()
				d.sessions.put(sessionKey{g.ProxyID, opts.Session}, exit.ProxyID, now.Add(opts.SessionTime), now)
			}
			return c, nil
		}
		var de *dialError
		if !exit.Upstream || errors.Is(err, errTargetRefused) || errors.As(err, &de) || ctx.Err() != nil {
			return nil, err
		}
		d.health.failed(exit, err)
		lastErr = err
	}
	return nil, lastErr
}

// exitsFor lists the exits to try in order: a proxy's own, or for RESIDENTIAL its pool
// (the session's upstream first, else a random start), skipping upstreams that failed.
func (d *Dialer) exitsFor(g *Grant, opts Options) []Exit {
	if g.Type != "RESIDENTIAL" {
		return []Exit{g.Exit}
	}
	pool := d.index.Pool(g, opts.Country)
	if len(pool) == 0 {
		if opts.Country != "" && opts.Country != g.Country {
			return nil
		}
		return []Exit{g.Exit}
	}
	now := time.Now()
	healthy := make([]Exit, 0, len(pool))
	for _, e := range pool {
		if !d.health.skip(e.ProxyID, now) {
			healthy = append(healthy, e)
		}
	}
	if len(healthy) == 0 {
		healthy = pool // all failing: try them anyway rather than refuse
	}
	start := rand.IntN(len(healthy))
	if opts.Session != "" {
		if id := d.sessions.get(sessionKey{g.ProxyID, opts.Session}, now); id != "" {
			for i, e := range healthy {
				if e.ProxyID == id {
					start = i
				}
			}
		}
	}
	ordered := append(append([]Exit{}, healthy[start:]...), healthy[:start]...)
	if len(ordered) > 3 {
		ordered = ordered[:3]
	}
	return ordered
}

func (d *Dialer) dialExit(ctx context.Context, exit Exit, host string, port int) (*conn, error) {
	if !exit.Upstream {
		tcp, err := d.dialDirect(ctx, exit.BindAddr, host, port)
		if err != nil {
			return nil, err
		}
		return &conn{tcp: tcp}, nil
	}
	// The upstream resolves the target; a literal address is checked here.
	if addr, err := netip.ParseAddr(host); err == nil && !d.guard.Allows(addr) {
		return nil, errTargetRefused
	}
	var dialer net.Dialer
	raw, err := dialer.DialContext(ctx, "tcp", net.JoinHostPort(exit.Host, strconv.Itoa(exit.Port)))
	if err != nil {
		return nil, fmt.Errorf("upstream %s:%d: %w", exit.Host, exit.Port, err)
	}
	tcp := raw.(*net.TCPConn)
	if deadline, ok := ctx.Deadline(); ok {
		_ = tcp.SetDeadline(deadline)
	}
	var pending []byte
	if exit.SOCKS {
		err = socksClientConnect(tcp, exit.Username, exit.Password, host, port)
	} else {
		pending, err = httpClientConnect(tcp, exit.Username, exit.Password, host, port)
	}
	if err != nil {
		tcp.Close()
		return nil, err
	}
	_ = tcp.SetDeadline(time.Time{})
	return &conn{tcp: tcp, pending: pending}, nil
}

// dialDirect resolves the target on the gateway and dials the first address the guard
// allows (each address is checked: a name may resolve to a private one).
func (d *Dialer) dialDirect(ctx context.Context, bindAddr, host string, port int) (*net.TCPConn, error) {
	var addrs []netip.Addr
	if a, err := netip.ParseAddr(host); err == nil {
		addrs = []netip.Addr{a}
	} else {
		resolved, err := d.resolver.LookupNetIP(ctx, "ip", host)
		if err != nil {
			return nil, &dialError{fmt.Errorf("cannot resolve %s: %w", host, err)}
		}
		addrs = resolved
	}
	dialer := net.Dialer{}
	if bindAddr != "" {
		if local, err := netip.ParseAddr(bindAddr); err == nil {
			dialer.LocalAddr = &net.TCPAddr{IP: local.AsSlice()}
		}
	}
	refused := false
	var lastErr error
	for _, a := range addrs {
		if !d.guard.Allows(a) {
			refused = true
			continue
		}
		if dialer.LocalAddr != nil && a.Unmap().Is4() != netip.MustParseAddr(bindAddr).Unmap().Is4() {
			continue // a bound address only reaches targets of its own family
		}
		raw, err := dialer.DialContext(ctx, "tcp", netip.AddrPortFrom(a.Unmap(), uint16(port)).String())
		if err == nil {
			return raw.(*net.TCPConn), nil
		}
		lastErr = err
	}
	if lastErr == nil && refused {
		return nil, errTargetRefused
	}
	if lastErr == nil {
		lastErr = fmt.Errorf("no address of %s can be reached from this gateway", host)
	}
	return nil, &dialError{lastErr}
}
