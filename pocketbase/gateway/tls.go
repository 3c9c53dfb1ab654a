// The HTTPS proxy port: TLS between the client and the gateway, then the HTTP port's
// handling (absolute-form requests and CONNECT) inside. Its certificate is a file pair
// in production, or one the gateway makes for itself (LoadOrCreateCertificate).

package gateway

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"fmt"
	"io"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// serveHTTPS answers one client of the HTTPS proxy port: the TLS handshake within
// AuthTimeout, then the HTTP proxy port's handling over the TLS connection.
func (g *Gateway) serveHTTPS(c net.Conn, h *handshake) {
	_ = c.SetDeadline(time.Now().Add(g.cfg.AuthTimeout))
	conn := tls.Server(c, g.cfg.TLS)
	if err := conn.HandshakeContext(g.ctx); err != nil {
		c.Close()
		return
	}
	g.serveProxyHTTP(conn, h, PortHTTPS)
}

// relayStream is relay for a client that is not a TCP connection (TLS): the same budget
// and meter, copied through user space (no splice) in chunks taken from the budget.
func relayStream(client net.Conn, target *net.TCPConn, b *budget, up, down func(int64)) error {
	return relayBoth(client, target,
		func() error { return pumpStream(target, client, b, up) },
		func() error { return pumpStream(client, target, b, down) })
}

// pumpStream moves src to dst until src ends (nil) or either fails, each chunk taken
// from the budget first (errBudgetSpent when it has no byte left).
func pumpStream(dst io.Writer, src io.Reader, b *budget, add func(int64)) error {
	buf := make([]byte, 32<<10)
	for {
		n, err := src.Read(buf)
		if n > 0 {
			allowed := b.take(int64(n))
			written, werr := dst.Write(buf[:allowed])
			b.giveBack(allowed - int64(written))
			add(int64(written))
			if werr != nil {
				return werr
			}
			if allowed < int64(n) {
				return errBudgetSpent
			}
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// Certificate files the gateway makes for itself in a data directory.
const (
	SelfSignedCertFile = "gateway-tls-cert.pem"
	SelfSignedKeyFile  = "gateway-tls-key.pem"
)

// LoadOrCreateCertificate answers the self-signed certificate kept in dir, made on first
// use (ECDSA P-256, ten years, SAN = hosts and localhost) and made again only when it no
// longer loads, has expired or does not name every host.
func LoadOrCreateCertificate(dir string, hosts []string) (tls.Certificate, error) {
	certPath, keyPath := filepath.Join(dir, SelfSignedCertFile), filepath.Join(dir, SelfSignedKeyFile)
	names := append([]string{"localhost"}, hosts...)
	if cert, err := tls.LoadX509KeyPair(certPath, keyPath); err == nil && covers(cert.Leaf, names) {
		return cert, nil
	}
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return tls.Certificate{}, err
	}
	serial, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 127))
	if err != nil {
		return tls.Certificate{}, err
	}
	tmpl := &x509.Certificate{
		SerialNumber: serial,
		Subject:      pkix.Name{CommonName: names[len(names)-1], Organization: []string{"Proxy shop gateway (self-signed)"}},
		NotBefore:    time.Now().Add(-time.Hour),
		NotAfter:     time.Now().AddDate(10, 0, 0),
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	for _, name := range names {
		if ip := net.ParseIP(strings.Trim(name, "[]")); ip != nil {
			tmpl.IPAddresses = append(tmpl.IPAddresses, ip)
		} else if name != "" {
			tmpl.DNSNames = append(tmpl.DNSNames, name)
		}
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return tls.Certificate{}, err
	}
	keyDER, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		return tls.Certificate{}, err
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return tls.Certificate{}, err
	}
	if err := os.WriteFile(keyPath, pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: keyDER}), 0o600); err != nil {
		return tls.Certificate{}, err
	}
	if err := os.WriteFile(certPath, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o644); err != nil {
		return tls.Certificate{}, err
	}
	return tls.LoadX509KeyPair(certPath, keyPath)
}

// covers: the certificate is valid now and names every one of names.
func covers(leaf *x509.Certificate, names []string) bool {
	if leaf == nil || time.Now().After(leaf.NotAfter) {
		return false
	}
	for _, name := range names {
		if name != "" && leaf.VerifyHostname(strings.Trim(name, "[]")) != nil {
			return false
		}
	}
	return true
}

// Fingerprint is the SHA-256 of a certificate's leaf, as `openssl x509 -fingerprint
// -sha256` prints it (AB:CD:...).
func Fingerprint(cert tls.Certificate) string {
	if len(cert.Certificate) == 0 {
		return ""
	}
	sum := sha256.Sum256(cert.Certificate[0])
	parts := make([]string, len(sum))
	for i, b := range sum {
		parts[i] = fmt.Sprintf("%02X", b)
	}
	return strings.Join(parts, ":")
}

// ServerTLS is the gateway's TLS configuration for a certificate (TLS 1.2 and later).
func ServerTLS(cert tls.Certificate) *tls.Config {
	return &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}
}
