// The HTTPS proxy port next to plain CONNECT (download and handshake, measured in turn in
// one run), and a UDP round trip through SOCKS5 UDP ASSOCIATE next to direct.

package main

import (
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"io"
	"net"
	"net/netip"
	"os"
	"sort"
	"time"

	"proxyshop/pocketbase/gateway"
)

// startTLSGateway is a gateway with all three ports, its certificate self-signed in a
// temporary directory; it answers the client configuration that trusts it.
func startTLSGateway(source gateway.Source) (*gateway.Gateway, *tls.Config) {
	dir, err := os.MkdirTemp("", "gateway-bench-tls-")
	must(err)
	defer os.RemoveAll(dir)
	cert, err := gateway.LoadOrCreateCertificate(dir, []string{"127.0.0.1"})
	must(err)
	g := gateway.New(gateway.Config{HTTPAddr: "127.0.0.1:0", SOCKSAddr: "127.0.0.1:0", HTTPSAddr: "127.0.0.1:0",
		TLS: gateway.ServerTLS(cert), OpenTargets: true, AuthFailureLimit: -1}, source)
	must(g.Start())
	roots := x509.NewCertPool()
	roots.AddCert(cert.Leaf)
	return g, &tls.Config{RootCAs: roots, ClientSessionCache: nil}
}

// tlsConnectVia opens a CONNECT tunnel inside TLS to the HTTPS port (a full handshake each
// time: no session resumption).
func tlsConnectVia(gw string, cfg *tls.Config, user, pass, target string) net.Conn {
	c, err := tls.Dial("tcp", gw, cfg)
	must(err)
	return connectOn(c, user, pass, target)
}

// tlsFigures: MB/s of an n MB download through plain CONNECT and through CONNECT inside
// TLS (median of 5, in turn), and the p99 of dial-to-200 of each (µs) over `handshakes`.
func tlsFigures(mb, handshakes int) (plainMBps, tlsMBps, plainP99, tlsP99 float64) {
	server := downloadServer(mb)
	g, cfg := startTLSGateway(gateway.NewStaticSource(proxy("tls")))
	defer g.Close()
	addrs := g.Addrs()
	plain := func() net.Conn { return connectVia(addrs[0].String(), "utls", "ptls", server) }
	inTLS := func() net.Conn { return tlsConnectVia(addrs[2].String(), cfg, "utls", "ptls", server) }
	var runs [2][]float64
	for i := 0; i < 5; i++ {
		runs[0] = append(runs[0], downloadMBps(mb, plain))
		runs[1] = append(runs[1], downloadMBps(mb, inTLS))
	}
	median := func(r []float64) float64 { sort.Float64s(r); return r[len(r)/2] }

	closer := listen(func(c net.Conn) { c.Close() })
	var times [2][]float64
	for i := 0; i < handshakes; i++ {
		for w, addr := range []string{addrs[0].String(), addrs[2].String()} {
			start := time.Now()
			var c net.Conn
			if w == 0 {
				c = connectVia(addr, "utls", "ptls", closer)
			} else {
				c = tlsConnectVia(addr, cfg, "utls", "ptls", closer)
			}
			times[w] = append(times[w], float64(time.Since(start).Nanoseconds())/1000)
			c.Close()
		}
	}
	sort.Float64s(times[0])
	sort.Float64s(times[1])
	return median(runs[0]), median(runs[1]), percentile(times[0], 0.99), percentile(times[1], 0.99)
}

// udpRoundTrips: p50 and p99 (µs) of a 32-byte datagram to a loopback UDP echo and back,
// direct and through a SOCKS5 UDP association (its header added and read).
func udpRoundTrips(n int) (dp50, dp99, rp50, rp99 float64) {
	echoConn, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	must(err)
	defer echoConn.Close()
	go func() {
		buf := make([]byte, 2048)
		for {
			k, from, err := echoConn.ReadFromUDPAddrPort(buf)
			if err != nil {
				return
			}
			_, _ = echoConn.WriteToUDPAddrPort(buf[:k], from)
		}
	}()
	echoAddr := netip.MustParseAddrPort(echoConn.LocalAddr().String())
	g := startGateway(gateway.NewStaticSource(proxy("udp")))
	defer g.Close()
	client, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	must(err)
	defer client.Close()
	control, relay := associate(g.Addrs()[1].String(), "uudp", "pudp")
	defer control.Close()

	rtts := func(to netip.AddrPort, packet []byte, answer int) []float64 {
		buf := make([]byte, 2048)
		out := make([]float64, 0, n)
		for i := 0; i < n+200; i++ {
			start := time.Now()
			_, err := client.WriteToUDPAddrPort(packet, to)
			must(err)
			_ = client.SetReadDeadline(time.Now().Add(2 * time.Second))
			if k, _, err := client.ReadFromUDPAddrPort(buf); err != nil || k != answer {
				must(fmt.Errorf("UDP round trip: %d bytes, %v", k, err))
			}
			if i >= 200 { // warm-up left out
				out = append(out, float64(time.Since(start).Nanoseconds())/1000)
			}
		}
		sort.Float64s(out)
		return out
	}
	payload := make([]byte, 32)
	direct := rtts(echoAddr, payload, 32)
	ip := echoAddr.Addr().As4()
	header := []byte{0, 0, 0, 1, ip[0], ip[1], ip[2], ip[3], byte(echoAddr.Port() >> 8), byte(echoAddr.Port())}
	relayed := rtts(relay, append(header, payload...), len(header)+32)
	return percentile(direct, 0.5), percentile(direct, 0.99), percentile(relayed, 0.5), percentile(relayed, 0.99)
}

// associate signs in on the SOCKS5 port and asks for a UDP association; it answers the
// control connection (the association lives as long as it) and the relay's address.
func associate(gw, user, pass string) (net.Conn, netip.AddrPort) {
	c, err := net.Dial("tcp", gw)
	must(err)
	msg := append([]byte{5, 1, 2, 1, byte(len(user))}, user...)
	msg = append(append(msg, byte(len(pass))), pass...)
	_, err = c.Write(append(msg, 5, 3, 0, 1, 0, 0, 0, 0, 0, 0))
	must(err)
	buf := make([]byte, 4+10)
	_, err = io.ReadFull(c, buf)
	must(err)
	if buf[3] != 0 || buf[5] != 0 {
		must(fmt.Errorf("UDP ASSOCIATE: %v", buf))
	}
	return c, netip.AddrPortFrom(netip.AddrFrom4([4]byte(buf[8:12])), uint16(buf[12])<<8|uint16(buf[13]))
}
