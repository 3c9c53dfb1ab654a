package gateway

import (
	"net"
	"net/netip"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// blockedRanges are the addresses a gateway reachable from outside must never dial: a
// proxy must not be a door into the network it runs in.
var blockedRanges = mustPrefixes(
	"0.0.0.0/8",      // "this" network
	"10.0.0.0/8",     // private
	"100.64.0.0/10",  // CGNAT
	"127.0.0.0/8",    // loopback
	"169.254.0.0/16", // link-local, cloud metadata (169.254.169.254)
	"172.16.0.0/12",  // private
	"192.0.0.0/24",   // IETF protocol assignments
	"192.168.0.0/16", // private
	"198.18.0.0/15",  // benchmarking
	"224.0.0.0/4",    // multicast
	"240.0.0.0/4",    // reserved, broadcast
	"::/128",         // unspecified
	"::1/128",        // loopback
	"64:ff9b:1::/48", // local-use NAT64
	"2001::/32",      // Teredo: carries an IPv4 address in a form the guard cannot judge
	"fc00::/7",       // unique local (AWS metadata fd00:ec2::254)
	"fe80::/10",      // link-local
	"ff00::/8",       // multicast
)

// IPv6 forms that carry an IPv4 address and reach it: judged as that address.
var (
	nat64          = netip.MustParsePrefix("64:ff9b::/96") // the IPv4 address in the last 32 bits
	sixToFour      = netip.MustParsePrefix("2002::/16")    // in bits 16-47
	ipv4Compatible = netip.MustParsePrefix("::/96")        // ::a.b.c.d, in the last 32 bits
)

// carriedIPv4 is the address an IPv6 address leads to: the IPv4 address a NAT64, 6to4 or
// IPv4-compatible address carries, else the address itself (IPv4-mapped ones unmapped).
func carriedIPv4(a netip.Addr) netip.Addr {
	a = a.Unmap()
	if !a.Is6() {
		return a
	}
	b := a.As16()
	switch {
	case nat64.Contains(a), ipv4Compatible.Contains(a) && !a.IsLoopback() && !a.IsUnspecified():
		return netip.AddrFrom4([4]byte(b[12:16]))
	case sixToFour.Contains(a):
		return netip.AddrFrom4([4]byte(b[2:6]))
	}
	return a
}

func mustPrefixes(cidrs ...string) []netip.Prefix {
	out := make([]netip.Prefix, 0, len(cidrs))
	for _, c := range cidrs {
		out = append(out, netip.MustParsePrefix(c))
	}
	return out
}

// ParsePrefixes reads addresses and CIDR ranges separated by commas, spaces or newlines
// (an address alone is a /32 or /128); it skips what it cannot read and says which.
func ParsePrefixes(text string) ([]netip.Prefix, []string) {
	prefixes := []netip.Prefix{}
	bad := []string{}
	for _, field := range strings.FieldsFunc(text, func(r rune) bool { return r == ',' || r == ' ' || r == '\n' || r == '\r' || r == '\t' }) {
		if p, ok := parsePrefix(field); ok {
			prefixes = append(prefixes, p)
		} else {
			bad = append(bad, field)
		}
	}
	return prefixes, bad
}

func parsePrefix(s string) (netip.Prefix, bool) {
	s = strings.TrimSpace(s)
	if strings.Contains(s, "/") {
		p, err := netip.ParsePrefix(s)
		if err != nil {
			return netip.Prefix{}, false
		}
		if p.Addr().Is4In6() {
			p = netip.PrefixFrom(p.Addr().Unmap(), p.Bits()-96)
		}
		return p.Masked(), true
	}
	a, err := netip.ParseAddr(s)
	if err != nil {
		return netip.Prefix{}, false
	}
	a = a.Unmap()
	return netip.PrefixFrom(a, a.BitLen()), true
}

// Guard decides which target addresses the gateway may dial.
type Guard struct {
	// open: the gateway listens on loopback only (the embedded default), so whoever can
	// use it is on this machine already and may reach anything.
	open    bool
	allowed atomic.Pointer[[]netip.Prefix]
	// own: this machine's addresses (its interfaces', re-read every ownRefresh, and the
	// addresses it listens on or sends from), never dialled: a socket bound to 0.0.0.0 or
	// :: there (a web port meant for a reverse proxy, a database) must stay out of reach
	// even on a public address.
	own     atomic.Pointer[map[netip.Addr]bool]
	bound   atomic.Pointer[[]netip.Addr]
	ownMu   sync.Mutex
	ownRead atomic.Int64 // unix nanoseconds of the last read of the interfaces
}

// ownRefresh is how often the guard re-reads the machine's interface addresses.
const ownRefresh = 10 * time.Second

// interfaceAddrs lists the machine's interface addresses (tests replace it).
var interfaceAddrs = net.InterfaceAddrs

func NewGuard(open bool) *Guard {
	g := &Guard{open: open}
	g.SetAllowed(nil)
	g.SetBound(nil)
	return g
}

// SetAllowed replaces the ranges that may be dialled even though they are blocked.
func (g *Guard) SetAllowed(prefixes []netip.Prefix) {
	g.allowed.Store(&prefixes)
}

// SetBound replaces the addresses the gateway listens on and sends from (besides its
// interfaces'), which it never dials.
func (g *Guard) SetBound(addrs []netip.Addr) {
	addrs = slices.SortedFunc(slices.Values(addrs), netip.Addr.Compare)
	if old := g.bound.Load(); old != nil && slices.Equal(*old, addrs) {
		return
	}
	g.bound.Store(&addrs)
	g.ownRead.Store(0) // read again with the next check
}

// ownAddrs answers this machine's addresses, re-read when older than ownRefresh (by one
// caller; the others use the last list meanwhile).
func (g *Guard) ownAddrs() map[netip.Addr]bool {
	if own := g.own.Load(); own != nil && time.Since(time.Unix(0, g.ownRead.Load())) < ownRefresh {
		return *own
	}
	if !g.ownMu.TryLock() {
		if own := g.own.Load(); own != nil {
			return *own
		}
		g.ownMu.Lock()
	}
	defer g.ownMu.Unlock()
	own := map[netip.Addr]bool{}
	if addrs, err := interfaceAddrs(); err == nil {
		for _, a := range addrs {
			if p, err := netip.ParsePrefix(a.String()); err == nil {
				own[p.Addr().Unmap().WithZone("")] = true
			}
		}
	}
	for _, a := range *g.bound.Load() {
		if a.IsValid() && !a.IsUnspecified() {
			own[a.Unmap().WithZone("")] = true
		}
	}
	g.own.Store(&own)
	g.ownRead.Store(time.Now().UnixNano())
	return own
}

// Allows says whether `addr` may be dialled.
func (g *Guard) Allows(addr netip.Addr) bool {
	if g.open {
		return true
	}
	// Without its zone: a prefix never contains a zoned address, so fe80::1%eth0 would pass.
	addr = addr.Unmap().WithZone("")
	reaches := carriedIPv4(addr)
	for _, p := range *g.allowed.Load() {
		if p.Contains(addr) || p.Contains(reaches) {
			return true
		}
	}
	if !reaches.IsValid() || reaches.IsUnspecified() {
		return false
	}
	if own := g.ownAddrs(); own[addr] || own[reaches] {
		return false
	}
	for _, p := range blockedRanges {
		if p.Contains(addr) || p.Contains(reaches) {
			return false
		}
	}
	return true
}
