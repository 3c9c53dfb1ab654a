package gateway

import (
	"io"
	"net"
	"net/netip"
	"time"
)

// SOCKS5 reply codes (RFC 1928 section 6).
const (
	socksSucceeded           = 0x00
	socksNotAllowed          = 0x02 // connection not allowed by ruleset
	socksCommandNotSupported = 0x07
	socksAddressNotSupported = 0x08
)

// serveSOCKS answers one client of the SOCKS5 port: RFC 1929 username/password (the only
// method offered), then CONNECT; a domain name is resolved here, on the gateway.
func (g *Gateway) serveSOCKS(c net.Conn, h *handshake) {
	client := c.(*net.TCPConn)
	_ = client.SetDeadline(time.Now().Add(g.cfg.AuthTimeout)) // greeting and credentials
	buf := make([]byte, 512)

	if _, err := io.ReadFull(client, buf[:2]); err != nil || buf[0] != 5 {
		client.Close()
		return
	}
	methods := buf[2 : 2+int(buf[1])]
	if _, err := io.ReadFull(client, methods); err != nil {
		client.Close()
		return
	}
	offered := false
	for _, m := range methods {
		offered = offered || m == 0x02
	}
	if !offered {
		_, _ = client.Write([]byte{5, 0xFF}) // no acceptable method
		client.Close()
		return
	}
	if _, err := client.Write([]byte{5, 0x02}); err != nil {
		client.Close()
		return
	}

	// RFC 1929: VER=1 ULEN UNAME PLEN PASSWD.
	username, password, ok := readSOCKSCredentials(client, buf)
	if !ok {
		client.Close()
		return
	}
	grant, opts, refused := g.authorize(username, password, PortSOCKS, clientAddr(client))
	if refused != nil {
		g.meter.refusedClient(refused)
		_, _ = client.Write([]byte{1, 1})
		client.Close()
		return
	}
	if _, err := client.Write([]byte{1, 0}); err != nil {
		client.Close()
		return
	}
	h.authenticated()
	_ = client.SetDeadline(time.Now().Add(g.cfg.HandshakeTimeout))

	cmd, host, port, code := readSOCKSRequest(client, buf)
	if code == socksSucceeded {
		release, limited := g.takeConnection(grant)
		if limited != nil {
			g.meter.refusedClient(limited)
			code = limited.socks
		} else {
			defer release()
		}
	}
	if code != socksSucceeded {
		socksReply(client, code)
		client.Close()
		return
	}
	if cmd == socksUDPAssociate {
		g.associate(client, h, grant, opts, port)
		return
	}
	target, err := g.dial(grant, opts, host, port)
	if err != nil {
		socksReply(client, dialRefusal(host, err).socks)
		client.Close()
		return
	}
	_ = client.SetDeadline(time.Time{})
	h.done()
	g.open(grant, client, target, false, func(io.Writer) error {
		return socksReply(client, socksSucceeded)
	}, func(*refusal) {
		socksReply(client, socksNotAllowed) // the proxy changed while connecting
		client.Close()
	})
}

func readSOCKSCredentials(c net.Conn, buf []byte) (string, string, bool) {
	if _, err := io.ReadFull(c, buf[:2]); err != nil || buf[0] != 1 {
		return "", "", false
	}
	username := make([]byte, buf[1])
	if _, err := io.ReadFull(c, username); err != nil {
		return "", "", false
	}
	if _, err := io.ReadFull(c, buf[:1]); err != nil {
		return "", "", false
	}
	password := make([]byte, buf[0])
	if _, err := io.ReadFull(c, password); err != nil {
		return "", "", false
	}
	return string(username), string(password), true
}

// SOCKS5 commands served: CONNECT and UDP ASSOCIATE (BIND is not).
const (
	socksCmdConnect   = 0x01
	socksUDPAssociate = 0x03
)

// readSOCKSRequest reads VER CMD RSV ATYP DST.ADDR DST.PORT: CONNECT's target, or UDP
// ASSOCIATE's address the client will send from (port 0: not known yet).
func readSOCKSRequest(c net.Conn, buf []byte) (byte, string, int, byte) {
	if _, err := io.ReadFull(c, buf[:4]); err != nil || buf[0] != 5 {
		return 0, "", 0, 0x01
	}
	cmd, atyp := buf[1], buf[3]
	var host string
	switch atyp {
	case 1, 4:
		size := 4
		if atyp == 4 {
			size = 16
		}
		if _, err := io.ReadFull(c, buf[:size]); err != nil {
			return 0, "", 0, 0x01
		}
		addr, _ := netip.AddrFromSlice(buf[:size])
		host = addr.Unmap().String()
	case 3:
		if _, err := io.ReadFull(c, buf[:1]); err != nil {
			return 0, "", 0, 0x01
		}
		n := int(buf[0])
		if _, err := io.ReadFull(c, buf[:n]); err != nil || n == 0 {
			return 0, "", 0, 0x01
		}
		host = string(buf[:n])
	default:
		return 0, "", 0, socksAddressNotSupported
	}
	if _, err := io.ReadFull(c, buf[:2]); err != nil {
		return 0, "", 0, 0x01
	}
	port := int(buf[0])<<8 | int(buf[1])
	if cmd != socksCmdConnect && cmd != socksUDPAssociate {
		return cmd, "", 0, socksCommandNotSupported
	}
	if port == 0 && cmd == socksCmdConnect {
		return cmd, "", 0, 0x01
	}
	return cmd, host, port, socksSucceeded
}

func socksReply(c net.Conn, code byte) error {
	_, err := c.Write([]byte{5, code, 0, 1, 0, 0, 0, 0, 0, 0})
	return err
}

// socksReplyAt answers success with BND.ADDR and BND.PORT (UDP ASSOCIATE's relay socket).
func socksReplyAt(c net.Conn, bound netip.AddrPort) error {
	_, err := c.Write(append([]byte{5, socksSucceeded, 0}, socksAddress(bound)...))
	return err
}

// socksAddress is ATYP DST.ADDR DST.PORT of an address (IPv4 or IPv6).
func socksAddress(a netip.AddrPort) []byte {
	ip := a.Addr().Unmap()
	out := []byte{1}
	if ip.Is6() {
		out[0] = 4
	}
	out = append(out, ip.AsSlice()...)
	return append(out, byte(a.Port()>>8), byte(a.Port()))
}
