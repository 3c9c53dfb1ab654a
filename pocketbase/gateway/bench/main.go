// Command bench measures the proxy gateway on loopback and prints one JSON object of
// figures, each next to its direct reference measured in the same run (scripts/
// bench-gateway.ts turns them into `npm run bench` rows):
//
//   - throughput of a download through HTTP CONNECT and SOCKS5, direct, and through a
//     plain io.Copy relay (the ceiling of any relay on one machine);
//   - added latency of a small round trip through an open tunnel (p50, p99), and direct;
//   - handshake plus authentication (CONNECT answered), p99;
//   - idle tunnels held by a gateway in a process of its own: RSS delta per tunnel;
//   - revocation to refusal while traffic flows (p99 over the revocations);
//   - the HTTPS proxy port (TLS) next to plain CONNECT: download and handshake;
//   - a small UDP round trip through SOCKS5 UDP ASSOCIATE, and direct.
//
// Usage: go run ./gateway/bench [-mb 100] [-tunnels 9000] [-revocations 200] [-throughput]
package main

import (
	"encoding/base64"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"strconv"
	"strings"
	"time"

	"proxyshop/pocketbase/gateway"
)

type figures struct {
	DownloadMB          int     `json:"download_mb"`
	DirectMBps          float64 `json:"direct_mbps"`
	RelayMBps           float64 `json:"relay_mbps"`
	ConnectMBps         float64 `json:"connect_mbps"`
	SOCKSMBps           float64 `json:"socks_mbps"`
	DirectRTTp50us      float64 `json:"direct_rtt_p50_us"`
	DirectRTTp99us      float64 `json:"direct_rtt_p99_us"`
	TunnelRTTp50us      float64 `json:"tunnel_rtt_p50_us"`
	TunnelRTTp99us      float64 `json:"tunnel_rtt_p99_us"`
	HandshakeP99us      float64 `json:"handshake_p99_us"`
	DirectConnectP99us  float64 `json:"direct_connect_p99_us"`
	IdleTunnels         int     `json:"idle_tunnels"`
	IdleDropped         int     `json:"idle_dropped"`
	IdleKBPerTunnel     float64 `json:"idle_kb_per_tunnel"`
	Revocations         int     `json:"revocations"`
	RevocationP99ms     float64 `json:"revocation_p99_ms"`
	RevocationMaxms     float64 `json:"revocation_max_ms"`
	FileDescriptorLimit int     `json:"fd_limit"`
	// The HTTPS port next to plain CONNECT, and SOCKS5 UDP next to direct, in one run each.
	PlainConnectMBps    float64 `json:"plain_connect_mbps"`
	TLSConnectMBps      float64 `json:"tls_connect_mbps"`
	PlainHandshakeP99us float64 `json:"plain_handshake_p99_us"`
	TLSHandshakeP99us   float64 `json:"tls_handshake_p99_us"`
	UDPDirectP50us      float64 `json:"udp_direct_p50_us"`
	UDPDirectP99us      float64 `json:"udp_direct_p99_us"`
	UDPRelayP50us       float64 `json:"udp_relay_p50_us"`
	UDPRelayP99us       float64 `json:"udp_relay_p99_us"`
}

func main() {
	if len(os.Args) > 1 && os.Args[1] == "serve" {
		serveIdle()
		return
	}
	mb := flag.Int("mb", 100, "download size in MB")
	tunnels := flag.Int("tunnels", 9000, "idle tunnels to hold")
	revocations := flag.Int("revocations", 200, "revocations to time")
	onlyThroughput := flag.Bool("throughput", false, "measure the download throughput only")
	flag.Parse()

	f := figures{DownloadMB: *mb, FileDescriptorLimit: fdLimit()}
	f.DirectMBps, f.RelayMBps, f.ConnectMBps, f.SOCKSMBps = throughput(*mb)
	f.PlainConnectMBps, f.TLSConnectMBps, f.PlainHandshakeP99us, f.TLSHandshakeP99us = tlsFigures(*mb, 1000)
	f.UDPDirectP50us, f.UDPDirectP99us, f.UDPRelayP50us, f.UDPRelayP99us = udpRoundTrips(5000)
	if *onlyThroughput {
		_ = json.NewEncoder(os.Stdout).Encode(f)
		return
	}
	f.DirectRTTp50us, f.DirectRTTp99us, f.TunnelRTTp50us, f.TunnelRTTp99us = latency(5000)
	f.HandshakeP99us, f.DirectConnectP99us = handshakes(2000)
	f.IdleTunnels, f.IdleDropped, f.IdleKBPerTunnel = idle(*tunnels)
	f.Revocations = *revocations
	f.RevocationP99ms, f.RevocationMaxms = revocation(*revocations)
	_ = json.NewEncoder(os.Stdout).Encode(f)
}

func must(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

// proxy is an ASSIGNED DATACENTER proxy exiting directly (both ports).
func proxy(id string) gateway.Record {
	return gateway.Record{ID: id, Username: "u" + id, Password: "p" + id, Type: "DATACENTER", Status: "ASSIGNED",
		ExpiresAt: time.Now().Add(24 * time.Hour), OwnerID: "owner", Country: "US", Exit: gateway.Exit{ProxyID: id}}
}

func startGateway(source gateway.Source) *gateway.Gateway {
	// Every client here is 127.0.0.1 and the revocation figure signs in with revoked
	// credentials on purpose: the per-address sign-in throttle would refuse them all.
	g := gateway.New(gateway.Config{HTTPAddr: "127.0.0.1:0", SOCKSAddr: "127.0.0.1:0", OpenTargets: true, AuthFailureLimit: -1}, source)
	must(g.Start())
	return g
}

// listen serves each connection with `serve` on a loopback port.
func listen(serve func(net.Conn)) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	must(err)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go serve(c)
		}
	}()
	return ln.Addr().String()
}

func echo(c net.Conn) { _, _ = io.Copy(c, c); c.Close() }

func connectVia(gw, user, pass, target string) net.Conn {
	c, err := net.Dial("tcp", gw)
	must(err)
	return connectOn(c, user, pass, target)
}

// connectOn sends CONNECT on an open connection (TCP, or TLS to the HTTPS port).
func connectOn(c net.Conn, user, pass, target string) net.Conn {
	auth := base64.StdEncoding.EncodeToString([]byte(user + ":" + pass))
	fmt.Fprintf(c, "CONNECT %s HTTP/1.1\r\nProxy-Authorization: Basic %s\r\n\r\n", target, auth)
	// Read the answer byte by byte: nothing of the tunnel may be left in a buffer.
	head := make([]byte, 0, 64)
	one := make([]byte, 1)
	for !strings.HasSuffix(string(head), "\r\n\r\n") {
		if _, err := c.Read(one); err != nil {
			must(fmt.Errorf("CONNECT: %w", err))
		}
		head = append(head, one[0])
	}
	if !strings.HasPrefix(string(head), "HTTP/1.1 200") {
		must(fmt.Errorf("CONNECT answered %q", head))
	}
	return c
}

func socksVia(gw, user, pass, target string) net.Conn {
	host, portText, _ := net.SplitHostPort(target)
	port, _ := strconv.Atoi(portText)
	c, err := net.Dial("tcp", gw)
	must(err)
	buf := make([]byte, 10)
	c.Write([]byte{5, 1, 2})
	io.ReadFull(c, buf[:2])
	msg := append([]byte{1, byte(len(user))}, user...)
	c.Write(append(append(msg, byte(len(pass))), pass...))
	io.ReadFull(c, buf[:2])
	req := append([]byte{5, 1, 0, 3, byte(len(host))}, host...)
	c.Write(append(req, byte(port>>8), byte(port)))
	_, err = io.ReadFull(c, buf[:10])
	must(err)
	if buf[1] != 0 {
		must(fmt.Errorf("SOCKS5 reply %d", buf[1]))
	}
	return c
}

func fdLimit() int {
	data, err := os.ReadFile("/proc/self/limits")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(line, "Max open files") {
			n, _ := strconv.Atoi(strings.Fields(line)[3])
			return n
		}
	}
	return 0
}
