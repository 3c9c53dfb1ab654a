// Command bench measures the proxy gateway on loopback and prints one JSON object of
// figures, each next to its direct reference measured in the same run (scripts/
// bench-gateway.ts turns them into `npm run bench` rows):
//
//   - throughput of a download through HTTP CONNECT and SOCKS5, direct, and through a
//     plain io.Copy relay (the ceiling of any relay on one machine);
//   - added latency of a small round trip through an open tunnel (p50, p99), and direct;
//   - handshake plus authentication (CONNECT answered), p99;
//   - idle tunnels held by a gateway in a process of its own: RSS delta per tunnel;
//   - revocation to refusal while traffic flows (p99 over the revocations).
//
// Usage: go run ./gateway/bench [-mb 100] [-tunnels 9000] [-revocations 200] [-throughput]
package main

import (
	"bufio"
	"encoding/base64"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"sort"
	"strconv"
	"strings"
	"sync"
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

// plainRelay is the least any relay does: accept, dial the target, io.Copy both ways (Go
// splices *net.TCPConn to *net.TCPConn). On one machine every relay adds a loopback hop of
// kernel copying and the CPU time to do it, so this is the ceiling a gateway can reach here.
func plainRelay(target string) string {
	return listen(func(c net.Conn) {
		defer c.Close()
		t, err := net.Dial("tcp", target)
		if err != nil {
			return
		}
		defer t.Close()
		go func() { _, _ = io.Copy(t, c); t.(*net.TCPConn).CloseWrite() }()
		_, _ = io.Copy(c, t)
	})
}

// throughput: MB/s of an n MB download, direct, through a plain relay and through both
// ports (median of 5, the four measured in turn so a change of load hits them alike).
func throughput(mb int) (direct, relay, connect, socks float64) {
	size := int64(mb) << 20
	chunk := make([]byte, 1<<20)
	server := listen(func(c net.Conn) {
		defer c.Close()
		for sent := int64(0); sent < size; sent += int64(len(chunk)) {
			if _, err := c.Write(chunk); err != nil {
				return
			}
		}
	})
	g := startGateway(gateway.NewStaticSource(proxy("t")))
	defer g.Close()
	addrs := g.Addrs()
	relayAddr := plainRelay(server)
	once := func(dial func() net.Conn) float64 {
		start := time.Now()
		c := dial()
		n, _ := io.Copy(io.Discard, c)
		c.Close()
		if n != size {
			must(fmt.Errorf("downloaded %d of %d bytes", n, size))
		}
		return float64(mb) / time.Since(start).Seconds()
	}
	dial := func(addr string) func() net.Conn {
		return func() net.Conn { c, err := net.Dial("tcp", addr); must(err); return c }
	}
	ways := []func() net.Conn{
		dial(server),
		dial(relayAddr),
		func() net.Conn { return connectVia(addrs[0].String(), "ut", "pt", server) },
		func() net.Conn { return socksVia(addrs[1].String(), "ut", "pt", server) },
	}
	runs := make([][]float64, len(ways))
	for i := 0; i < 5; i++ {
		for w, way := range ways {
			runs[w] = append(runs[w], once(way))
		}
	}
	median := func(r []float64) float64 { sort.Float64s(r); return r[len(r)/2] }
	return median(runs[0]), median(runs[1]), median(runs[2]), median(runs[3])
}

func percentile(sorted []float64, p float64) float64 {
	return sorted[int(float64(len(sorted)-1)*p)]
}

// latency: round trips of 32 bytes through an open tunnel and direct (µs).
func latency(n int) (dp50, dp99, tp50, tp99 float64) {
	server := listen(echo)
	g := startGateway(gateway.NewStaticSource(proxy("l")))
	defer g.Close()
	rtts := func(c net.Conn) []float64 {
		msg := make([]byte, 32)
		out := make([]float64, 0, n)
		for i := 0; i < n+200; i++ {
			start := time.Now()
			c.Write(msg)
			if _, err := io.ReadFull(c, msg); err != nil {
				must(err)
			}
			if i >= 200 { // warm-up left out
				out = append(out, float64(time.Since(start).Nanoseconds())/1000)
			}
		}
		sort.Float64s(out)
		return out
	}
	direct, err := net.Dial("tcp", server)
	must(err)
	d := rtts(direct)
	direct.Close()
	tunnel := connectVia(g.Addrs()[0].String(), "ul", "pl", server)
	t := rtts(tunnel)
	tunnel.Close()
	return percentile(d, 0.5), percentile(d, 0.99), percentile(t, 0.5), percentile(t, 0.99)
}

// handshakes: time from dial to CONNECT's 200 (p99, µs), and a plain connect direct.
func handshakes(n int) (viaP99, directP99 float64) {
	server := listen(func(c net.Conn) { c.Close() })
	g := startGateway(gateway.NewStaticSource(proxy("h")))
	defer g.Close()
	via := make([]float64, 0, n)
	direct := make([]float64, 0, n)
	for i := 0; i < n; i++ {
		start := time.Now()
		c := connectVia(g.Addrs()[0].String(), "uh", "ph", server)
		via = append(via, float64(time.Since(start).Nanoseconds())/1000)
		c.Close()
		start = time.Now()
		d, err := net.Dial("tcp", server)
		must(err)
		direct = append(direct, float64(time.Since(start).Nanoseconds())/1000)
		d.Close()
	}
	sort.Float64s(via)
	sort.Float64s(direct)
	return percentile(via, 0.99), percentile(direct, 0.99)
}

// serveIdle (the child): a gateway alone, with one proxy, until stdin closes.
func serveIdle() {
	g := startGateway(gateway.NewStaticSource(proxy("i")))
	fmt.Println(g.Addrs()[0].String())
	_, _ = io.Copy(io.Discard, os.Stdin)
	g.Close()
}

func rssKB(pid int) float64 {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	must(err)
	for _, line := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(line, "VmRSS:") {
			kb, _ := strconv.ParseFloat(strings.Fields(line)[1], 64)
			return kb
		}
	}
	return 0
}

// idle: n tunnels through a gateway in its own process; answers how many were dropped and
// the RSS delta per tunnel (KB).
func idle(n int) (int, int, float64) {
	server := listen(func(c net.Conn) { _, _ = io.Copy(io.Discard, c); c.Close() })
	child := exec.Command(os.Args[0], "serve")
	stdin, _ := child.StdinPipe()
	stdout, _ := child.StdoutPipe()
	child.Stderr = os.Stderr
	must(child.Start())
	defer func() { stdin.Close(); child.Wait() }()
	addr, err := bufio.NewReader(stdout).ReadString('\n')
	must(err)
	addr = strings.TrimSpace(addr)
	time.Sleep(200 * time.Millisecond)
	before := rssKB(child.Process.Pid)
	conns := make([]net.Conn, 0, n)
	for i := 0; i < n; i++ {
		conns = append(conns, connectVia(addr, "ui", "pi", server))
	}
	time.Sleep(time.Second)
	after := rssKB(child.Process.Pid)
	dropped := 0
	for _, c := range conns {
		c.SetReadDeadline(time.Now().Add(time.Millisecond))
		if _, err := c.Read(make([]byte, 1)); err != nil && !isTimeout(err) {
			dropped++
		}
	}
	for _, c := range conns {
		c.Close()
	}
	return n, dropped, (after - before) / float64(n)
}

func isTimeout(err error) bool {
	ne, ok := err.(net.Error)
	return ok && ne.Timeout()
}

// revocation: proxies with traffic flowing; each is revoked in turn and timed until its
// tunnel is cut and a new connection with the old password is refused (ms).
func revocation(n int) (p99, max float64) {
	server := listen(echo)
	source := gateway.NewStaticSource()
	for i := 0; i < n; i++ {
		source.Put(proxy(fmt.Sprintf("r%d", i)))
	}
	g := startGateway(source)
	defer g.Close()
	gw := g.Addrs()[0].String()
	times := make([]float64, n)
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		id := fmt.Sprintf("r%d", i)
		c := connectVia(gw, "u"+id, "p"+id, server)
		cut := make(chan time.Time, 1)
		go func() { // traffic until the tunnel is cut
			msg := make([]byte, 64)
			for {
				if _, err := c.Write(msg); err != nil {
					break
				}
				if _, err := io.ReadFull(c, msg); err != nil {
					break
				}
				time.Sleep(5 * time.Millisecond)
			}
			cut <- time.Now()
		}()
		time.Sleep(10 * time.Millisecond)
		revoked := proxy(id)
		revoked.Password = "new-" + id
		start := time.Now()
		source.Put(revoked)
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			cutAt := <-cut
			refusedAt := time.Now()
			for {
				if refused(gw, "u"+id, "p"+id, server) {
					refusedAt = time.Now()
					break
				}
				time.Sleep(5 * time.Millisecond)
			}
			end := cutAt
			if refusedAt.After(end) {
				end = refusedAt
			}
			times[i] = float64(end.Sub(start).Microseconds()) / 1000
		}(i)
		c.(*net.TCPConn).SetKeepAlive(true)
		time.Sleep(20 * time.Millisecond)
	}
	wg.Wait()
	sort.Float64s(times)
	return percentile(times, 0.99), times[len(times)-1]
}

func refused(gw, user, pass, target string) bool {
	c, err := net.Dial("tcp", gw)
	if err != nil {
		return false
	}
	defer c.Close()
	auth := base64.StdEncoding.EncodeToString([]byte(user + ":" + pass))
	fmt.Fprintf(c, "CONNECT %s HTTP/1.1\r\nProxy-Authorization: Basic %s\r\n\r\n", target, auth)
	res, err := http.ReadResponse(bufio.NewReader(c), &http.Request{Method: http.MethodConnect})
	return err == nil && res.StatusCode == http.StatusProxyAuthRequired
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
