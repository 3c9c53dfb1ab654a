package gateway

import (
	"net"
	"net/netip"
	"testing"
)

// withInterfaces makes the machine's interface addresses `addrs` for one test.
func withInterfaces(t *testing.T, addrs ...string) {
	t.Helper()
	saved := interfaceAddrs
	t.Cleanup(func() { interfaceAddrs = saved })
	interfaceAddrs = func() ([]net.Addr, error) {
		out := []net.Addr{}
		for _, a := range addrs {
			p := netip.MustParsePrefix(a)
			out = append(out, &net.IPNet{IP: p.Addr().AsSlice(), Mask: net.CIDRMask(p.Bits(), p.Addr().BitLen())})
		}
		return out, nil
	}
}

// Finding 2 of #26: the guard blocked private ranges but not the gateway machine's own
// public addresses, so with GATEWAY_HOST=0.0.0.0 a customer reached every socket bound to
// 0.0.0.0 or :: there (the web port, Docker ports, databases) past the firewall.
func TestFinding2TheMachinesOwnAddressesAreNeverDialled(t *testing.T) {
	withInterfaces(t, "203.0.113.7/24", "2001:db8:7::1/64", "127.0.0.1/8")
	src := NewStaticSource(assigned("dc", "DATACENTER"))
	g := startGateway(t, src, false)
	for _, own := range []string{"203.0.113.7", "2001:db8:7::1", "::ffff:203.0.113.7"} {
		if g.guard.Allows(netip.MustParseAddr(own)) {
			t.Errorf("this machine's address %s is allowed", own)
		}
	}
	if !g.guard.Allows(netip.MustParseAddr("203.0.113.8")) {
		t.Error("a neighbour on the same network is refused")
	}
	if status, _, _ := connectTunnel(g.httpAddr(), "user-dc", "pass-dc", "203.0.113.7:8090"); status != 403 {
		t.Fatalf("CONNECT to this machine's public address: %d, want 403", status)
	}
	if _, reply, _, _ := socksConnect(g.socksAddr(), "user-dc", "pass-dc", "203.0.113.7", 4321); reply != 0x02 {
		t.Fatalf("SOCKS5 to this machine's public address: reply %d, want 2 (not allowed)", reply)
	}

	// An address a proxy sends from is the machine's too, even when no interface lists it
	// (a locally routed IPv6 range).
	bound := assigned("b", "DATACENTER")
	bound.Exit.BindAddr = "2001:db8:99::5"
	src.Put(bound)
	waitGrant(t, g, "b")
	g.refreshGuard()
	if g.guard.Allows(netip.MustParseAddr("2001:db8:99::5")) {
		t.Error("a bind address of an exit is allowed")
	}

	// Only gateway_allowed_ranges opens them.
	src.mu.Lock()
	src.allowed = []netip.Prefix{netip.MustParsePrefix("203.0.113.7/32")}
	src.mu.Unlock()
	g.refreshGuard()
	if !g.guard.Allows(netip.MustParseAddr("203.0.113.7")) {
		t.Error("an allowed range does not open this machine's address")
	}
}

// The interface addresses are read again: an address added later is refused too.
func TestFinding2InterfacesAreReadAgain(t *testing.T) {
	withInterfaces(t, "198.51.100.1/24")
	guard := NewGuard(false)
	if guard.Allows(netip.MustParseAddr("198.51.100.1")) || !guard.Allows(netip.MustParseAddr("198.51.100.2")) {
		t.Fatal("first read")
	}
	withInterfaces(t, "198.51.100.1/24", "198.51.100.2/24")
	guard.ownRead.Store(0) // as if ownRefresh had passed
	if guard.Allows(netip.MustParseAddr("198.51.100.2")) {
		t.Fatal("an address added to an interface is allowed")
	}
}

// Finding 9 of #26: IPv6 forms that carry an IPv4 address (NAT64, 6to4, IPv4-compatible)
// reached blocked IPv4 targets; they are judged as the address they carry, and Teredo is
// refused.
func TestFinding9IPv6FormsCarryingIPv4AreJudgedAsIt(t *testing.T) {
	withInterfaces(t)
	guard := NewGuard(false)
	for _, blocked := range []string{
		"64:ff9b::7f00:1",    // NAT64 of 127.0.0.1
		"64:ff9b::a9fe:a9fe", // NAT64 of 169.254.169.254 (metadata)
		"64:ff9b::a00:1",     // NAT64 of 10.0.0.1
		"2002:7f00:1::",      // 6to4 of 127.0.0.1
		"2002:c0a8:101::1",   // 6to4 of 192.168.1.1
		"::127.0.0.1",        // IPv4-compatible
		"::10.1.2.3",
		"::ffff:10.1.2.3",     // IPv4-mapped
		"2001:0:5ef5:79fd::1", // Teredo
	} {
		if guard.Allows(netip.MustParseAddr(blocked)) {
			t.Errorf("%s is allowed", blocked)
		}
	}
	for _, public := range []string{"64:ff9b::5db8:d822", "2002:5db8:d822::1", "93.184.216.34", "2606:4700::1111"} {
		if !guard.Allows(netip.MustParseAddr(public)) {
			t.Errorf("%s (a public address) is refused", public)
		}
	}
	guard.SetAllowed([]netip.Prefix{netip.MustParsePrefix("10.0.0.0/8")})
	if !guard.Allows(netip.MustParseAddr("64:ff9b::a00:1")) {
		t.Error("an allowed IPv4 range does not open its NAT64 form")
	}
}

func TestPrivateTargetsRefusedUnlessOpenOrAllowed(t *testing.T) {
	echo := startEcho(t, "echo")
	src := NewStaticSource(assigned("dc", "DATACENTER"))
	g := startGateway(t, src, false)
	if status, _, _ := connectTunnel(g.httpAddr(), "user-dc", "pass-dc", echo.addr); status != 403 {
		t.Fatalf("loopback target: %d, want 403", status)
	}
	_, port, _ := net.SplitHostPort(echo.addr)
	if status, _, _ := connectTunnel(g.httpAddr(), "user-dc", "pass-dc", "localhost:"+port); status != 403 {
		t.Fatalf("a name resolving to loopback: %d, want 403", status)
	}
	for _, blocked := range []string{"10.1.2.3", "192.168.0.1", "169.254.169.254", "100.64.0.1", "fd00:ec2::254", "::ffff:127.0.0.1"} {
		if g.guard.Allows(netip.MustParseAddr(blocked)) {
			t.Errorf("%s allowed", blocked)
		}
	}
	if !g.guard.Allows(netip.MustParseAddr("93.184.216.34")) {
		t.Error("a public address refused")
	}
	if echo.hitCount() != 0 {
		t.Fatal("a private target was dialled")
	}
	src.mu.Lock()
	src.allowed = []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}
	src.mu.Unlock()
	g.refreshGuard()
	if status, c, _ := connectTunnel(g.httpAddr(), "user-dc", "pass-dc", echo.addr); status != 200 {
		t.Fatalf("allowed range: %d", status)
	} else {
		c.Close()
	}
}
