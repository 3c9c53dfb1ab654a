package gateway

import (
	"net/netip"
	"strings"
	"sync/atomic"
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
	"fc00::/7",       // unique local (AWS metadata fd00:ec2::254)
	"fe80::/10",      // link-local
	"ff00::/8",       // multicast
)

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
}

func NewGuard(open bool) *Guard {
	g := &Guard{open: open}
	g.SetAllowed(nil)
	return g
}

// SetAllowed replaces the ranges that may be dialled even though they are blocked.
func (g *Guard) SetAllowed(prefixes []netip.Prefix) {
	g.allowed.Store(&prefixes)
}

// Allows says whether `addr` may be dialled.
func (g *Guard) Allows(addr netip.Addr) bool {
	if g.open {
		return true
	}
	// Without its zone: a prefix never contains a zoned address, so fe80::1%eth0 would pass.
	addr = addr.Unmap().WithZone("")
	for _, p := range *g.allowed.Load() {
		if p.Contains(addr) {
			return true
		}
	}
	if !addr.IsValid() || addr.IsUnspecified() {
		return false
	}
	for _, p := range blockedRanges {
		if p.Contains(addr) {
			return false
		}
	}
	return true
}
