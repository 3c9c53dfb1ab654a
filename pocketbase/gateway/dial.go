package gateway

import (
	"bufio"
	"cmp"
	"container/list"
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/netip"
	"strconv"
	"sync"
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

// Sticky sessions are bounded: a proxy keeps its newest maxSessionsPerProxy, the gateway
// its newest maxSessions (a customer inventing session ids cannot grow memory without end).
const (
	maxSessionsPerProxy = 5_000
	maxSessions         = 200_000
)

// sessions keeps a sticky session's upstream until it expires, or until newer sessions
// push it out (the oldest first).
type sessions struct {
	mu       sync.Mutex
	byKey    map[sessionKey]*list.Element // of *session, in all and in its proxy's list
	all      *list.List                   // every session, oldest first
	perProxy map[string]*list.List        // each proxy's sessions, oldest first
	pruned   time.Time
	// maxPerProxy and maxTotal: the bounds (tests lower them).
	maxPerProxy, maxTotal int
}

type sessionKey struct{ proxyID, name string }

type session struct {
	key    sessionKey
	exitID string
	until  time.Time
	own    *list.Element // in perProxy[key.proxyID]
}

func (s *sessions) get(key sessionKey, now time.Time) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if e, ok := s.byKey[key]; ok && now.Before(e.Value.(*session).until) {
		return e.Value.(*session).exitID
	}
	return ""
}

func (s *sessions) put(key sessionKey, exitID string, until time.Time, now time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.byKey == nil {
		s.byKey, s.all, s.perProxy = map[sessionKey]*list.Element{}, list.New(), map[string]*list.List{}
	}
	if now.Sub(s.pruned) > time.Minute {
		for e := s.all.Front(); e != nil; {
			next := e.Next()
			if !now.Before(e.Value.(*session).until) {
				s.removeLocked(e)
			}
			e = next
		}
		s.pruned = now
	}
	if e, ok := s.byKey[key]; ok {
		s.removeLocked(e) // put again as the newest
	}
	own := s.perProxy[key.proxyID]
	if own == nil {
		own = list.New()
		s.perProxy[key.proxyID] = own
	}
	v := &session{key: key, exitID: exitID, until: until}
	s.byKey[key] = s.all.PushBack(v)
	v.own = own.PushBack(s.byKey[key])
	if own.Len() > cmp.Or(s.maxPerProxy, maxSessionsPerProxy) {
		s.removeLocked(own.Front().Value.(*list.Element))
	}
	if s.all.Len() > cmp.Or(s.maxTotal, maxSessions) {
		s.removeLocked(s.all.Front())
	}
}

func (s *sessions) removeLocked(e *list.Element) {
	v := e.Value.(*session)
	s.all.Remove(e)
	delete(s.byKey, v.key)
	if own := s.perProxy[v.key.proxyID]; own != nil {
		own.Remove(v.own)
		if own.Len() == 0 {
			delete(s.perProxy, v.key.proxyID)
		}
	}
}

func (s *sessions) len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.byKey)
}

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
		d.health.failed(exit.ProxyID, err)
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

// httpClientConnect asks an HTTP upstream for a tunnel (CONNECT) to host:port.
func httpClientConnect(c *net.TCPConn, username, password, host string, port int) ([]byte, error) {
	target := net.JoinHostPort(host, strconv.Itoa(port))
	req := "CONNECT " + target + " HTTP/1.1\r\nHost: " + target + "\r\n"
	if username != "" || password != "" {
		req += "Proxy-Authorization: Basic " + base64.StdEncoding.EncodeToString([]byte(username+":"+password)) + "\r\n"
	}
	if _, err := io.WriteString(c, req+"\r\n"); err != nil {
		return nil, fmt.Errorf("upstream: %w", err)
	}
	br := bufio.NewReader(io.LimitReader(c, maxHeaderBytes))
	resp, err := http.ReadResponse(br, &http.Request{Method: http.MethodConnect})
	if err != nil {
		return nil, fmt.Errorf("upstream: %w", err)
	}
	if resp.StatusCode != http.StatusOK {
		resp.Body.Close()
		err := fmt.Errorf("upstream answered %s", resp.Status)
		if resp.StatusCode == http.StatusProxyAuthRequired || resp.StatusCode == http.StatusUnauthorized {
			return nil, err // the upstream itself refuses us
		}
		return nil, &dialError{err} // it could not reach the target
	}
	pending := make([]byte, br.Buffered())
	_, _ = io.ReadFull(br, pending)
	return pending, nil
}

// socksClientConnect does an RFC 1928/1929 CONNECT to host:port through a SOCKS5 upstream.
func socksClientConnect(c *net.TCPConn, username, password, host string, port int) error {
	method := byte(0x00)
	if username != "" || password != "" {
		method = 0x02
	}
	if _, err := c.Write([]byte{5, 1, method}); err != nil {
		return fmt.Errorf("upstream: %w", err)
	}
	reply := make([]byte, 2)
	if _, err := io.ReadFull(c, reply); err != nil {
		return fmt.Errorf("upstream: %w", err)
	}
	if reply[0] != 5 || reply[1] != method {
		return errors.New("upstream refused the SOCKS5 authentication method")
	}
	if method == 0x02 {
		if len(username) > 255 || len(password) > 255 {
			return errors.New("upstream credentials are too long for SOCKS5")
		}
		msg := append([]byte{1, byte(len(username))}, username...)
		msg = append(append(msg, byte(len(password))), password...)
		if _, err := c.Write(msg); err != nil {
			return fmt.Errorf("upstream: %w", err)
		}
		if _, err := io.ReadFull(c, reply); err != nil {
			return fmt.Errorf("upstream: %w", err)
		}
		if reply[1] != 0 {
			return errors.New("upstream refused its SOCKS5 username and password")
		}
	}
	req := []byte{5, 1, 0}
	if a, err := netip.ParseAddr(host); err == nil && a.Is4() {
		req = append(append(req, 1), a.AsSlice()...)
	} else if err == nil {
		req = append(append(req, 4), a.AsSlice()...)
	} else {
		if len(host) > 255 {
			return errors.New("target name too long for SOCKS5")
		}
		req = append(append(req, 3, byte(len(host))), host...)
	}
	req = append(req, byte(port>>8), byte(port))
	if _, err := c.Write(req); err != nil {
		return fmt.Errorf("upstream: %w", err)
	}
	head := make([]byte, 4)
	if _, err := io.ReadFull(c, head); err != nil {
		return fmt.Errorf("upstream: %w", err)
	}
	if head[1] != 0 {
		return &dialError{fmt.Errorf("upstream could not connect to the target (SOCKS5 reply %d)", head[1])}
	}
	skip := 0
	switch head[3] {
	case 1:
		skip = 4
	case 4:
		skip = 16
	case 3:
		n := make([]byte, 1)
		if _, err := io.ReadFull(c, n); err != nil {
			return fmt.Errorf("upstream: %w", err)
		}
		skip = int(n[0])
	default:
		return errors.New("upstream sent a malformed SOCKS5 reply")
	}
	_, err := io.ReadFull(c, make([]byte, skip+2))
	return err
}
