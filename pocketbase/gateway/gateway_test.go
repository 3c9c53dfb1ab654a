package gateway

import (
	"net"
	"strings"
	"testing"
	"time"
)

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

	p := portOf(echo.addr)
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
