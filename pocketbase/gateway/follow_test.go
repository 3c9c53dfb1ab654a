package gateway

import (
	"testing"
	"time"
)

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
