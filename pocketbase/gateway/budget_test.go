package gateway

import (
	"bytes"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"
)

// startStreamer is a target that sends bytes without end to whoever connects.
func startStreamer(t *testing.T) string {
	t.Helper()
	chunk := bytes.Repeat([]byte("s"), 64<<10)
	return serveLoopback(t, func(c net.Conn) {
		defer c.Close()
		for {
			if _, err := c.Write(chunk); err != nil {
				return
			}
		}
	})
}

// readAll reads c until it ends, at most `limit` bytes or 5 s.
func readAll(c net.Conn, limit int64) int64 {
	_ = c.SetReadDeadline(time.Now().Add(5 * time.Second))
	n, _ := io.Copy(io.Discard, io.LimitReader(c, limit))
	return n
}

// Finding 1 of #26: the quota was checked only when a connection opened, so one tunnel to
// a host that streams ran past any quota. The copy now stops at the quota's last byte.
func TestFinding1OneTunnelStopsAtTheQuotasLastByte(t *testing.T) {
	streamer := startStreamer(t)
	const quota = 3 << 20
	proxy := assigned("q", "DATACENTER")
	proxy.QuotaBytes = quota
	src := NewStaticSource(proxy)
	src.monthUsed = map[string]int64{"q": 1 << 20} // a megabyte counted already (another gateway)
	g := startGateway(t, src, true)

	status, c, err := connectTunnel(g.httpAddr(), "user-q", "pass-q", streamer)
	if err != nil || status != 200 {
		t.Fatalf("CONNECT: %d %v", status, err)
	}
	if got := readAll(c, 4*quota); got != quota-(1<<20) {
		t.Fatalf("a CONNECT tunnel carried %d bytes on a quota with %d left", got, quota-(1<<20))
	}
	if status, _, _ := connectTunnel(g.httpAddr(), "user-q", "pass-q", streamer); status != 429 {
		t.Fatalf("a new connection after the quota: %d", status)
	}

	// SOCKS5 the same, on a new month's budget.
	socksProxy := assigned("s", "SOCKS5")
	socksProxy.QuotaBytes = 1 << 20
	src.Put(socksProxy)
	waitGrant(t, g, "s")
	_, reply, sc, err := socksConnect(g.socksAddr(), "user-s", "pass-s", "127.0.0.1", portOf(streamer))
	if err != nil || reply != 0 {
		t.Fatalf("SOCKS5 CONNECT: %d %v", reply, err)
	}
	if got := readAll(sc, 4<<20); got != 1<<20 {
		t.Fatalf("a SOCKS5 tunnel carried %d bytes on a quota of %d", got, 1<<20)
	}
	g.flush(t.Context(), true)
	if flushed := src.flushedBytes("s"); flushed != 1<<20 {
		t.Fatalf("metered %d bytes for a tunnel that carried %d", flushed, 1<<20)
	}
}

// When one tunnel spends the budget, every other tunnel of the proxy ends too, and the
// bytes sent up count: an upload through a plain HTTP request stops at the budget as well.
func TestFinding1SpentBudgetClosesEveryTunnelOfTheProxy(t *testing.T) {
	echo := startEcho(t, "echo")
	streamer := startStreamer(t)
	proxy := assigned("b", "DATACENTER")
	proxy.QuotaBytes = 1 << 20
	src := NewStaticSource(proxy)
	g := startGateway(t, src, true)

	_, idle, _ := connectTunnel(g.httpAddr(), "user-b", "pass-b", echo.addr)
	roundTrip(t, idle, "still here")
	_, streaming, _ := connectTunnel(g.httpAddr(), "user-b", "pass-b", streamer)
	readAll(streaming, 4<<20)
	waitClosed(t, idle, time.Second)

	upload := assigned("u", "HTTP")
	upload.QuotaBytes = 256 << 10
	src.Put(upload)
	waitGrant(t, g, "u")
	proxyURL := &url.URL{Scheme: "http", User: url.UserPassword("user-u", "pass-u"), Host: g.httpAddr()}
	client := &http.Client{Transport: &http.Transport{Proxy: http.ProxyURL(proxyURL)}, Timeout: 5 * time.Second}
	body := strings.NewReader(strings.Repeat("x", 4<<20))
	if res, err := client.Post("http://"+echo.addr+"/upload", "text/plain", body); err == nil {
		res.Body.Close()
		t.Fatalf("a 4 MB upload on a 256 KB quota was answered %d", res.StatusCode)
	}
	g.flush(t.Context(), true)
	if sent := src.flushedBytes("u"); sent > 256<<10 {
		t.Fatalf("%d bytes went up on a quota of %d", sent, 256<<10)
	}
}

// Lowering a quota below what was used closes the proxy's tunnels; raising it again (a
// refill) lets new connections through.
func TestFinding1LoweredQuotaClosesTunnelsAndARefillReopens(t *testing.T) {
	echo := startEcho(t, "echo")
	proxy := assigned("l", "DATACENTER")
	src := NewStaticSource(proxy)
	g := startGateway(t, src, true)
	_, c, _ := connectTunnel(g.httpAddr(), "user-l", "pass-l", echo.addr)
	roundTrip(t, c, strings.Repeat("a", 1000))

	lowered := proxy
	lowered.QuotaBytes = 1500
	src.Put(lowered)
	waitClosed(t, c, time.Second)
	if status, _, _ := connectTunnel(g.httpAddr(), "user-l", "pass-l", echo.addr); status != 429 {
		t.Fatalf("after lowering the quota below what was used: %d", status)
	}

	raised := proxy
	raised.QuotaBytes = 1 << 20
	src.Put(raised)
	deadline := time.Now().Add(time.Second)
	for {
		status, c2, _ := connectTunnel(g.httpAddr(), "user-l", "pass-l", echo.addr)
		if status == 200 {
			roundTrip(t, c2, "refilled")
			c2.Close()
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("after raising the quota: %d", status)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// A new owner starts a new term: the last owner's bytes do not count against the quota.
func TestFinding1NewOwnerStartsFromZero(t *testing.T) {
	echo := startEcho(t, "echo")
	proxy := assigned("o", "DATACENTER")
	proxy.QuotaBytes = 1500
	src := NewStaticSource(proxy)
	g := startGateway(t, src, true)
	_, c, _ := connectTunnel(g.httpAddr(), "user-o", "pass-o", echo.addr)
	_ = c.SetDeadline(time.Now().Add(2 * time.Second))
	c.Write([]byte(strings.Repeat("a", 1000)))
	readAll(c, 4000)
	if status, _, _ := connectTunnel(g.httpAddr(), "user-o", "pass-o", echo.addr); status != 429 {
		t.Fatalf("first owner past the quota: %d", status)
	}
	resold := proxy
	resold.OwnerID = "next-owner"
	resold.Password = "next-pass"
	src.Put(resold)
	waitGrantOwner(t, g, "o", "next-owner")
	if status, c2, _ := connectTunnel(g.httpAddr(), "user-o", "next-pass", echo.addr); status != 200 {
		t.Fatalf("the next owner: %d", status)
	} else {
		c2.Close()
	}
}

// Many tunnels drawing on one budget at once never take more than it holds.
func TestBudgetTakesNeverPassTheLimit(t *testing.T) {
	var b budget
	b.limit.Store(1_000_000)
	b.base.Store(1000)
	var wg sync.WaitGroup
	var mu sync.Mutex
	total := int64(0)
	for i := 0; i < 16; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				n := b.take(4096)
				if n == 0 {
					return
				}
				if n == 4096 {
					b.giveBack(96) // a copy that moved less than it took
					n -= 96
				}
				mu.Lock()
				total += n
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if total != 999_000 || b.left() != 0 {
		t.Fatalf("took %d of 999000, %d left", total, b.left())
	}
	b.limit.Store(1_100_000) // a refill
	if n := b.take(1 << 20); n != 100_000 {
		t.Fatalf("after a refill of 100000: took %d", n)
	}
	b.limit.Store(noLimit)
	if n := b.take(1 << 30); n != 1<<30 {
		t.Fatalf("without a limit: took %d", n)
	}
}

// The shop's count is the truth at each re-read: bytes this gateway flushed are not
// counted twice, other gateways' bytes are added, and a month (or term) with fewer bytes
// than were flushed before frees them again.
func TestQuotasReconcileWithTheShopsCount(t *testing.T) {
	var q quotas
	grant := &Grant{ProxyID: "p", QuotaBytes: 10_000}
	b := q.of(grant)
	b.take(3000) // relayed here
	q.flushedNow(map[string]Counts{"p": {BytesDown: 2000}})
	granted := func(string) bool { return true }

	q.reconcile(map[string]int64{"p": 2000 + 4000}, granted) // 4000 from another gateway
	if left := b.left(); left != 10_000-3000-4000 {
		t.Fatalf("left %d, want %d", left, 3000)
	}
	q.reconcile(map[string]int64{}, granted) // a new month: nothing counted yet
	if left := b.left(); left != 10_000-1000 {
		t.Fatalf("a new month: left %d, want 9000 (1000 relayed, not yet written)", left)
	}
	if q.grantChanged(&Grant{ProxyID: "p", QuotaBytes: 500}, false) != true {
		t.Fatal("a quota lowered below what was used is not spent")
	}
	if q.grantChanged(&Grant{ProxyID: "p", QuotaBytes: 500, OwnerID: "new"}, true) != false || b.left() != 500 {
		t.Fatalf("a new term: left %d", b.left())
	}
	q.reconcile(map[string]int64{}, func(string) bool { return false })
	if len(q.byProxy) != 0 {
		t.Fatalf("a proxy with no count and no grant is kept: %v", q.byProxy)
	}
}

func waitGrant(t *testing.T, g *Gateway, id string) {
	t.Helper()
	for deadline := time.Now().Add(2 * time.Second); g.index.Grant(id) == nil; {
		if time.Now().After(deadline) {
			t.Fatalf("proxy %s never granted", id)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func waitGrantOwner(t *testing.T, g *Gateway, id, owner string) {
	t.Helper()
	for deadline := time.Now().Add(2 * time.Second); g.index.Grant(id) == nil || g.index.Grant(id).OwnerID != owner; {
		if time.Now().After(deadline) {
			t.Fatalf("proxy %s never granted to %s", id, owner)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// flushedBytes is every byte of a proxy in the flushed batches.
func (s *StaticSource) flushedBytes(id string) int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	total := int64(0)
	for _, b := range s.flushes {
		total += b.Proxies[id].bytes()
	}
	return total
}
