package gateway

import (
	"bufio"
	"context"
	"encoding/base64"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// dialFrom connects to addr from a loopback address of its own (127.0.0.2 is another
// client than 127.0.0.1).
func dialFrom(from, addr string) (net.Conn, error) {
	d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(from)}, Timeout: 2 * time.Second}
	return d.Dial("tcp", addr)
}

// connectFrom is connectTunnel from a given local address; it answers the status and the
// answer's body.
func connectFrom(from, gw, user, pass, target string) (int, string) {
	c, err := dialFrom(from, gw)
	if err != nil {
		return 0, err.Error()
	}
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(3 * time.Second))
	auth := base64.StdEncoding.EncodeToString([]byte(user + ":" + pass))
	fmt.Fprintf(c, "CONNECT %s HTTP/1.1\r\nProxy-Authorization: Basic %s\r\n\r\n", target, auth)
	res, err := http.ReadResponse(bufio.NewReader(c), &http.Request{Method: http.MethodConnect})
	if err != nil {
		return 0, err.Error()
	}
	if res.StatusCode == 200 {
		return 200, ""
	}
	body, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(body)
}

// socksAuthFrom answers the RFC 1929 status a SOCKS5 sign-in from a given address gets.
func socksAuthFrom(from, gw, user, pass string) byte {
	c, err := dialFrom(from, gw)
	if err != nil {
		return 0xFF
	}
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(3 * time.Second))
	c.Write([]byte{5, 1, 2})
	reply := make([]byte, 2)
	if _, err := io.ReadFull(c, reply); err != nil {
		return 0xFF
	}
	c.Write(append(append(append([]byte{1, byte(len(user))}, user...), byte(len(pass))), pass...))
	if _, err := io.ReadFull(c, reply); err != nil {
		return 0xFF
	}
	return reply[1]
}

// Finding 3 of #26: the handshake slots were global and held for 10 s before
// authentication, so 4,200 half-sent requests from one address shut both ports for every
// customer. One address may now hold only its own share, and only for the auth deadline.
func TestFinding3AHandshakeFloodFromOneAddressLeavesAnotherServed(t *testing.T) {
	echo := startEcho(t, "echo")
	g := New(Config{HTTPAddr: "127.0.0.1:0", SOCKSAddr: "127.0.0.1:0", OpenTargets: true, PollInterval: 20 * time.Millisecond,
		MaxHandshakes: 64, MaxHandshakesPerSource: 16, AuthTimeout: 500 * time.Millisecond}, NewStaticSource(assigned("f", "DATACENTER")))
	if err := g.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(g.Close)

	flood := []net.Conn{}
	t.Cleanup(func() {
		for _, c := range flood {
			c.Close()
		}
	})
	for i := 0; i < 200; i++ {
		addr, first := g.httpAddr(), "CONNECT "
		if i%2 == 1 {
			addr, first = g.socksAddr(), "\x05"
		}
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		c.Write([]byte(first)) // and then nothing
		flood = append(flood, c)
	}
	for deadline := time.Now().Add(2 * time.Second); g.refusedBusy.Load() < 200-16; {
		if time.Now().After(deadline) {
			t.Fatalf("one address holds more than its share: %d of 200 refused", g.refusedBusy.Load())
		}
		time.Sleep(5 * time.Millisecond)
	}

	if status, body := connectFrom("127.0.0.2", g.httpAddr(), "user-f", "pass-f", echo.addr); status != 200 {
		t.Fatalf("another address during the flood: %d %s", status, body)
	}
	if got := socksAuthFrom("127.0.0.2", g.socksAddr(), "user-f", "pass-f"); got != 0 {
		t.Fatalf("another address on the SOCKS5 port during the flood: %d", got)
	}
	// The flood's held connections end at the auth deadline, not the 10 s handshake one.
	for _, c := range flood {
		_ = c.SetReadDeadline(time.Now().Add(3 * time.Second))
	}
	started := time.Now()
	for _, c := range flood {
		if _, err := c.Read(make([]byte, 64)); isTimeoutErr(err) {
			t.Fatalf("a stalled handshake still open %v after the flood", time.Since(started))
		}
	}
}

// Finding 7 of #26: about 3,200 password guesses a second were answered from one address.
// An address with too many failures is now refused for the rest of the minute, while the
// same proxy keeps working from anywhere else.
func TestFinding7PasswordGuessingIsThrottledPerAddress(t *testing.T) {
	echo := startEcho(t, "echo")
	g := New(Config{HTTPAddr: "127.0.0.1:0", SOCKSAddr: "127.0.0.1:0", OpenTargets: true, PollInterval: 20 * time.Millisecond,
		AuthFailureLimit: 5}, NewStaticSource(assigned("g", "DATACENTER")))
	if err := g.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(g.Close)
	for i := 0; i < 5; i++ {
		if status, _ := connectFrom("127.0.0.3", g.httpAddr(), "user-g", fmt.Sprintf("guess-%d", i), echo.addr); status != 407 {
			t.Fatalf("guess %d: %d", i, status)
		}
	}
	status, body := connectFrom("127.0.0.3", g.httpAddr(), "user-g", "pass-g", echo.addr)
	if status != 429 || !strings.Contains(body, "Too many failed proxy sign-ins from your address") {
		t.Fatalf("the right password from the guessing address: %d %q", status, body)
	}
	if got := socksAuthFrom("127.0.0.3", g.socksAddr(), "user-g", "pass-g"); got == 0 {
		t.Fatal("the guessing address signed in on the SOCKS5 port")
	}
	if status, body := connectFrom("127.0.0.4", g.httpAddr(), "user-g", "pass-g", echo.addr); status != 200 {
		t.Fatalf("the customer from another address: %d %s", status, body)
	}
}

// countingSource counts how often the gateway reads the source's changes.
type countingSource struct {
	*StaticSource
	changes atomic.Int64
}

func (s *countingSource) Changes(ctx context.Context, cursor int64) ([]string, int64, bool, error) {
	s.changes.Add(1)
	return s.StaticSource.Changes(ctx, cursor)
}

// Finding 8 of #26 (the gateway's side): every failed sign-in made the gateway read the
// shop's changes, so a wrong-password flood became a flood of calls to the shop. The same
// wrong credentials again are now answered from memory, and catch-ups are spaced.
func TestFinding8WrongPasswordsDoNotFloodTheSource(t *testing.T) {
	echo := startEcho(t, "echo")
	src := &countingSource{StaticSource: NewStaticSource(assigned("w", "DATACENTER"))}
	g := New(Config{HTTPAddr: "127.0.0.1:0", OpenTargets: true, PollInterval: time.Hour, AuthFailureLimit: -1,
		CatchUpEvery: 50 * time.Millisecond}, src)
	if err := g.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(g.Close)
	addr := g.Addrs()[0].String()
	before := src.changes.Load()
	started := time.Now()
	for i := 0; i < 300; i++ {
		if status, _ := connectFrom("127.0.0.1", addr, "user-w", "wrong", echo.addr); status != 407 {
			t.Fatalf("attempt %d: %d", i, status)
		}
	}
	once := int64(time.Since(started)/missTTL) + 1 // once per missTTL
	if reads := src.changes.Load() - before; reads > once {
		t.Fatalf("300 tries of one wrong password read the source %d times in %v (at most %d)", reads, time.Since(started), once)
	}

	// Credentials the gateway has not seen yet still work at once: it catches up.
	fresh := assigned("fresh", "DATACENTER")
	src.Put(fresh)
	if status, body := connectFrom("127.0.0.1", addr, "user-fresh", "pass-fresh", echo.addr); status != 200 {
		t.Fatalf("a proxy bought a moment ago: %d %s", status, body)
	}
}
