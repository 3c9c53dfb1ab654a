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
