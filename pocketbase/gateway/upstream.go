// The client side of an upstream exit: CONNECT through an HTTP proxy, or a SOCKS5
// handshake, before the tunnel's bytes flow.

package gateway

import (
	"bufio"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"strconv"
)

// httpClientConnect asks an HTTP upstream for a tunnel (CONNECT) to host:port.
func httpClientConnect(c *net.TCPConn, username, password, host string, port int) ([]byte, error) {
	target := net.JoinHostPort(host, strconv.Itoa(port))
	req := "CONNECT " + target + " HTTP/1.1\r\nHost: " + target + "\r\n"
	if username != "" || password != "" {
		req += "Proxy-Authorization: Basic " + base64.StdEncoding.EncodeToString([]byte(username+":"+password)) + "\r\n"
	}
	if _, err := io.WriteString(c, req+"\r\n"); err != nil {
		return nil, fmt.Errorf("upstream: %w", err)
	}
	br := bufio.NewReader(io.LimitReader(c, maxHeaderBytes))
	resp, err := http.ReadResponse(br, &http.Request{Method: http.MethodConnect})
	if err != nil {
		return nil, fmt.Errorf("upstream: %w", err)
	}
	if resp.StatusCode != http.StatusOK {
		resp.Body.Close()
		err := fmt.Errorf("upstream answered %s", resp.Status)
		if resp.StatusCode == http.StatusProxyAuthRequired || resp.StatusCode == http.StatusUnauthorized {
			return nil, err // the upstream itself refuses us
		}
		return nil, &dialError{err} // it could not reach the target
	}
	pending := make([]byte, br.Buffered())
	_, _ = io.ReadFull(br, pending)
	return pending, nil
}

// socksClientConnect does an RFC 1928/1929 CONNECT to host:port through a SOCKS5 upstream.
func socksClientConnect(c *net.TCPConn, username, password, host string, port int) error {
	if err := socksClientSignIn(c, username, password); err != nil {
		return err
	}
	req := []byte{5, 1, 0}
	if a, err := netip.ParseAddr(host); err == nil && a.Is4() {
		req = append(append(req, 1), a.AsSlice()...)
	} else if err == nil {
		req = append(append(req, 4), a.AsSlice()...)
	} else {
		if len(host) > 255 {
			return errors.New("target name too long for SOCKS5")
		}
		req = append(append(req, 3, byte(len(host))), host...)
	}
	req = append(req, byte(port>>8), byte(port))
	if _, err := c.Write(req); err != nil {
		return fmt.Errorf("upstream: %w", err)
	}
	head := make([]byte, 4)
	if _, err := io.ReadFull(c, head); err != nil {
		return fmt.Errorf("upstream: %w", err)
	}
	if head[1] != 0 {
		return &dialError{fmt.Errorf("upstream could not connect to the target (SOCKS5 reply %d)", head[1])}
	}
	skip := 0
	switch head[3] {
	case 1:
		skip = 4
	case 4:
		skip = 16
	case 3:
		n := make([]byte, 1)
		if _, err := io.ReadFull(c, n); err != nil {
			return fmt.Errorf("upstream: %w", err)
		}
		skip = int(n[0])
	default:
		return errors.New("upstream sent a malformed SOCKS5 reply")
	}
	_, err := io.ReadFull(c, make([]byte, skip+2))
	return err
}

// socksClientSignIn does an RFC 1928 greeting and, with credentials, the RFC 1929 sign-in.
func socksClientSignIn(c *net.TCPConn, username, password string) error {
	method := byte(0x00)
	if username != "" || password != "" {
		method = 0x02
	}
	if _, err := c.Write([]byte{5, 1, method}); err != nil {
		return fmt.Errorf("upstream: %w", err)
	}
	reply := make([]byte, 2)
	if _, err := io.ReadFull(c, reply); err != nil {
		return fmt.Errorf("upstream: %w", err)
	}
	if reply[0] != 5 || reply[1] != method {
		return errors.New("upstream refused the SOCKS5 authentication method")
	}
	if method == 0x02 {
		if len(username) > 255 || len(password) > 255 {
			return errors.New("upstream credentials are too long for SOCKS5")
		}
		msg := append([]byte{1, byte(len(username))}, username...)
		msg = append(append(msg, byte(len(password))), password...)
		if _, err := c.Write(msg); err != nil {
			return fmt.Errorf("upstream: %w", err)
		}
		if _, err := io.ReadFull(c, reply); err != nil {
			return fmt.Errorf("upstream: %w", err)
		}
		if reply[1] != 0 {
			return errors.New("upstream refused its SOCKS5 username and password")
		}
	}
	return nil
}
