package gateway

import (
	"bufio"
	"encoding/base64"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestQuotaAndConcurrencyCap(t *testing.T) {
	echo := startEcho(t, "echo")
	quota := assigned("q", "DATACENTER")
	quota.QuotaBytes = 1000
	capped := assigned("c", "DATACENTER")
	capped.MaxConnections = 1
	src := NewStaticSource(quota, capped)
	src.monthUsed = map[string]int64{"q": 1000}
	g := startGateway(t, src, true)

	c, _ := net.Dial("tcp", g.httpAddr())
	auth := base64.StdEncoding.EncodeToString([]byte("user-q:pass-q"))
	fmt.Fprintf(c, "CONNECT %s HTTP/1.1\r\nProxy-Authorization: Basic %s\r\n\r\n", echo.addr, auth)
	res, err := http.ReadResponse(bufio.NewReader(c), &http.Request{Method: http.MethodConnect})
	if err != nil || res.StatusCode != 429 {
		t.Fatalf("quota used up: %v %v", res, err)
	}
	body, _ := io.ReadAll(res.Body)
	if !strings.Contains(string(body), "monthly bandwidth quota") {
		t.Fatalf("quota text: %q", body)
	}
	c.Close()

	status, first, _ := connectTunnel(g.httpAddr(), "user-c", "pass-c", echo.addr)
	if status != 200 {
		t.Fatalf("first connection: %d", status)
	}
	if status, _, _ := connectTunnel(g.httpAddr(), "user-c", "pass-c", echo.addr); status != 429 {
		t.Fatalf("over the cap: %d", status)
	}
	p := portOf(echo.addr)
	if _, reply, _, _ := socksConnect(g.socksAddr(), "user-c", "pass-c", "localhost", p); reply != 0x02 {
		t.Fatalf("over the cap on SOCKS5: reply %d", reply)
	}
	first.Close()
	deadline := time.Now().Add(2 * time.Second)
	for g.tunnels.slotsTaken("c") > 0 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if status, c2, _ := connectTunnel(g.httpAddr(), "user-c", "pass-c", echo.addr); status != 200 {
		t.Fatalf("after closing: %d", status)
	} else {
		c2.Close()
	}
}

func TestCapTextCountsConnections(t *testing.T) {
	if got := capText(1); got != "This proxy already has 1 open connection, its limit; close one and try again." {
		t.Fatalf("one: %q", got)
	}
	if got := capText(3); !strings.Contains(got, "has 3 open connections, its limit") {
		t.Fatalf("three: %q", got)
	}
}

// A connection holds its slot from before its dial: connections that arrive together
// cannot pass a cap together while their upstream is still answering.
func TestConcurrencyCapHoldsDuringSlowDials(t *testing.T) {
	upstream := serveLoopback(t, func(c net.Conn) { // takes 200 ms to answer CONNECT, then echoes
		defer c.Close()
		br := bufio.NewReader(c)
		if _, err := http.ReadRequest(br); err != nil {
			return
		}
		time.Sleep(200 * time.Millisecond)
		io.WriteString(c, "HTTP/1.1 200 Connection established\r\n\r\n")
		io.Copy(c, br)
	})
	capped := assigned("slow", "DATACENTER")
	capped.MaxConnections = 2
	host, _, _ := net.SplitHostPort(upstream)
	p := portOf(upstream)
	capped.Exit = Exit{ProxyID: "slow", Upstream: true, Host: host, Port: p}
	g := startGateway(t, NewStaticSource(capped), true)

	var mu sync.Mutex
	statuses := map[int]int{}
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			status, c, _ := connectTunnel(g.httpAddr(), "user-slow", "pass-slow", "example.test:443")
			mu.Lock()
			statuses[status]++
			mu.Unlock()
			if c != nil {
				t.Cleanup(func() { c.Close() })
			}
		}()
	}
	wg.Wait()
	if statuses[200] != 2 || statuses[429] != 6 {
		t.Fatalf("8 connections at once under a cap of 2: %v", statuses)
	}
}

// A quota reads as it was given: whole GB, whole MB (a 500 MB trial, issue #28), else GB with two decimals.
func TestFormatBytesNamesQuotasAsGiven(t *testing.T) {
	for n, want := range map[int64]string{
		0:             "0 GB",
		1 << 30:       "1 GB",
		50 << 30:      "50 GB",
		500 << 20:     "500 MB",
		1536 << 20:    "1536 MB",
		100:           "0.00 GB",
		(1 << 30) + 1: "1.00 GB",
	} {
		if got := formatBytes(n); got != want {
			t.Errorf("formatBytes(%d) = %q, want %q", n, got, want)
		}
	}
}
