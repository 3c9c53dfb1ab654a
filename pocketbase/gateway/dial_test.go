package gateway

import (
	"fmt"
	"net"
	"testing"
)

func TestResidentialPoolRotatesStickyAndSkipsFailures(t *testing.T) {
	echo := startEcho(t, "echo")
	records := []Record{}
	upstreams := []*Gateway{}
	for i := 0; i < 3; i++ {
		up := startGateway(t, NewStaticSource(assigned(fmt.Sprintf("u%d", i), "DATACENTER")), true)
		upstreams = append(upstreams, up)
		host, _, _ := net.SplitHostPort(up.httpAddr())
		p := portOf(up.httpAddr())
		member := Record{ID: fmt.Sprintf("pool%d", i), Username: fmt.Sprintf("stock%d", i), Type: "RESIDENTIAL", Status: "AVAILABLE", Country: "US",
			Exit: Exit{ProxyID: fmt.Sprintf("pool%d", i), Upstream: true, Host: host, Port: p, Username: fmt.Sprintf("user-u%d", i), Password: fmt.Sprintf("pass-u%d", i)}}
		records = append(records, member)
	}
	// A pool member whose upstream is down.
	dead := Record{ID: "pooldead", Username: "stockdead", Type: "RESIDENTIAL", Status: "AVAILABLE", Country: "US",
		Exit: Exit{ProxyID: "pooldead", Upstream: true, Host: "127.0.0.1", Port: 1, Username: "x", Password: "y"}}
	other := Record{ID: "poolde", Username: "stockde", Type: "RESIDENTIAL", Status: "AVAILABLE", Country: "DE",
		Exit: Exit{ProxyID: "poolde", Upstream: true, Host: "127.0.0.1", Port: 1, Username: "x", Password: "y"}}
	resi := assigned("resi", "RESIDENTIAL")
	resi.Exit = records[0].Exit
	resi.Exit.ProxyID = "resi"
	src := NewStaticSource(append(records, dead, other, resi)...)
	g := startGateway(t, src, true)

	served := func() []int64 {
		out := []int64{}
		for i, up := range upstreams {
			out = append(out, up.Meter().Peek(fmt.Sprintf("u%d", i)).Connections)
		}
		return out
	}
	connectOnce := func(user string) {
		t.Helper()
		status, c, err := connectTunnel(g.httpAddr(), user, "pass-resi", echo.addr)
		if err != nil || status != 200 {
			t.Fatalf("%s: %d %v", user, status, err)
		}
		roundTrip(t, c, "pool hop")
		c.Close()
	}
	for i := 0; i < 30; i++ {
		connectOnce("user-resi")
	}
	used := 0
	for _, n := range served() {
		if n > 0 {
			used++
		}
	}
	if used < 2 {
		t.Fatalf("a plain username did not rotate: %v", served())
	}
	if src.report("pooldead") != "failed" {
		t.Fatalf("the dead upstream was not reported: %q", src.report("pooldead"))
	}

	before := served()
	for i := 0; i < 10; i++ {
		connectOnce("user-resi-session-abc123-sesstime-30")
	}
	after := served()
	grew := 0
	for i := range after {
		if after[i] > before[i] {
			grew++
		}
	}
	if grew != 1 {
		t.Fatalf("a session used %d upstreams: %v -> %v", grew, before, after)
	}
	if status, _, _ := connectTunnel(g.httpAddr(), "user-resi-country-de", "pass-resi", echo.addr); status != 407 {
		t.Fatalf("-country outside the bought location: %d", status)
	}
	if status, _, _ := connectTunnel(g.httpAddr(), "user-resi-sesstime-2000-session-a", "pass-resi", echo.addr); status != 407 {
		t.Fatalf("sesstime over a day: %d", status)
	}
}
