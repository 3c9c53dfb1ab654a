package gateway

import (
	"crypto/tls"
	"crypto/x509"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// startTLSGateway is a gateway with its three ports, its certificate self-signed in dir.
func startTLSGateway(t *testing.T, src Source, dir string) (*Gateway, *x509.CertPool) {
	t.Helper()
	cert, err := LoadOrCreateCertificate(dir, []string{"127.0.0.1"})
	if err != nil {
		t.Fatal(err)
	}
	g := New(Config{HTTPAddr: "127.0.0.1:0", SOCKSAddr: "127.0.0.1:0", HTTPSAddr: "127.0.0.1:0", TLS: ServerTLS(cert),
		OpenTargets: true, PollInterval: 20 * time.Millisecond}, src)
	if err := g.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(g.Close)
	roots := x509.NewCertPool()
	roots.AddCert(cert.Leaf)
	return g, roots
}

func (g *Gateway) httpsAddr() string { return g.listeners[2].Addr().String() }

func TestHTTPSProxyPortServesConnectAndPlainHTTPInsideTLS(t *testing.T) {
	echo := startEcho(t, "echo")
	g, roots := startTLSGateway(t, NewStaticSource(assigned("h", "HTTPS")), t.TempDir())

	c, err := tls.Dial("tcp", g.httpsAddr(), &tls.Config{RootCAs: roots}) // verified: SAN 127.0.0.1
	if err != nil {
		t.Fatal(err)
	}
	status, tunnel, err := connectOver(c, "user-h", "pass-h", echo.addr)
	if err != nil || status != 200 {
		t.Fatalf("CONNECT through TLS: %d %v", status, err)
	}
	defer tunnel.Close()
	roundTrip(t, tunnel, "inside TLS, through CONNECT")

	proxy := &url.URL{Scheme: "https", User: url.UserPassword("user-h", "pass-h"), Host: g.httpsAddr()}
	client := &http.Client{Timeout: 5 * time.Second, Transport: &http.Transport{Proxy: http.ProxyURL(proxy),
		TLSClientConfig: &tls.Config{RootCAs: roots}, DisableKeepAlives: true}}
	resp, err := client.Get("http://" + echo.addr + "/plain")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || string(body) != "echo /plain auth=" {
		t.Fatalf("plain HTTP through TLS: %d %q", resp.StatusCode, body)
	}
	if u := g.Meter().Peek("h"); u.Connections != 2 || u.BytesUp == 0 || u.BytesDown == 0 {
		t.Fatalf("meter: %+v", u)
	}
}

func TestHTTPSProxyPortWorksWithCurl(t *testing.T) {
	curl, err := exec.LookPath("curl")
	if err != nil {
		t.Skip("no curl on this machine")
	}
	echo := startEcho(t, "echo")
	dir := t.TempDir()
	g, _ := startTLSGateway(t, NewStaticSource(assigned("h", "HTTPS")), dir)
	proxy := "https://user-h:pass-h@" + g.httpsAddr()
	for _, args := range [][]string{
		{"--proxy-cacert", filepath.Join(dir, SelfSignedCertFile)},
		{"--proxy-insecure", "--proxytunnel"}, // CONNECT inside TLS
	} {
		cmd := exec.Command(curl, append([]string{"-sS", "--max-time", "5", "--proxy", proxy}, append(args, "http://"+echo.addr+"/curl")...)...)
		out, err := cmd.CombinedOutput()
		if err != nil || !strings.HasPrefix(string(out), "echo /curl") {
			t.Fatalf("curl %v: %v %q", args, err, out)
		}
	}
}

func TestBadTLSHandshakesLeakNoGoroutine(t *testing.T) {
	g, _ := startTLSGateway(t, NewStaticSource(assigned("h", "HTTPS")), t.TempDir())
	before := runtime.NumGoroutine()
	for _, junk := range []string{"GET http://example.com/ HTTP/1.1\r\n\r\n", "\x16\x03\x01\x00\x05hello", ""} {
		c, err := net.Dial("tcp", g.httpsAddr())
		if err != nil {
			t.Fatal(err)
		}
		c.Write([]byte(junk))
		if junk == "" {
			c.Close() // gone before its handshake
			continue
		}
		waitClosed(t, c, 3*time.Second)
		c.Close()
	}
	// A client that distrusts the certificate gives up in its handshake.
	if _, err := tls.Dial("tcp", g.httpsAddr(), &tls.Config{ServerName: "127.0.0.1"}); err == nil {
		t.Fatal("a self-signed certificate was trusted without its CA")
	}
	for deadline := time.Now().Add(3 * time.Second); runtime.NumGoroutine() > before; {
		if time.Now().After(deadline) {
			t.Fatalf("%d goroutines after bad handshakes, %d before", runtime.NumGoroutine(), before)
		}
		time.Sleep(2 * time.Millisecond)
	}
	if n := len(g.handshakes); n != 0 {
		t.Fatalf("%d handshake slots still held", n)
	}
}

func TestSelfSignedCertificateIsMadeOnceAndKept(t *testing.T) {
	dir := t.TempDir()
	first, err := LoadOrCreateCertificate(dir, []string{"gw.example.com"})
	if err != nil {
		t.Fatal(err)
	}
	leaf := first.Leaf
	if leaf.PublicKeyAlgorithm != x509.ECDSA || leaf.VerifyHostname("gw.example.com") != nil || leaf.VerifyHostname("localhost") != nil {
		t.Fatalf("certificate: %v %v", leaf.PublicKeyAlgorithm, leaf.DNSNames)
	}
	info, _ := os.Stat(filepath.Join(dir, SelfSignedKeyFile))
	if info.Mode().Perm() != 0o600 {
		t.Fatalf("key file mode %v", info.Mode().Perm())
	}
	again, err := LoadOrCreateCertificate(dir, []string{"gw.example.com"})
	if err != nil || Fingerprint(again) != Fingerprint(first) || len(Fingerprint(first)) != 95 {
		t.Fatalf("made again on the second start: %s %s %v", Fingerprint(first), Fingerprint(again), err)
	}
	moved, err := LoadOrCreateCertificate(dir, []string{"203.0.113.9"})
	if err != nil || Fingerprint(moved) == Fingerprint(first) || moved.Leaf.VerifyHostname("203.0.113.9") != nil {
		t.Fatalf("a new host name kept the old certificate: %v", err)
	}
}

func TestHTTPSPortServesTheTypesThatHaveIt(t *testing.T) {
	echo := startEcho(t, "echo")
	g, roots := startTLSGateway(t, NewStaticSource(assigned("h", "HTTP"), assigned("s", "SOCKS5"), assigned("dc", "DATACENTER")), t.TempDir())
	for user, want := range map[string]int{"h": 407, "s": 407, "dc": 200} {
		proxy := &url.URL{Scheme: "https", User: url.UserPassword("user-"+user, "pass-"+user), Host: g.httpsAddr()}
		client := &http.Client{Timeout: 5 * time.Second, Transport: &http.Transport{Proxy: http.ProxyURL(proxy),
			TLSClientConfig: &tls.Config{RootCAs: roots}, DisableKeepAlives: true}}
		resp, err := client.Get("http://" + echo.addr + "/")
		if err != nil || resp.StatusCode != want {
			t.Fatalf("%s on the HTTPS port: %v %v, want %d", user, resp, err, want)
		}
		resp.Body.Close()
	}
}
