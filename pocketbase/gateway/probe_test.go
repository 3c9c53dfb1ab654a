package gateway

import (
	"context"
	"io"
	"net"
	"testing"
	"time"
)

// unsold is an AVAILABLE proxy exiting through the upstream at addr, marked failing.
func unsold(id, addr string, socks bool) Record {
	return Record{ID: id, Type: "DATACENTER", Status: "AVAILABLE", Country: "US", UpstreamFailed: true,
		Exit: Exit{ProxyID: id, Upstream: true, Host: "127.0.0.1", Port: portOf(addr), Username: "u", Password: "p", SOCKS: socks}}
}

// closedPort is a loopback address nothing listens on.
func closedPort(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return addr
}

// A marked upstream keeps its mark while it refuses connections (or refuses its SOCKS5
// credentials), and loses it (reported ok) once it answers, though nobody bought it.
func TestProbeClearsTheMarkOfAnUpstreamThatAnswersAgain(t *testing.T) {
	dead := closedPort(t)
	refusing := serveLoopback(t, func(c net.Conn) {
		defer c.Close()
		buf := make([]byte, 3)
		if _, err := io.ReadFull(c, buf); err == nil {
			_, _ = c.Write([]byte{5, 0xff}) // no acceptable method
		}
	})
	alive := serveLoopback(t, func(c net.Conn) { c.Close() })
	src := NewStaticSource(unsold("dead", dead, false), unsold("refusing", refusing, true), unsold("alive", alive, false))
	g := New(Config{ProbeInterval: -1}, src)
	if err := g.reload(); err != nil {
		t.Fatal(err)
	}
	g.probeMarked(context.Background())
	waitReport(t, src, "alive", "ok")
	for _, id := range []string{"dead", "refusing"} {
		if got := src.report(id); got != "" {
			t.Fatalf("%s: reported %q, want no report while it fails", id, got)
		}
	}
	if len(g.dialer.health.markedExits(10)) != 2 {
		t.Fatalf("marked exits = %v, want dead and refusing", g.dialer.health.markedExits(10))
	}

	// The dead one's port answers now: the next round clears it.
	ln, err := net.Listen("tcp", dead)
	if err != nil {
		t.Skip("the freed port was taken meanwhile:", err)
	}
	defer ln.Close()
	g.probeMarked(context.Background())
	waitReport(t, src, "dead", "ok")
	if src.report("refusing") != "" {
		t.Fatal("the SOCKS5 upstream that refuses its credentials lost its mark")
	}
}

// The loop runs on its own every ProbeInterval once the gateway started, and a proxy
// whose mark the source cleared (or that is gone) is not probed again.
func TestProbeLoopRunsAndFollowsTheSource(t *testing.T) {
	alive := serveLoopback(t, func(c net.Conn) { c.Close() })
	src := NewStaticSource(unsold("a", alive, false), unsold("b", closedPort(t), false))
	g := New(Config{HTTPAddr: "127.0.0.1:0", PollInterval: 10 * time.Millisecond, ProbeInterval: 10 * time.Millisecond}, src)
	if err := g.Start(); err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	waitReport(t, src, "a", "ok")
	src.Remove("b")
	deadline := time.Now().Add(5 * time.Second)
	for len(g.dialer.health.markedExits(10)) > 0 {
		if time.Now().After(deadline) {
			t.Fatalf("still probing %v after the source dropped it", g.dialer.health.markedExits(10))
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func waitReport(t *testing.T, src *StaticSource, id, want string) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for src.report(id) != want {
		if time.Now().After(deadline) {
			t.Fatalf("%s: report %q, want %q", id, src.report(id), want)
		}
		time.Sleep(5 * time.Millisecond)
	}
}
