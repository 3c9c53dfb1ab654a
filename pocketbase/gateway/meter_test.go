package gateway

import (
	"context"
	"testing"
)

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
	got, gw := flushed(g, src, "m")
	if got.BytesUp != 12 || got.BytesDown != 12 || got.Connections != 1 || got.Failed != 1 || gw.OK != 1 || gw.Failed != 1 {
		t.Fatalf("flushed %+v, gateway %+v", got, gw)
	}
}

// One definition of a connection (issue #28): an authorised attempt to reach a target, OK or
// Failed. Clients answered 407 or 429 are Refused, apart, on both ports; a malformed
// request is none of them.
func TestRefusalsAreCountedApartFromConnections(t *testing.T) {
	capped := assigned("r", "DATACENTER")
	capped.MaxConnections = 1
	src := NewStaticSource(capped)
	g, echo := startGateway(t, src, true), startEcho(t, "echo")
	if status, _, _ := connectTunnel(g.httpAddr(), "user-r", "wrong", echo.addr); status != 407 {
		t.Fatalf("bad password: %d", status)
	}
	if auth, _, _, _ := socksConnect(g.socksAddr(), "user-r", "wrong", "localhost", portOf(echo.addr)); auth == 0 {
		t.Fatal("bad SOCKS5 password was let in")
	}
	status, first, _ := connectTunnel(g.httpAddr(), "user-r", "pass-r", echo.addr)
	if status != 200 {
		t.Fatalf("first connection: %d", status)
	}
	defer first.Close()
	if status, _, _ := connectTunnel(g.httpAddr(), "user-r", "pass-r", echo.addr); status != 429 {
		t.Fatalf("over the cap: %d", status)
	}
	if status, _, _ := connectTunnel(g.httpAddr(), "user-r", "pass-r", "127.0.0.1:1"); status != 429 {
		t.Fatalf("over the cap to a closed port: %d", status)
	}
	_, gw := flushed(g, src, "r")
	if gw.OK != 1 || gw.Failed != 0 || gw.Refused != 4 {
		t.Fatalf("gateway counts %+v, want 1 connection and 4 refusals", gw)
	}
}

// flushed flushes g and answers what src was sent in all: proxyID's counts and the gateway's.
func flushed(g *Gateway, src *StaticSource, proxyID string) (Counts, GatewayCounts) {
	g.flush(context.Background(), true)
	src.mu.Lock()
	defer src.mu.Unlock()
	var got Counts
	var gw GatewayCounts
	for _, b := range src.flushes {
		got.BytesUp += b.Proxies[proxyID].BytesUp
		got.BytesDown += b.Proxies[proxyID].BytesDown
		got.Connections += b.Proxies[proxyID].Connections
		got.Failed += b.Proxies[proxyID].Failed
		gw.OK += b.Counts.OK
		gw.Failed += b.Counts.Failed
		gw.Refused += b.Counts.Refused
	}
	return got, gw
}
