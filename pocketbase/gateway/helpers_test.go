package gateway

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"sync"
	"testing"
	"time"
)

// assigned is an ASSIGNED proxy of a type, exiting directly, valid for an hour.
func assigned(id, typ string) Record {
	return Record{ID: id, Username: "user-" + id, Password: "pass-" + id, Type: typ, Status: "ASSIGNED",
		ExpiresAt: time.Now().Add(time.Hour), OwnerID: "owner", Country: "US", Exit: Exit{ProxyID: id}}
}

// echoServer answers HTTP requests with "<name> <path>" and, on /, echoes raw TCP otherwise.
type echoServer struct {
	addr string
	name string
	mu   sync.Mutex
	hits int
}

// serveLoopback answers each connection to a new loopback port with `serve` (in a
// goroutine of its own) until the test ends, and answers the port's address.
func serveLoopback(t *testing.T, serve func(net.Conn)) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
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

func startEcho(t *testing.T, name string) *echoServer {
	t.Helper()
	e := &echoServer{name: name}
	e.addr = serveLoopback(t, e.serve)
	return e
}

func (e *echoServer) serve(c net.Conn) {
	defer c.Close()
	e.mu.Lock()
	e.hits++
	e.mu.Unlock()
	br := bufio.NewReader(c)
	first, err := br.Peek(4)
	if err != nil {
		return
	}
	if string(first) == "GET " {
		req, err := http.ReadRequest(br)
		if err != nil {
			return
		}
		body := e.name + " " + req.URL.Path + " auth=" + req.Header.Get("Proxy-Authorization")
		fmt.Fprintf(c, "HTTP/1.1 200 OK\r\nContent-Length: %d\r\nConnection: close\r\n\r\n%s", len(body), body)
		return
	}
	_, _ = io.Copy(c, br) // raw echo
}

func (e *echoServer) hitCount() int {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.hits
}

func startGateway(t *testing.T, src Source, open bool) *Gateway {
	t.Helper()
	g := New(Config{HTTPAddr: "127.0.0.1:0", SOCKSAddr: "127.0.0.1:0", OpenTargets: open, PollInterval: 20 * time.Millisecond}, src)
	if err := g.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(g.Close)
	return g
}

func (g *Gateway) httpAddr() string { return g.listeners[0].Addr().String() }

func (g *Gateway) socksAddr() string { return g.listeners[1].Addr().String() }

func roundTrip(t *testing.T, c net.Conn, text string) {
	t.Helper()
	_ = c.SetDeadline(time.Now().Add(3 * time.Second))
	if _, err := c.Write([]byte(text)); err != nil {
		t.Fatal(err)
	}
	got := make([]byte, len(text))
	if _, err := io.ReadFull(c, got); err != nil {
		t.Fatal(err)
	}
	if string(got) != text {
		t.Fatalf("echo: got %q want %q", got, text)
	}
}

// waitClosed answers how long until the peer closes c (fails after `limit`).
func waitClosed(t *testing.T, c net.Conn, limit time.Duration) time.Duration {
	t.Helper()
	start := time.Now()
	_ = c.SetReadDeadline(start.Add(limit))
	_, err := c.Read(make([]byte, 1))
	if ne, ok := err.(net.Error); ok && ne.Timeout() {
		t.Fatalf("tunnel still open after %v", limit)
	}
	return time.Since(start)
}

func isTimeoutErr(err error) bool {
	ne, ok := err.(net.Error)
	return ok && ne.Timeout()
}

// portOf is the port of a "host:port" address.
func portOf(addr string) int {
	_, port, _ := net.SplitHostPort(addr)
	var p int
	fmt.Sscan(port, &p)
	return p
}
