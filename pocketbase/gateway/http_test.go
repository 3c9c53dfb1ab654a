package gateway

import (
	"bufio"
	"encoding/base64"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"
)

// viaHTTP fetches http://target/path through the gateway's HTTP port (plain forwarding).
func viaHTTP(gw string, user, pass, target, path string) (int, string, error) {
	proxy := &url.URL{Scheme: "http", User: url.UserPassword(user, pass), Host: gw}
	client := &http.Client{Transport: &http.Transport{Proxy: http.ProxyURL(proxy), DisableKeepAlives: true}, Timeout: 5 * time.Second}
	res, err := client.Get("http://" + target + path)
	if err != nil {
		return 0, "", err
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(body), nil
}

// connectTunnel opens a CONNECT tunnel and answers the status and the connection.
func connectTunnel(gw, user, pass, target string) (int, net.Conn, error) {
	c, err := net.Dial("tcp", gw)
	if err != nil {
		return 0, nil, err
	}
	return connectOver(c, user, pass, target)
}

// connectOver sends CONNECT on an open connection (TCP, or TLS to the HTTPS port).
func connectOver(c net.Conn, user, pass, target string) (int, net.Conn, error) {
	auth := base64.StdEncoding.EncodeToString([]byte(user + ":" + pass))
	fmt.Fprintf(c, "CONNECT %s HTTP/1.1\r\nHost: %s\r\nProxy-Authorization: Basic %s\r\n\r\n", target, target, auth)
	br := bufio.NewReader(c)
	res, err := http.ReadResponse(br, &http.Request{Method: http.MethodConnect})
	if err != nil {
		c.Close()
		return 0, nil, err
	}
	if res.StatusCode != 200 {
		c.Close()
		return res.StatusCode, nil, nil
	}
	return 200, &readerConn{Conn: c, r: br}, nil
}

// readerConn reads through the buffer that read the CONNECT answer (it may hold the
// tunnel's first bytes already).
type readerConn struct {
	net.Conn
	r io.Reader
}

func (c *readerConn) Read(p []byte) (int, error) { return c.r.Read(p) }

func TestMalformedHandshakesAreAnsweredAndClosed(t *testing.T) {
	g := startGateway(t, NewStaticSource(assigned("dc", "DATACENTER")), true)
	for _, junk := range []string{"\x16\x03\x01garbage\r\n\r\n", "GET / HTTP/1.1\r\nHost: x\r\n\r\n", "CONNECT nohost HTTP/1.1\r\n\r\n"} {
		c, _ := net.Dial("tcp", g.httpAddr())
		c.Write([]byte(junk))
		_ = c.SetReadDeadline(time.Now().Add(2 * time.Second))
		out, _ := io.ReadAll(c)
		if !strings.HasPrefix(string(out), "HTTP/1.1 4") {
			t.Errorf("%q answered %q", junk, out)
		}
		c.Close()
	}
	big := "GET http://example.com/ HTTP/1.1\r\nX: " + strings.Repeat("a", 40<<10) + "\r\n\r\n"
	c, _ := net.Dial("tcp", g.httpAddr())
	c.Write([]byte(big))
	_ = c.SetReadDeadline(time.Now().Add(2 * time.Second))
	out, _ := io.ReadAll(c)
	if !strings.HasPrefix(string(out), "HTTP/1.1 431") {
		t.Errorf("oversized header answered %q", out)
	}
	c.Close()
}
