// Throughput, added latency and handshake time, each beside its direct reference.

package main

import (
	"fmt"
	"io"
	"net"
	"sort"
	"time"

	"proxyshop/pocketbase/gateway"
)

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
	server := downloadServer(mb)
	g := startGateway(gateway.NewStaticSource(proxy("t")))
	defer g.Close()
	addrs := g.Addrs()
	relayAddr := plainRelay(server)
	once := func(dial func() net.Conn) float64 { return downloadMBps(mb, dial) }
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

// downloadServer sends mb MB to whoever connects, then closes.
func downloadServer(mb int) string {
	size := int64(mb) << 20
	chunk := make([]byte, 1<<20)
	return listen(func(c net.Conn) {
		defer c.Close()
		for sent := int64(0); sent < size; sent += int64(len(chunk)) {
			if _, err := c.Write(chunk); err != nil {
				return
			}
		}
	})
}

// downloadMBps reads a downloadServer's mb MB through the connection dial opens (MB/s).
func downloadMBps(mb int, dial func() net.Conn) float64 {
	start := time.Now()
	c := dial()
	n, _ := io.Copy(io.Discard, c)
	c.Close()
	if n != int64(mb)<<20 {
		must(fmt.Errorf("downloaded %d of %d bytes", n, int64(mb)<<20))
	}
	return float64(mb) / time.Since(start).Seconds()
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
