package gateway

import (
	"io"
	"net"
	"strings"
	"testing"
	"time"
)

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
