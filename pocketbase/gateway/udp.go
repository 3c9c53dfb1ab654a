// SOCKS5 UDP ASSOCIATE (RFC 1928 section 7): after the same sign-in as CONNECT, a relay
// socket for the authenticated client alone, datagrams sent on through the proxy's
// direct exit, metered and drawn on its budget like a tunnel's bytes, until the control
// connection closes or nothing moves for UDPIdleTimeout.

package gateway

import (
	"context"
	"errors"
	"io"
	"net"
	"net/netip"
	"sync"
	"sync/atomic"
	"time"
)

// udpHeaderMax is the longest RFC 1928 UDP header an answer carries (an IPv6 source).
const udpHeaderMax = 3 + 1 + 16 + 2

// maxUDPPeers bounds the targets one association may have sent to (their answers pass).
const maxUDPPeers = 1024

// udpExit is the direct exit an association sends from; ok is false when the proxy leaves
// through an upstream proxy (its own or its pool's), which cannot carry UDP.
func (d *Dialer) udpExit(g *Grant, opts Options) (Exit, bool) {
	for _, e := range d.exitsFor(g, opts) {
		if !e.Upstream {
			return e, true
		}
	}
	return Exit{}, false
}

// association is one UDP ASSOCIATE: relay faces the client, out the targets.
type association struct {
	g       *Gateway
	grant   *Grant
	control *net.TCPConn
	relay   *net.UDPConn
	out     *net.UDPConn
	bindTo  netip.Addr // the exit's local address; invalid: any
	budget  *budget
	usage   *Usage

	clientIP   netip.Addr
	clientPort atomic.Uint32 // 0 until the client's first datagram when it named none

	mu    sync.Mutex
	peers map[netip.AddrPort]bool
	names map[string]netip.Addr // resolved target names (read by the client loop only)

	last      atomic.Int64 // unix nanoseconds of the last datagram relayed
	closeOnce sync.Once
	spent     atomic.Bool
}

// associate serves a UDP ASSOCIATE whose connection slot is held: refused (02, "not
// allowed") when the exit is an upstream proxy, else answered with the relay socket's
// address and served until the control connection ends.
func (g *Gateway) associate(control *net.TCPConn, h *handshake, grant *Grant, opts Options, clientPort int) {
	exit, ok := g.dialer.udpExit(grant, opts)
	if !ok {
		g.cfg.Logger.Info("gateway: UDP ASSOCIATE refused: UDP needs a direct exit", "proxy", grant.ProxyID)
		socksReply(control, socksNotAllowed)
		control.Close()
		return
	}
	local, _ := netip.ParseAddrPort(control.LocalAddr().String())
	relay, err := net.ListenUDP("udp", net.UDPAddrFromAddrPort(netip.AddrPortFrom(local.Addr(), 0)))
	if err != nil {
		socksReply(control, 0x01)
		control.Close()
		return
	}
	a := &association{g: g, grant: grant, control: control, relay: relay, budget: g.quotas.of(grant),
		usage: g.meter.of(grant.ProxyID, grant.OwnerID), clientIP: clientAddr(control),
		peers: map[netip.AddrPort]bool{}, names: map[string]netip.Addr{}}
	a.clientPort.Store(uint32(clientPort))
	var bind *net.UDPAddr
	if ip, err := netip.ParseAddr(exit.BindAddr); err == nil {
		a.bindTo = ip.Unmap()
		bind = net.UDPAddrFromAddrPort(netip.AddrPortFrom(a.bindTo, 0))
	}
	if a.out, err = net.ListenUDP("udp", bind); err != nil {
		relay.Close()
		socksReply(control, 0x01)
		control.Close()
		return
	}
	t := &tunnel{proxyID: grant.ProxyID, client: control, target: relay}
	g.tunnels.add(t, grant.ExpiresAt)
	defer g.tunnels.remove(t)
	defer a.close()
	if current := g.index.Grant(grant.ProxyID); current == nil || !current.sameAccess(grant) {
		socksReply(control, socksNotAllowed)
		return
	}
	bound, _ := netip.ParseAddrPort(relay.LocalAddr().String())
	if socksReplyAt(control, bound) != nil {
		return
	}
	_ = control.SetDeadline(time.Time{})
	h.done()
	a.usage.connections.Add(1)
	a.touch()
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); a.fromClient() }()
	go func() { defer wg.Done(); a.fromTargets() }()
	// The association lives as long as its control connection (RFC 1928 section 7).
	_, _ = io.Copy(io.Discard, control)
	a.close()
	wg.Wait()
	if a.spent.Load() {
		g.tunnels.cut(grant.ProxyID)
	}
}

func (a *association) close() {
	a.closeOnce.Do(func() {
		a.control.Close()
		a.relay.Close()
		a.out.Close()
	})
}

func (a *association) touch() { a.last.Store(time.Now().UnixNano()) }

// waitMore answers whether a read that failed may go on: a deadline passed while
// datagrams still moved within the idle timeout (the read waits again until then).
func (a *association) waitMore(c *net.UDPConn, err error) bool {
	var ne net.Error
	if !errors.As(err, &ne) || !ne.Timeout() {
		return false
	}
	until := time.Unix(0, a.last.Load()).Add(a.g.cfg.UDPIdleTimeout)
	if !time.Now().Before(until) {
		a.close()
		return false
	}
	_ = c.SetReadDeadline(until)
	return true
}

// draw takes n bytes from the budget: false when they would pass it (the datagram is
// dropped and the association ends, and with it every tunnel of the proxy).
func (a *association) draw(n int) bool {
	if allowed := a.budget.take(int64(n)); allowed < int64(n) {
		a.budget.giveBack(allowed)
		a.spent.Store(true)
		a.close()
		return false
	}
	return true
}

// fromClient sends the client's datagrams on; others' are dropped, and so are fragments
// (FRAG != 0), malformed headers and targets the guard refuses.
func (a *association) fromClient() {
	buf := make([]byte, 64<<10)
	_ = a.relay.SetReadDeadline(time.Now().Add(a.g.cfg.UDPIdleTimeout))
	for {
		n, from, err := a.relay.ReadFromUDPAddrPort(buf)
		if err != nil {
			if a.waitMore(a.relay, err) {
				continue
			}
			return
		}
		if !a.isClient(from) {
			continue
		}
		host, port, payload, ok := parseUDPDatagram(buf[:n])
		if !ok {
			continue
		}
		ip, ok := a.resolve(host)
		if !ok {
			continue
		}
		dst := netip.AddrPortFrom(ip, uint16(port))
		if !a.addPeer(dst) {
			continue
		}
		if !a.draw(len(payload)) {
			return
		}
		a.usage.up.Add(int64(len(payload))) // before the answer can be counted
		if sent, _ := a.out.WriteToUDPAddrPort(payload, dst); sent < len(payload) {
			a.budget.giveBack(int64(len(payload) - sent))
			a.usage.up.Add(-int64(len(payload) - sent))
		}
		a.touch()
	}
}

// fromTargets passes answers from targets the client sent to back to it, each behind
// the RFC's header naming its source; datagrams from anyone else are dropped.
func (a *association) fromTargets() {
	buf := make([]byte, udpHeaderMax+64<<10)
	_ = a.out.SetReadDeadline(time.Now().Add(a.g.cfg.UDPIdleTimeout))
	for {
		n, from, err := a.out.ReadFromUDPAddrPort(buf[udpHeaderMax:])
		if err != nil {
			if a.waitMore(a.out, err) {
				continue
			}
			return
		}
		from = netip.AddrPortFrom(from.Addr().Unmap(), from.Port())
		port := a.clientPort.Load()
		a.mu.Lock()
		known := a.peers[from]
		a.mu.Unlock()
		if !known || port == 0 {
			continue
		}
		head := append([]byte{0, 0, 0}, socksAddress(from)...)
		start := udpHeaderMax - len(head)
		copy(buf[start:], head)
		if !a.draw(n) {
			return
		}
		sent, _ := a.relay.WriteToUDPAddrPort(buf[start:udpHeaderMax+n], netip.AddrPortFrom(a.clientIP, uint16(port)))
		sent = max(sent-len(head), 0)
		a.budget.giveBack(int64(n - sent))
		a.usage.down.Add(int64(sent))
		a.touch()
	}
}

// isClient: the datagram comes from the control connection's client address (and from
// the port it named, or the port its first datagram came from).
func (a *association) isClient(from netip.AddrPort) bool {
	if from.Addr().Unmap() != a.clientIP {
		return false
	}
	port := uint32(from.Port())
	return a.clientPort.CompareAndSwap(0, port) || a.clientPort.Load() == port
}

// addPeer records a target the client sends to; false past maxUDPPeers (dropped).
func (a *association) addPeer(dst netip.AddrPort) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	if !a.peers[dst] && len(a.peers) >= maxUDPPeers {
		return false
	}
	a.peers[dst] = true
	return true
}

// resolve answers the address a datagram goes to: a literal address or the first address
// of a name (resolved here) that the guard allows and the exit's address family reaches.
func (a *association) resolve(host string) (netip.Addr, bool) {
	if ip, ok := a.names[host]; ok {
		return ip, true
	}
	candidates := []netip.Addr{}
	if ip, err := netip.ParseAddr(host); err == nil {
		candidates = append(candidates, ip)
	} else {
		ctx, cancel := context.WithTimeout(a.g.ctx, a.g.cfg.DialTimeout)
		resolved, err := a.g.dialer.resolver.LookupNetIP(ctx, "ip", host)
		cancel()
		if err != nil {
			return netip.Addr{}, false
		}
		candidates = resolved
	}
	for _, ip := range candidates {
		ip = ip.Unmap()
		if !a.g.guard.Allows(ip) || (a.bindTo.IsValid() && a.bindTo.Is4() != ip.Is4()) {
			continue
		}
		if len(a.names) >= maxUDPPeers {
			clear(a.names)
		}
		a.names[host] = ip
		return ip, true
	}
	return netip.Addr{}, false
}

// parseUDPDatagram reads RSV RSV FRAG ATYP DST.ADDR DST.PORT DATA; ok is false for a
// fragment, a malformed header or port 0.
func parseUDPDatagram(b []byte) (host string, port int, payload []byte, ok bool) {
	if len(b) < 4 || b[0] != 0 || b[1] != 0 || b[2] != 0 {
		return "", 0, nil, false
	}
	rest := b[4:]
	switch b[3] {
	case 1, 4:
		size := 4
		if b[3] == 4 {
			size = 16
		}
		if len(rest) < size+2 {
			return "", 0, nil, false
		}
		ip, _ := netip.AddrFromSlice(rest[:size])
		host, rest = ip.Unmap().String(), rest[size:]
	case 3:
		if len(rest) < 1 || rest[0] == 0 || len(rest) < 1+int(rest[0])+2 {
			return "", 0, nil, false
		}
		host, rest = string(rest[1:1+int(rest[0])]), rest[1+int(rest[0]):]
	default:
		return "", 0, nil, false
	}
	port = int(rest[0])<<8 | int(rest[1])
	return host, port, rest[2:], port != 0
}
