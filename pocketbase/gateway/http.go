package gateway

import (
	"bufio"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"math"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// maxHeaderBytes bounds a request's head (request line and headers).
const maxHeaderBytes = 32 << 10

// serveHTTP answers one client of the HTTP proxy port: a CONNECT tunnel, or one plain
// HTTP request forwarded with `Connection: close` (a following request on the same
// connection would carry the customer's Proxy-Authorization to the target).
func (g *Gateway) serveHTTP(c net.Conn, h *handshake) { g.serveProxyHTTP(c, h, PortHTTP) }

// serveProxyHTTP answers one client of port p: a TCP connection on the HTTP port, or a
// TLS one on the HTTPS port.
func (g *Gateway) serveProxyHTTP(client net.Conn, h *handshake, p Port) {
	_ = client.SetDeadline(time.Now().Add(g.cfg.AuthTimeout)) // the head holds the credentials
	head := &io.LimitedReader{R: client, N: maxHeaderBytes}
	br := bufio.NewReaderSize(head, 4096)
	req, err := http.ReadRequest(br)
	if err != nil {
		var timeout net.Error
		if head.N <= 0 {
			g.refuseHTTP(client, &refusal{431, 0, "Request header too large."})
		} else if errors.As(err, &timeout) && timeout.Timeout() {
			g.refuseHTTP(client, &refusal{408, 0, "The proxy request did not arrive in time."})
		} else if !errors.Is(err, io.EOF) && !errors.Is(err, io.ErrUnexpectedEOF) {
			g.refuseHTTP(client, &refusal{400, 0, "Malformed proxy request."})
		} else {
			client.Close()
		}
		return
	}
	head.N = math.MaxInt64 // the head is read: a body may be as long as it is
	if req.ProtoMajor != 1 {
		g.refuseHTTP(client, &refusal{505, 0, "Only HTTP/1.x proxy requests are served."})
		return
	}

	username, password, ok := proxyCredentials(req)
	if !ok {
		g.refuseHTTP(client, refusedCredentials)
		return
	}
	grant, opts, refused := g.authorize(username, password, p, clientAddr(client))
	if refused != nil {
		g.refuseHTTP(client, refused)
		return
	}
	h.authenticated()

	release, refused := g.takeConnection(grant)
	if refused != nil {
		g.refuseHTTP(client, refused)
		return
	}
	defer release()
	host, port, refused := httpTarget(req)
	if refused != nil {
		g.refuseHTTP(client, refused)
		return
	}
	target, err := g.dial(grant, opts, host, port)
	if err != nil {
		g.refuseHTTP(client, dialRefusal(host, err))
		return
	}
	_ = client.SetDeadline(time.Time{})
	h.done()

	if req.Method == http.MethodConnect {
		early := make([]byte, br.Buffered()) // sent by the client before our answer
		_, _ = io.ReadFull(br, early)
		g.open(grant, client, target, false, func(toTarget io.Writer) error {
			if _, err := io.WriteString(client, "HTTP/1.1 200 Connection established\r\n\r\n"); err != nil {
				return err
			}
			_, err := toTarget.Write(early)
			return err
		}, func(r *refusal) { g.refuseHTTP(client, r) })
		return
	}
	g.open(grant, client, target, true, func(toTarget io.Writer) error {
		outgoing := req.Clone(req.Context())
		outgoing.Body = req.Body
		outgoing.Header.Del("Proxy-Authorization")
		outgoing.Header.Del("Proxy-Connection")
		outgoing.Close = true
		return outgoing.Write(toTarget)
	}, func(r *refusal) { g.refuseHTTP(client, r) })
}

// proxyCredentials reads Basic Proxy-Authorization.
func proxyCredentials(req *http.Request) (string, string, bool) {
	auth := req.Header.Get("Proxy-Authorization")
	scheme, encoded, found := strings.Cut(auth, " ")
	if !found || !strings.EqualFold(scheme, "Basic") {
		return "", "", false
	}
	decoded, err := base64.StdEncoding.DecodeString(strings.TrimSpace(encoded))
	if err != nil {
		return "", "", false
	}
	username, password, found := strings.Cut(string(decoded), ":")
	return username, password, found
}

// httpTarget is where a proxy request goes: CONNECT's authority, or an absolute http URL.
func httpTarget(req *http.Request) (string, int, *refusal) {
	if req.Method == http.MethodConnect {
		host, portText, err := net.SplitHostPort(req.RequestURI)
		port, perr := strconv.Atoi(portText)
		if err != nil || perr != nil || host == "" || port < 1 || port > 65535 {
			return "", 0, &refusal{400, 0, "CONNECT needs host:port."}
		}
		return host, port, nil
	}
	if !req.URL.IsAbs() || req.URL.Host == "" {
		return "", 0, &refusal{400, 0, "This is a proxy: send an absolute URL (http://host/path) or use CONNECT."}
	}
	if req.URL.Scheme != "http" {
		return "", 0, &refusal{400, 0, "Use CONNECT for " + req.URL.Scheme + " URLs."}
	}
	port := 80
	if p := req.URL.Port(); p != "" {
		n, err := strconv.Atoi(p)
		if err != nil || n < 1 || n > 65535 {
			return "", 0, &refusal{400, 0, "Invalid port in the URL."}
		}
		port = n
	}
	return req.URL.Hostname(), port, nil
}

func dialRefusal(host string, err error) *refusal {
	var de *dialError
	switch {
	case errors.Is(err, errTargetRefused):
		return &refusal{403, 2, "The target address is not allowed through this gateway."}
	case errors.As(err, &de):
		code := byte(5)
		var dnsErr *net.DNSError
		if errors.As(err, &dnsErr) {
			code = 4
		}
		return &refusal{502, code, "Could not connect to " + host + "."}
	default:
		return &refusal{502, 1, "The proxy's upstream could not be reached; try again."}
	}
}

func (g *Gateway) refuseHTTP(client net.Conn, r *refusal) {
	g.meter.refusedClient(r)
	extra := ""
	if r.status == http.StatusProxyAuthRequired {
		extra = "Proxy-Authenticate: Basic realm=\"" + g.cfg.Realm + "\"\r\n"
	}
	body := r.text + "\n"
	_ = client.SetWriteDeadline(time.Now().Add(5 * time.Second))
	fmt.Fprintf(client, "HTTP/1.1 %d %s\r\n%sContent-Type: text/plain; charset=utf-8\r\nContent-Length: %d\r\nConnection: close\r\n\r\n%s",
		r.status, http.StatusText(r.status), extra, len(body), body)
	client.Close()
}
