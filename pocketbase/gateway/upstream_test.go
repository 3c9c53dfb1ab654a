package gateway

import (
	"net"
	"testing"
)

func TestUpstreamChainsHTTPAndSOCKS(t *testing.T) {
	echo := startEcho(t, "echo")
	// The upstream is another gateway with its own proxies (as a seller's would be).
	upstream := startGateway(t, NewStaticSource(assigned("up", "DATACENTER")), true)
	viaHTTPUp := assigned("chain-http", "DATACENTER")
	host, _, _ := net.SplitHostPort(upstream.httpAddr())
	p := portOf(upstream.httpAddr())
	viaHTTPUp.Exit = Exit{ProxyID: "chain-http", Upstream: true, Host: host, Port: p, Username: "user-up", Password: "pass-up"}
	viaSOCKSUp := assigned("chain-socks", "SOCKS5")
	sp := portOf(upstream.socksAddr())
	viaSOCKSUp.Exit = Exit{ProxyID: "chain-socks", Upstream: true, Host: host, Port: sp, Username: "user-up", Password: "pass-up", SOCKS: true}
	g := startGateway(t, NewStaticSource(viaHTTPUp, viaSOCKSUp), true)

	status, c, err := connectTunnel(g.httpAddr(), "user-chain-http", "pass-chain-http", echo.addr)
	if err != nil || status != 200 {
		t.Fatalf("chain over HTTP: %d %v", status, err)
	}
	roundTrip(t, c, "two hops")
	c.Close()
	ep := portOf(echo.addr)
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
