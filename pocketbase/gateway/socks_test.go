package gateway

import (
	"io"
	"net"
	"testing"
	"time"
)

// socksConnect does a SOCKS5 handshake; answers the auth status, the reply code and the conn.
func socksConnect(gw, user, pass, host string, port int) (byte, byte, net.Conn, error) {
	c, err := net.Dial("tcp", gw)
	if err != nil {
		return 0, 0, nil, err
	}
	_ = c.SetDeadline(time.Now().Add(5 * time.Second))
	c.Write([]byte{5, 1, 2})
	buf := make([]byte, 300)
	if _, err := io.ReadFull(c, buf[:2]); err != nil {
		return 0, 0, nil, err
	}
	msg := append([]byte{1, byte(len(user))}, user...)
	msg = append(append(msg, byte(len(pass))), pass...)
	c.Write(msg)
	if _, err := io.ReadFull(c, buf[:2]); err != nil {
		return 0, 0, nil, err
	}
	if buf[1] != 0 {
		c.Close()
		return buf[1], 0, nil, nil
	}
	req := append([]byte{5, 1, 0, 3, byte(len(host))}, host...)
	req = append(req, byte(port>>8), byte(port))
	c.Write(req)
	if _, err := io.ReadFull(c, buf[:10]); err != nil {
		return 0, 0, nil, err
	}
	if buf[1] != 0 {
		c.Close()
		return 0, buf[1], nil, nil
	}
	_ = c.SetDeadline(time.Time{})
	return 0, 0, c, nil
}

// The SOCKS5 half of TestMalformedHandshakesAreAnsweredAndClosed (moved beside socks.go).
func TestMalformedSOCKSHandshakesAreAnsweredAndClosed(t *testing.T) {
	g := startGateway(t, NewStaticSource(assigned("dc", "DATACENTER")), true)
	for _, junk := range [][]byte{{4, 1, 0}, {5, 1, 0}, {5, 0}} {
		c, _ := net.Dial("tcp", g.socksAddr())
		c.Write(junk)
		_ = c.SetReadDeadline(time.Now().Add(2 * time.Second))
		out, _ := io.ReadAll(c)
		if len(out) > 2 || (len(out) == 2 && out[1] != 0xFF) {
			t.Errorf("SOCKS %v answered %v", junk, out)
		}
		c.Close()
	}
}
