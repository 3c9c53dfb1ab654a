package gateway

import (
	"bufio"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"strings"
	"testing"
	"time"
)

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
