package gateway

import (
	"bufio"
	"context"
	"encoding/base64"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"
)

// assigned is an ASSIGNED proxy of a type, exiting directly, valid for an hour.
func assigned(id, typ string) Record {
	return Record{ID: id, Username: "user-" + id, Password: "pass-" + id, Type: typ, Status: "ASSIGNED",
		ExpiresAt: time.Now().Add(time.Hour), OwnerID: "owner", Country: "US", Exit: Exit{ProxyID: id}}
}

// echoServer answers HTTP requests with "<name> <path>" and, on /, echoes raw TCP otherwise.
type echoServer struct {
	addr string
	name string
	mu   sync.Mutex
	hits int
}

// serveLoopback answers each connection to a new loopback port with `serve` (in a
// goroutine of its own) until the test ends, and answers the port's address.
func serveLoopback(t *testing.T, serve func(net.Conn)) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go serve(c)
		}
	}()
	return ln.Addr().String()
}

func startEcho(t *testing.T, name string) *echoServer {
	t.Helper()
	e := &echoServer{name: name}
	e.addr = serveLoopback(t, e.serve)
	return e
}

func (e *echoServer) serve(c net.Conn) {
	defer c.Close()
	e.mu.Lock()
	e.hits++
	e.mu.Unlock()
	br := bufio.NewReader(c)
	first, err := br.Peek(4)
	if err != nil {
		return
	}
	if string(first) == "GET " {
		req, err := http.ReadRequest(br)
		if err != nil {
			return
		}
		body := e.name + " " + req.URL.Path + " auth=" + req.Header.Get("Proxy-Authorization")
		fmt.Fprintf(c, "HTTP/1.1 200 OK\r\nContent-Length: %d\r\nConnection: close\r\n\r\n%s", len(body), body)
		return
	}
	_, _ = io.Copy(c, br) // raw echo
}

func (e *echoServer) hitCount() int {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.hits
}

func startGateway(t *testing.T, src Source, open bool) *Gateway {
	t.Helper()
	g := New(Config{HTTPAddr: "127.0.0.1:0", SOCKSAddr: "127.0.0.1:0", OpenTargets: open, PollInterval: 20 * time.Millisecond}, src)
	if err := g.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(g.Close)
	return g
}

func (g *Gateway) httpAddr() string  { return g.listeners[0].Addr().String() }
func (g *Gateway) socksAddr() string { return g.listeners[1].Addr().String() }

// viaHTTP fetches http://target/path through the gateway's HTTP port (plain forwarding).
func viaHTTP(gw string, user, pass, target, path string) (int, string, error) {
	proxy := &url.URL{Scheme: "http", User: url.UserPassword(user, pass), Host: gw}
	client := &http.Client{Transport: &http.Transport{Proxy: http.ProxyURL(proxy), DisableKeepAlives: true}, Timeout: 5 * time.Second}
	res, err := client.Get("http://" + target + path)
	if err != nil {
		return 0, "", err
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(body), nil
}

// connectTunnel opens a CONNECT tunnel and answers the status and the connection.
func connectTunnel(gw, user, pass, target string) (int, net.Conn, error) {
	c, err := net.Dial("tcp", gw)
	if err != nil {
		return 0, nil, err
	}
	auth := base64.StdEncoding.EncodeToString([]byte(user + ":" + pass))
	fmt.Fprintf(c, "CONNECT %s HTTP/1.1\r\nHost: %s\r\nProxy-Authorization: Basic %s\r\n\r\n", target, target, auth)
	br := bufio.NewReader(c)
	res, err := http.ReadResponse(br, &http.Request{Method: http.MethodConnect})
	if err != nil {
		c.Close()
		return 0, nil, err
	}
	if res.StatusCode != 200 {
		c.Close()
		return res.StatusCode, nil, nil
	}
	return 200, &readerConn{Conn: c, r: br}, nil
}

// readerConn reads through the buffer that read the CONNECT answer (it may hold the
// tunnel's first bytes already).
type readerConn struct {
	net.Conn
	r io.Reader
}

func (c *readerConn) Read(p []byte) (int, error) { return c.r.Read(p) }

// socksConnect does a SOCKS5 handshake; answers the auth status, the reply code and the conn.
func socksConnect(gw, user, pass, host string, port int) (byte, byte, net.Conn, error) {
	c, err := net.Dial("tcp", gw)
	if err != nil {
		return 0, 0, nil, err
	}
	_ = c.SetDeadline(time.Now().Add(5 * time.Second))
	c.Write([]byte{5, 1, 2})
	buf := make([]byte, 300)
	if _, err := io.ReadFull(c, buf[:2]); err != nil {
		return 0, 0, nil, err
	}
	msg := append([]byte{1, byte(len(user))}, user...)
	msg = append(append(msg, byte(len(pass))), pass...)
	c.Write(msg)
	if _, err := io.ReadFull(c, buf[:2]); err != nil {
		return 0, 0, nil, err
	}
	if buf[1] != 0 {
		c.Close()
		return buf[1], 0, nil, nil
	}
	req := append([]byte{5, 1, 0, 3, byte(len(host))}, host...)
	req = append(req, byte(port>>8), byte(port))
	c.Write(req)
	if _, err := io.ReadFull(c, buf[:10]); err != nil {
		return 0, 0, nil, err
	}
	if buf[1] != 0 {
		c.Close()
		return 0, buf[1], nil, nil
	}
	_ = c.SetDeadline(time.Time{})
	return 0, 0, c, nil
}

func roundTrip(t *testing.T, c net.Conn, text string) {
	t.Helper()
	_ = c.SetDeadline(time.Now().Add(3 * time.Second))
	if _, err := c.Write([]byte(text)); err != nil {
		t.Fatal(err)
	}
	got := make([]byte, len(text))
	if _, err := io.ReadFull(c, got); err != nil {
		t.Fatal(err)
	}
	if string(got) != text {
		t.Fatalf("echo: got %q want %q", got, text)
	}
}

// waitClosed answers how long until the peer closes c (fails after `limit`).
func waitClosed(t *testing.T, c net.Conn, limit time.Duration) time.Duration {
	t.Helper()
	start := time.Now()
	_ = c.SetReadDeadline(start.Add(limit))
	_, err := c.Read(make([]byte, 1))
	if ne, ok := err.(net.Error); ok && ne.Timeout() {
		t.Fatalf("tunnel still open after %v", limit)
	}
	return time.Since(start)
}

func TestEachProtocolWithValidCredentials(t *testing.T) {
	echo := startEcho(t, "echo")
	src := NewStaticSource(assigned("dc", "DATACENTER"), assigned("h", "HTTP"), assigned("s", "SOCKS5"))
	g := startGateway(t, src, true)

	status, body, err := viaHTTP(g.httpAddr(), "user-dc", "pass-dc", echo.addr, "/plain")
	if err != nil || status != 200 || !strings.HasPrefix(body, "echo /plain") {
		t.Fatalf("plain HTTP: %d %q %v", status, body, err)
	}
	if strings.Contains(body, "auth=Basic") {
		t.Fatal("the customer's Proxy-Authorization reached the target")
	}
	status, c, err := connectTunnel(g.httpAddr(), "user-h", "pass-h", echo.addr)
	if err != nil || status != 200 {
		t.Fatalf("CONNECT: %d %v", status, err)
	}
	roundTrip(t, c, "through CONNECT")
	c.Close()

	_, port, _ := net.SplitHostPort(echo.addr)
	var p int
	fmt.Sscan(port, &p)
	authStatus, reply, sc, err := socksConnect(g.socksAddr(), "user-s", "pass-s", "localhost", p)
	if err != nil || authStatus != 0 || reply != 0 {
		t.Fatalf("SOCKS5: auth %d reply %d %v", authStatus, reply, err)
	}
	roundTrip(t, sc, "through SOCKS5, name resolved on the gateway")
	sc.Close()
	if g.Meter().Peek("h").Connections != 1 || g.Meter().Peek("h").BytesUp < 15 {
		t.Fatalf("meter: %+v", g.Meter().Peek("h"))
	}
}

func TestRefusalsDialNothing(t *testing.T) {
	echo := startEcho(t, "echo")
	expired := assigned("old", "DATACENTER")
	expired.ExpiresAt = time.Now().Add(-time.Minute)
	available := assigned("stock", "DATACENTER")
	available.Status = "AVAILABLE"
	suspended := assigned("susp", "DATACENTER")
	suspended.OwnerBlocked = true
	allowlisted := assigned("allow", "DATACENTER")
	allowlisted.Allowlist = []netip.Prefix{netip.MustParsePrefix("203.0.113.0/24")}
	src := NewStaticSource(assigned("dc", "DATACENTER"), assigned("h", "HTTP"), assigned("s", "SOCKS5"), expired, available, suspended, allowlisted)
	g := startGateway(t, src, true)

	cases := []struct{ name, user, pass string }{
		{"wrong password", "user-dc", "nope"},
		{"unknown user", "nobody", "pass-dc"},
		{"expired", "user-old", "pass-old"},
		{"not assigned", "user-stock", "pass-stock"},
		{"owner suspended", "user-susp", "pass-susp"},
		{"SOCKS5 proxy on the HTTP port", "user-s", "pass-s"},
		{"address outside the allowlist", "user-allow", "pass-allow"},
		{"options on a non-RESIDENTIAL proxy", "user-dc-session-abc", "pass-dc"},
	}
	for _, tc := range cases {
		status, _, err := connectTunnel(g.httpAddr(), tc.user, tc.pass, echo.addr)
		if err != nil || status != 407 {
			t.Errorf("%s: CONNECT answered %d (%v), want 407", tc.name, status, err)
		}
	}
	// 407 says how to authenticate.
	c, _ := net.Dial("tcp", g.httpAddr())
	fmt.Fprintf(c, "GET http://%s/ HTTP/1.1\r\nHost: %s\r\n\r\n", echo.addr, echo.addr)
	res, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil || res.StatusCode != 407 || !strings.HasPrefix(res.Header.Get("Proxy-Authenticate"), "Basic realm=") {
		t.Fatalf("no credentials: %v %v", res, err)
	}
	c.Close()
	// HTTP proxies on the SOCKS5 port: RFC 1929 failure.
	authStatus, _, _, err := socksConnect(g.socksAddr(), "user-h", "pass-h", "localhost", 80)
	if err != nil || authStatus == 0 {
		t.Fatalf("HTTP proxy on the SOCKS5 port: auth status %d %v", authStatus, err)
	}
	authStatus, _, _, _ = socksConnect(g.socksAddr(), "user-s", "wrong", "localhost", 80)
	if authStatus == 0 {
		t.Fatal("wrong SOCKS5 password accepted")
	}
	if echo.hitCount() != 0 {
		t.Fatalf("a refused connection reached the target %d times", echo.hitCount())
	}
}

func TestChangesAreFollowedAndTunnelsCut(t *testing.T) {
	echo := startEcho(t, "echo")
	proxy := assigned("p", "DATACENTER")
	src := NewStaticSource(proxy)
	g := startGateway(t, src, true)

	status, c, err := connectTunnel(g.httpAddr(), "user-p", "pass-p", echo.addr)
	if err != nil || status != 200 {
		t.Fatalf("CONNECT: %d %v", status, err)
	}
	roundTrip(t, c, "before")

	// A renewal (new expiry only) keeps the tunnel.
	renewed := proxy
	renewed.ExpiresAt = proxy.ExpiresAt.Add(24 * time.Hour)
	src.Put(renewed)
	time.Sleep(100 * time.Millisecond)
	roundTrip(t, c, "after renewal")

	// New credentials: the tunnel is cut and the old password refused.
	regenerated := renewed
	regenerated.Password = "new-pass"
	src.Put(regenerated)
	if took := waitClosed(t, c, time.Second); took > time.Second {
		t.Fatalf("cut after %v", took)
	}
	if status, _, _ := connectTunnel(g.httpAddr(), "user-p", "pass-p", echo.addr); status != 407 {
		t.Fatalf("old password: %d", status)
	}
	if status, c2, _ := connectTunnel(g.httpAddr(), "user-p", "new-pass", echo.addr); status != 200 {
		t.Fatalf("new password: %d", status)
	} else {
		src.Remove("p")
		waitClosed(t, c2, time.Second)
	}
	if status, _, _ := connectTunnel(g.httpAddr(), "user-p", "new-pass", echo.addr); status != 407 {
		t.Fatalf("deleted proxy: %d", status)
	}
}

func TestExpiryByTheGatewaysClock(t *testing.T) {
	echo := startEcho(t, "echo")
	proxy := assigned("soon", "HTTP")
	proxy.ExpiresAt = time.Now().Add(300 * time.Millisecond)
	g := startGateway(t, NewStaticSource(proxy), true)
	status, c, err := connectTunnel(g.httpAddr(), "user-soon", "pass-soon", echo.addr)
	if err != nil || status != 200 {
		t.Fatalf("CONNECT: %d %v", status, err)
	}
	waitClosed(t, c, 2*time.Second)
	if status, _, _ := connectTunnel(g.httpAddr(), "user-soon", "pass-soon", echo.addr); status != 407 {
		t.Fatalf("after expiry: %d", status)
	}
}

func TestPrivateTargetsRefusedUnlessOpenOrAllowed(t *testing.T) {
	echo := startEcho(t, "echo")
	src := NewStaticSource(assigned("dc", "DATACENTER"))
	g := startGateway(t, src, false)
	if status, _, _ := connectTunnel(g.httpAddr(), "user-dc", "pass-dc", echo.addr); status != 403 {
		t.Fatalf("loopback target: %d, want 403", status)
	}
	_, port, _ := net.SplitHostPort(echo.addr)
	if status, _, _ := connectTunnel(g.httpAddr(), "user-dc", "pass-dc", "localhost:"+port); status != 403 {
		t.Fatalf("a name resolving to loopback: %d, want 403", status)
	}
	for _, blocked := range []string{"10.1.2.3", "192.168.0.1", "169.254.169.254", "100.64.0.1", "fd00:ec2::254", "::ffff:127.0.0.1"} {
		if g.guard.Allows(netip.MustParseAddr(blocked)) {
			t.Errorf("%s allowed", blocked)
		}
	}
	if !g.guard.Allows(netip.MustParseAddr("93.184.216.34")) {
		t.Error("a public address refused")
	}
	if echo.hitCount() != 0 {
		t.Fatal("a private target was dialled")
	}
	src.mu.Lock()
	src.allowed = []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}
	src.mu.Unlock()
	g.refreshGuard()
	if status, c, _ := connectTunnel(g.httpAddr(), "user-dc", "pass-dc", echo.addr); status != 200 {
		t.Fatalf("allowed range: %d", status)
	} else {
		c.Close()
	}
}

func TestUpstreamChainsHTTPAndSOCKS(t *testing.T) {
	echo := startEcho(t, "echo")
	// The upstream is another gateway with its own proxies (as a seller's would be).
	upstream := startGateway(t, NewStaticSource(assigned("up", "DATACENTER")), true)
	viaHTTPUp := assigned("chain-http", "DATACENTER")
	host, port, _ := net.SplitHostPort(upstream.httpAddr())
	var p int
	fmt.Sscan(port, &p)
	viaHTTPUp.Exit = Exit{ProxyID: "chain-http", Upstream: true, Host: host, Port: p, Username: "user-up", Password: "pass-up"}
	viaSOCKSUp := assigned("chain-socks", "SOCKS5")
	_, sport, _ := net.SplitHostPort(upstream.socksAddr())
	var sp int
	fmt.Sscan(sport, &sp)
	viaSOCKSUp.Exit = Exit{ProxyID: "chain-socks", Upstream: true, Host: host, Port: sp, Username: "user-up", Password: "pass-up", SOCKS: true}
	g := startGateway(t, NewStaticSource(viaHTTPUp, viaSOCKSUp), true)

	status, c, err := connectTunnel(g.httpAddr(), "user-chain-http", "pass-chain-http", echo.addr)
	if err != nil || status != 200 {
		t.Fatalf("chain over HTTP: %d %v", status, err)
	}
	roundTrip(t, c, "two hops")
	c.Close()
	_, eport, _ := net.SplitHostPort(echo.addr)
	var ep int
	fmt.Sscan(eport, &ep)
	authStatus, reply, sc, err := socksConnect(g.socksAddr(), "user-chain-socks", "pass-chain-socks", "127.0.0.1", ep)
	if err != nil || authStatus != 0 || reply != 0 {
		t.Fatalf("chain over SOCKS5: %d %d %v", authStatus, reply, err)
	}
	roundTrip(t, sc, "two hops, SOCKS5")
	sc.Close()
	if upstream.Meter().Peek("up").Connections != 2 {
		t.Fatalf("the upstream served %d connections", upstream.Meter().Peek("up").Connections)
	}
}

func TestResidentialPoolRotatesStickyAndSkipsFailures(t *testing.T) {
	echo := startEcho(t, "echo")
	records := []Record{}
	upstreams := []*Gateway{}
	for i := 0; i < 3; i++ {
		up := startGateway(t, NewStaticSource(assigned(fmt.Sprintf("u%d", i), "DATACENTER")), true)
		upstreams = append(upstreams, up)
		host, port, _ := net.SplitHostPort(up.httpAddr())
		var p int
		fmt.Sscan(port, &p)
		member := Record{ID: fmt.Sprintf("pool%d", i), Username: fmt.Sprintf("stock%d", i), Type: "RESIDENTIAL", Status: "AVAILABLE", Country: "US",
			Exit: Exit{ProxyID: fmt.Sprintf("pool%d", i), Upstream: true, Host: host, Port: p, Username: fmt.Sprintf("user-u%d", i), Password: fmt.Sprintf("pass-u%d", i)}}
		records = append(records, member)
	}
	// A pool member whose upstream is down.
	dead := Record{ID: "pooldead", Username: "stockdead", Type: "RESIDENTIAL", Status: "AVAILABLE", Country: "US",
		Exit: Exit{ProxyID: "pooldead", Upstream: true, Host: "127.0.0.1", Port: 1, Username: "x", Password: "y"}}
	other := Record{ID: "poolde", Username: "stockde", Type: "RESIDENTIAL", Status: "AVAILABLE", Country: "DE",
		Exit: Exit{ProxyID: "poolde", Upstream: true, Host: "127.0.0.1", Port: 1, Username: "x", Password: "y"}}
	resi := assigned("resi", "RESIDENTIAL")
	resi.Exit = records[0].Exit
	resi.Exit.ProxyID = "resi"
	src := NewStaticSource(append(records, dead, other, resi)...)
	g := startGateway(t, src, true)

	served := func() []int64 {
		out := []int64{}
		for i, up := range upstreams {
			out = append(out, up.Meter().Peek(fmt.Sprintf("u%d", i)).Connections)
		}
		return out
	}
	connectOnce := func(user string) {
		t.Helper()
		status, c, err := connectTunnel(g.httpAddr(), user, "pass-resi", echo.addr)
		if err != nil || status != 200 {
			t.Fatalf("%s: %d %v", user, status, err)
		}
		roundTrip(t, c, "pool hop")
		c.Close()
	}
	for i := 0; i < 30; i++ {
		connectOnce("user-resi")
	}
	used := 0
	for _, n := range served() {
		if n > 0 {
			used++
		}
	}
	if used < 2 {
		t.Fatalf("a plain username did not rotate: %v", served())
	}
	if src.report("pooldead") != "failed" {
		t.Fatalf("the dead upstream was not reported: %q", src.report("pooldead"))
	}

	before := served()
	for i := 0; i < 10; i++ {
		connectOnce("user-resi-session-abc123-sesstime-30")
	}
	after := served()
	grew := 0
	for i := range after {
		if after[i] > before[i] {
			grew++
		}
	}
	if grew != 1 {
		t.Fatalf("a session used %d upstreams: %v -> %v", grew, before, after)
	}
	if status, _, _ := connectTunnel(g.httpAddr(), "user-resi-country-de", "pass-resi", echo.addr); status != 407 {
		t.Fatalf("-country outside the bought location: %d", status)
	}
	if status, _, _ := connectTunnel(g.httpAddr(), "user-resi-sesstime-2000-session-a", "pass-resi", echo.addr); status != 407 {
		t.Fatalf("sesstime over a day: %d", status)
	}
}

func TestSplitUsername(t *testing.T) {
	name, opts, err := splitUsername("res_us_abc-session-s1-sesstime-15-country-us")
	if err != nil || name != "res_us_abc" || opts.Session != "s1" || opts.SessionTime != 15*time.Minute || opts.Country != "US" {
		t.Fatalf("%q %+v %v", name, opts, err)
	}
	name, opts, _ = splitUsername("plain-name")
	if name != "plain-name" || !opts.empty() {
		t.Fatalf("%q %+v", name, opts)
	}
	if _, opts, _ := splitUsername("u-session-x"); opts.SessionTime != DefaultSessionTime {
		t.Fatalf("default session time: %v", opts.SessionTime)
	}
}

func TestMalformedHandshakesAreAnsweredAndClosed(t *testing.T) {
	g := startGateway(t, NewStaticSource(assigned("dc", "DATACENTER")), true)
	for _, junk := range []string{"\x16\x03\x01garbage\r\n\r\n", "GET / HTTP/1.1\r\nHost: x\r\n\r\n", "CONNECT nohost HTTP/1.1\r\n\r\n"} {
		c, _ := net.Dial("tcp", g.httpAddr())
		c.Write([]byte(junk))
		_ = c.SetReadDeadline(time.Now().Add(2 * time.Second))
		out, _ := io.ReadAll(c)
		if !strings.HasPrefix(string(out), "HTTP/1.1 4") {
			t.Errorf("%q answered %q", junk, out)
		}
		c.Close()
	}
	big := "GET http://example.com/ HTTP/1.1\r\nX: " + strings.Repeat("a", 40<<10) + "\r\n\r\n"
	c, _ := net.Dial("tcp", g.httpAddr())
	c.Write([]byte(big))
	_ = c.SetReadDeadline(time.Now().Add(2 * time.Second))
	out, _ := io.ReadAll(c)
	if !strings.HasPrefix(string(out), "HTTP/1.1 431") {
		t.Errorf("oversized header answered %q", out)
	}
	c.Close()
	for _, junk := range [][]byte{{4, 1, 0}, {5, 1, 0}, {5, 0}} {
		c, _ := net.Dial("tcp", g.socksAddr())
		c.Write(junk)
		_ = c.SetReadDeadline(time.Now().Add(2 * time.Second))
		out, _ := io.ReadAll(c)
		if len(out) > 2 || (len(out) == 2 && out[1] != 0xFF) {
			t.Errorf("SOCKS %v answered %v", junk, out)
		}
		c.Close()
	}
}

func TestQuotaAndConcurrencyCap(t *testing.T) {
	echo := startEcho(t, "echo")
	quota := assigned("q", "DATACENTER")
	quota.QuotaBytes = 1000
	capped := assigned("c", "DATACENTER")
	capped.MaxConnections = 1
	src := NewStaticSource(quota, capped)
	src.monthUsed = map[string]int64{"q": 1000}
	g := startGateway(t, src, true)

	c, _ := net.Dial("tcp", g.httpAddr())
	auth := base64.StdEncoding.EncodeToString([]byte("user-q:pass-q"))
	fmt.Fprintf(c, "CONNECT %s HTTP/1.1\r\nProxy-Authorization: Basic %s\r\n\r\n", echo.addr, auth)
	res, err := http.ReadResponse(bufio.NewReader(c), &http.Request{Method: http.MethodConnect})
	if err != nil || res.StatusCode != 429 {
		t.Fatalf("quota used up: %v %v", res, err)
	}
	body, _ := io.ReadAll(res.Body)
	if !strings.Contains(string(body), "monthly bandwidth quota") {
		t.Fatalf("quota text: %q", body)
	}
	c.Close()

	status, first, _ := connectTunnel(g.httpAddr(), "user-c", "pass-c", echo.addr)
	if status != 200 {
		t.Fatalf("first connection: %d", status)
	}
	if status, _, _ := connectTunnel(g.httpAddr(), "user-c", "pass-c", echo.addr); status != 429 {
		t.Fatalf("over the cap: %d", status)
	}
	_, port, _ := net.SplitHostPort(echo.addr)
	var p int
	fmt.Sscan(port, &p)
	if _, reply, _, _ := socksConnect(g.socksAddr(), "user-c", "pass-c", "localhost", p); reply != 0x02 {
		t.Fatalf("over the cap on SOCKS5: reply %d", reply)
	}
	first.Close()
	deadline := time.Now().Add(2 * time.Second)
	for g.tunnels.slotsTaken("c") > 0 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if status, c2, _ := connectTunnel(g.httpAddr(), "user-c", "pass-c", echo.addr); status != 200 {
		t.Fatalf("after closing: %d", status)
	} else {
		c2.Close()
	}
}

func TestUsageIsFlushed(t *testing.T) {
	echo := startEcho(t, "echo")
	src := NewStaticSource(assigned("m", "HTTP"))
	g := startGateway(t, src, true)
	status, c, _ := connectTunnel(g.httpAddr(), "user-m", "pass-m", echo.addr)
	if status != 200 {
		t.Fatalf("CONNECT: %d", status)
	}
	roundTrip(t, c, "twelve bytes")
	c.Close()
	if status, _, _ := connectTunnel(g.httpAddr(), "user-m", "pass-m", "127.0.0.1:1"); status != 502 {
		t.Fatalf("closed port: %d", status)
	}
	g.flush(context.Background(), true)
	src.mu.Lock()
	defer src.mu.Unlock()
	var got Counts
	var gw GatewayCounts
	for _, b := range src.flushes {
		got.BytesUp += b.Proxies["m"].BytesUp
		got.BytesDown += b.Proxies["m"].BytesDown
		got.Connections += b.Proxies["m"].Connections
		got.Failed += b.Proxies["m"].Failed
		gw.OK += b.Counts.OK
		gw.Failed += b.Counts.Failed
	}
	if got.BytesUp != 12 || got.BytesDown != 12 || got.Connections != 1 || got.Failed != 1 || gw.OK != 1 || gw.Failed != 1 {
		t.Fatalf("flushed %+v, gateway %+v", got, gw)
	}
}

func TestTargetClosingEndsTheTunnelAtOnce(t *testing.T) {
	target := serveLoopback(t, func(c net.Conn) {
		c.Write([]byte(strings.Repeat("x", 100000)))
		c.Close()
	})
	g := startGateway(t, NewStaticSource(assigned("e", "DATACENTER")), true)
	status, c, _ := connectTunnel(g.httpAddr(), "user-e", "pass-e", target)
	if status != 200 {
		t.Fatalf("CONNECT: %d", status)
	}
	_ = c.SetReadDeadline(time.Now().Add(2 * time.Second))
	got, err := io.ReadAll(c)
	if err != nil || len(got) != 100000 {
		t.Fatalf("read %d bytes, %v: the end of the stream did not reach the client", len(got), err)
	}
}

func TestSlowHandshakesAreBounded(t *testing.T) {
	echo := startEcho(t, "echo")
	g := New(Config{HTTPAddr: "127.0.0.1:0", OpenTargets: true, MaxHandshakes: 2, HandshakeTimeout: 300 * time.Millisecond}, NewStaticSource(assigned("b", "HTTP")))
	if err := g.Start(); err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	addr := g.Addrs()[0].String()
	slow := []net.Conn{}
	for i := 0; i < 2; i++ {
		c, _ := net.Dial("tcp", addr)
		c.Write([]byte("CONNECT ")) // and then nothing: a slowloris
		slow = append(slow, c)
	}
	for deadline := time.Now().Add(2 * time.Second); len(g.handshakes) < 2 && time.Now().Before(deadline); {
		time.Sleep(5 * time.Millisecond) // until both slow clients hold their slots
	}
	extra, _ := net.Dial("tcp", addr)
	_ = extra.SetReadDeadline(time.Now().Add(time.Second))
	if _, err := extra.Read(make([]byte, 1)); err == nil || isTimeoutErr(err) {
		t.Fatalf("a connection past the handshake bound was kept: %v", err)
	}
	for _, c := range slow {
		waitClosed(t, c, 2*time.Second) // the handshake deadline ends them
	}
	if status, c, _ := connectTunnel(addr, "user-b", "pass-b", echo.addr); status != 200 {
		t.Fatalf("after the slow clients: %d", status)
	} else {
		c.Close()
	}
	if g.refusedBusy.Load() != 1 {
		t.Fatalf("refused as busy: %d", g.refusedBusy.Load())
	}
}

func isTimeoutErr(err error) bool {
	ne, ok := err.(net.Error)
	return ok && ne.Timeout()
}

// A connection holds its slot from before its dial: connections that arrive together
// cannot pass a cap together while their upstream is still answering.
func TestConcurrencyCapHoldsDuringSlowDials(t *testing.T) {
	upstream := serveLoopback(t, func(c net.Conn) { // takes 200 ms to answer CONNECT, then echoes
		defer c.Close()
		br := bufio.NewReader(c)
		if _, err := http.ReadRequest(br); err != nil {
			return
		}
		time.Sleep(200 * time.Millisecond)
		io.WriteString(c, "HTTP/1.1 200 Connection established\r\n\r\n")
		io.Copy(c, br)
	})
	capped := assigned("slow", "DATACENTER")
	capped.MaxConnections = 2
	host, port, _ := net.SplitHostPort(upstream)
	var p int
	fmt.Sscan(port, &p)
	capped.Exit = Exit{ProxyID: "slow", Upstream: true, Host: host, Port: p}
	g := startGateway(t, NewStaticSource(capped), true)

	var mu sync.Mutex
	statuses := map[int]int{}
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			status, c, _ := connectTunnel(g.httpAddr(), "user-slow", "pass-slow", "example.test:443")
			mu.Lock()
			statuses[status]++
			mu.Unlock()
			if c != nil {
				t.Cleanup(func() { c.Close() })
			}
		}()
	}
	wg.Wait()
	if statuses[200] != 2 || statuses[429] != 6 {
		t.Fatalf("8 connections at once under a cap of 2: %v", statuses)
	}
}
