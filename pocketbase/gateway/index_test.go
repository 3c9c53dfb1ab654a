package gateway

import (
	"testing"
	"time"
)

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
