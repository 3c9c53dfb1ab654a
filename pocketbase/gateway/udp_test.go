package gateway

import (
	"bytes"
	"io"
	"net"
	"net/netip"
	"sync/atomic"
	"testing"
	"time"
)

// udpEcho is a loopback UDP server that sends every datagram back and counts them.
type udpEcho struct {
	addr netip.AddrPort
	hits atomic.Int64
}

func startUDPEcho(t *testing.T) *udpEcho {
	t.Helper()
	c, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	e := &udpEcho{addr: netip.MustParseAddrPort(c.LocalAddr().String())}
	go func() {
		buf := make([]byte, 64<<10)
		for {
			n, from, err := c.ReadFromUDPAddrPort(buf)
			if err != nil {
				return
			}
			e.hits.Add(1)
			_, _ = c.WriteToUDPAddrPort(buf[:n], from)
		}
	}()
	return e
}

// socksAssociate signs in and asks for a UDP association for datagrams from `from`;
// answers the reply code, the control connection and the relay's address.
func socksAssociate(t *testing.T, gw, user, pass string, from netip.AddrPort) (byte, net.Conn, netip.AddrPort) {
	t.Helper()
	c, err := net.Dial("tcp", gw)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	_ = c.SetDeadline(time.Now().Add(5 * time.Second))
	msg := append([]byte{5, 1, 2, 1, byte(len(user))}, user...)
	msg = append(append(msg, byte(len(pass))), pass...)
	c.Write(append(append(msg, 5, 3, 0), socksAddress(from)...))
	buf := make([]byte, 4+4+2)
	if _, err := io.ReadFull(c, buf[:4]); err != nil || buf[1] != 2 || buf[3] != 0 {
		t.Fatalf("sign-in: %v %v", buf[:4], err)
	}
	if _, err := io.ReadFull(c, buf); err != nil {
		t.Fatal(err)
	}
	if buf[1] != 0 {
		return buf[1], c, netip.AddrPort{}
	}
	ip, _ := netip.AddrFromSlice(buf[4:8])
	_ = c.SetDeadline(time.Time{})
	return 0, c, netip.AddrPortFrom(ip, uint16(buf[8])<<8|uint16(buf[9]))
}

// udpClient is a client's UDP socket on loopback.
func udpClient(t *testing.T) *net.UDPConn {
	t.Helper()
	c, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

func datagram(frag byte, to netip.AddrPort, payload string) []byte {
	return append(append([]byte{0, 0, frag}, socksAddress(to)...), payload...)
}

// exchange sends a datagram through the relay and answers the payload of the answer and
// the source its header names.
func exchange(t *testing.T, c *net.UDPConn, relay netip.AddrPort, packet []byte) (string, netip.AddrPort) {
	t.Helper()
	if _, err := c.WriteToUDPAddrPort(packet, relay); err != nil {
		t.Fatal(err)
	}
	_ = c.SetReadDeadline(time.Now().Add(3 * time.Second))
	buf := make([]byte, 64<<10)
	n, _, err := c.ReadFromUDPAddrPort(buf)
	if err != nil {
		t.Fatalf("no answer through the relay: %v", err)
	}
	host, port, payload, ok := parseUDPDatagram(buf[:n])
	if !ok {
		t.Fatalf("malformed answer %v", buf[:n])
	}
	return string(payload), netip.AddrPortFrom(netip.MustParseAddr(host), uint16(port))
}

func TestUDPAssociateRelaysTheClientsDatagramsOnly(t *testing.T) {
	echo := startUDPEcho(t)
	g := startGateway(t, NewStaticSource(assigned("s", "SOCKS5")), true)
	client := udpClient(t)
	from := netip.MustParseAddrPort(client.LocalAddr().String())
	reply, _, relay := socksAssociate(t, g.socksAddr(), "user-s", "pass-s", from)
	if reply != 0 || !relay.Addr().IsLoopback() || relay.Port() == 0 {
		t.Fatalf("UDP ASSOCIATE: reply %d relay %v", reply, relay)
	}
	// A datagram from another socket, and a fragment, are dropped: the echo sees only the
	// client's whole datagrams (each answered before the next is sent).
	stranger := udpClient(t)
	stranger.WriteToUDPAddrPort(datagram(0, echo.addr, "from a stranger"), relay)
	client.WriteToUDPAddrPort(datagram(1, echo.addr, "a fragment"), relay)
	got, source := exchange(t, client, relay, datagram(0, echo.addr, "ping"))
	if got != "ping" || source != echo.addr {
		t.Fatalf("answer %q from %v, want ping from %v", got, source, echo.addr)
	}
	named := append([]byte{0, 0, 0, 3, 9}, "localhost"...)
	named = append(append(named, byte(echo.addr.Port()>>8), byte(echo.addr.Port())), "by name"...)
	if got, _ := exchange(t, client, relay, named); got != "by name" {
		t.Fatalf("by name: %q", got)
	}
	if hits := echo.hits.Load(); hits != 2 {
		t.Fatalf("the echo server got %d datagrams, want the client's 2", hits)
	}
	if u := g.Meter().Peek("s"); u.Connections != 1 || u.BytesUp != 11 || u.BytesDown != 11 {
		t.Fatalf("meter: %+v", u)
	}
}

func TestUDPAssociationEndsWithItsControlConnectionAndItsBudget(t *testing.T) {
	echo := startUDPEcho(t)
	proxy := assigned("q", "SOCKS5")
	proxy.QuotaBytes = 100
	g := startGateway(t, NewStaticSource(proxy), true)
	client := udpClient(t)
	_, control, relay := socksAssociate(t, g.socksAddr(), "user-q", "pass-q", netip.MustParseAddrPort(client.LocalAddr().String()))
	if got, _ := exchange(t, client, relay, datagram(0, echo.addr, "0123456789")); got != "0123456789" {
		t.Fatalf("first datagram: %q", got)
	}
	// 20 bytes used of 100: 50 up fit, their 50 back do not: dropped, and the association ends.
	client.WriteToUDPAddrPort(datagram(0, echo.addr, string(bytes.Repeat([]byte("x"), 50))), relay)
	waitClosed(t, control, 3*time.Second)
	_ = client.SetReadDeadline(time.Now().Add(50 * time.Millisecond))
	if n, _, err := client.ReadFromUDPAddrPort(make([]byte, 100)); err == nil {
		t.Fatalf("a datagram past the budget reached the client (%d bytes)", n)
	}
	if u := g.Meter().Peek("q"); u.BytesUp+u.BytesDown != 70 {
		t.Fatalf("metered %+v, want 70 bytes", u)
	}

	// Closing the control connection frees the association's slot.
	other := assigned("o", "SOCKS5")
	other.MaxConnections = 1
	g2 := startGateway(t, NewStaticSource(other), true)
	_, control2, _ := socksAssociate(t, g2.socksAddr(), "user-o", "pass-o", netip.MustParseAddrPort("127.0.0.1:0"))
	control2.Close()
	for deadline := time.Now().Add(3 * time.Second); g2.tunnels.slotsTaken("o") > 0; {
		if time.Now().After(deadline) {
			t.Fatal("the association outlived its control connection")
		}
		time.Sleep(2 * time.Millisecond)
	}
}

func TestUDPAssociateIsRefusedThroughAnUpstreamExit(t *testing.T) {
	proxy := assigned("u", "SOCKS5")
	proxy.Exit = Exit{ProxyID: "u", Upstream: true, Host: "127.0.0.1", Port: 9, SOCKS: true}
	g := startGateway(t, NewStaticSource(proxy), true)
	if reply, control, _ := socksAssociate(t, g.socksAddr(), "user-u", "pass-u", netip.MustParseAddrPort("127.0.0.1:0")); reply != socksNotAllowed {
		t.Fatalf("UDP through an upstream exit: reply %d, want 2 (not allowed)", reply)
	} else {
		waitClosed(t, control, time.Second)
	}
}

func TestUDPTargetsPassTheGuard(t *testing.T) {
	echo := startUDPEcho(t)
	g := startGateway(t, NewStaticSource(assigned("s", "SOCKS5")), false) // not open: loopback targets refused
	client := udpClient(t)
	_, _, relay := socksAssociate(t, g.socksAddr(), "user-s", "pass-s", netip.MustParseAddrPort(client.LocalAddr().String()))
	client.WriteToUDPAddrPort(datagram(0, echo.addr, "to loopback"), relay)
	_ = client.SetReadDeadline(time.Now().Add(100 * time.Millisecond))
	if _, _, err := client.ReadFromUDPAddrPort(make([]byte, 100)); err == nil || echo.hits.Load() != 0 {
		t.Fatalf("a datagram to a loopback target passed the guard (%d hits)", echo.hits.Load())
	}
}

func TestUDPAssociationEndsWhenIdle(t *testing.T) {
	echo := startUDPEcho(t)
	g := New(Config{SOCKSAddr: "127.0.0.1:0", OpenTargets: true, UDPIdleTimeout: 150 * time.Millisecond}, NewStaticSource(assigned("s", "SOCKS5")))
	if err := g.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(g.Close)
	client := udpClient(t)
	_, control, relay := socksAssociate(t, g.Addrs()[0].String(), "user-s", "pass-s", netip.MustParseAddrPort(client.LocalAddr().String()))
	started := time.Now()
	if got, _ := exchange(t, client, relay, datagram(0, echo.addr, "still here")); got != "still here" {
		t.Fatalf("answer %q", got)
	}
	waitClosed(t, control, 3*time.Second)
	if took := time.Since(started); took < 150*time.Millisecond {
		t.Fatalf("closed after %v, before the idle timeout", took)
	}
}
