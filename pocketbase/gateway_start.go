package main

import (
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/pocketbase/pocketbase/core"

	"proxyshop/pocketbase/gateway"
)

// gatewayConfigFromEnv reads the gateway's listeners: GATEWAY_HTTP_PORT,
// GATEWAY_SOCKS_PORT and GATEWAY_HTTPS_PORT (unset or empty: that listener is off) on
// GATEWAY_HOST (default 127.0.0.1). ok is false when all are off. The HTTPS port's
// certificate is gatewayTLS's.
func gatewayConfigFromEnv() (cfg gateway.Config, ok bool, err error) {
	host := strings.TrimSpace(os.Getenv("GATEWAY_HOST"))
	if host == "" {
		host = "127.0.0.1"
	}
	addr := func(name string) (string, error) {
		port := strings.TrimSpace(os.Getenv(name))
		if port == "" {
			return "", nil
		}
		if _, err := netip.ParseAddrPort("127.0.0.1:" + port); err != nil {
			return "", fmt.Errorf("%s must be a port number, not %q", name, port)
		}
		return net.JoinHostPort(host, port), nil
	}
	if cfg.HTTPAddr, err = addr("GATEWAY_HTTP_PORT"); err != nil {
		return cfg, false, err
	}
	if cfg.SOCKSAddr, err = addr("GATEWAY_SOCKS_PORT"); err != nil {
		return cfg, false, err
	}
	if cfg.HTTPSAddr, err = addr("GATEWAY_HTTPS_PORT"); err != nil {
		return cfg, false, err
	}
	cfg.OpenTargets = isLoopbackHost(host)
	// GATEWAY_FLUSH_SECONDS: how often usage is written (1-5; default 5).
	if text := strings.TrimSpace(os.Getenv("GATEWAY_FLUSH_SECONDS")); text != "" {
		seconds, err := strconv.Atoi(text)
		if err != nil || seconds < 1 || seconds > 5 {
			return cfg, false, fmt.Errorf("GATEWAY_FLUSH_SECONDS must be 1 to 5, not %q", text)
		}
		cfg.FlushInterval = time.Duration(seconds) * time.Second
	}
	// GATEWAY_AUTH_FAILURE_LIMIT: failed sign-ins an address may have in a minute before it
	// is refused for the rest of it (default 30; 0 turns the throttle off).
	if text := strings.TrimSpace(os.Getenv("GATEWAY_AUTH_FAILURE_LIMIT")); text != "" {
		limit, err := strconv.Atoi(text)
		if err != nil || limit < 0 {
			return cfg, false, fmt.Errorf("GATEWAY_AUTH_FAILURE_LIMIT must be a whole number (0 = no limit), not %q", text)
		}
		cfg.AuthFailureLimit = limit
		if limit == 0 {
			cfg.AuthFailureLimit = -1
		}
	}
	// GATEWAY_MAX_STALE_SECONDS: without an update from the shop for this long, new
	// connections are refused until it answers again (default 60).
	if text := strings.TrimSpace(os.Getenv("GATEWAY_MAX_STALE_SECONDS")); text != "" {
		seconds, err := strconv.Atoi(text)
		if err != nil || seconds < 5 || seconds > 3600 {
			return cfg, false, fmt.Errorf("GATEWAY_MAX_STALE_SECONDS must be 5 to 3600, not %q", text)
		}
		cfg.MaxStale = time.Duration(seconds) * time.Second
	}
	return cfg, cfg.HTTPAddr != "" || cfg.SOCKSAddr != "" || cfg.HTTPSAddr != "", nil
}

// gatewayTLS gives the HTTPS port (when it is on) its certificate: the files
// GATEWAY_TLS_CERT and GATEWAY_TLS_KEY (PEM), else one the gateway makes for itself in
// dataDir (self-signed, for the host of SHOP_APP_URL, GATEWAY_HOST and localhost; kept
// there and reused). It answers the certificate's SHA-256 fingerprint ("" when off).
func gatewayTLS(cfg *gateway.Config, dataDir string) (string, error) {
	if cfg.HTTPSAddr == "" {
		return "", nil
	}
	certFile, keyFile := strings.TrimSpace(os.Getenv("GATEWAY_TLS_CERT")), strings.TrimSpace(os.Getenv("GATEWAY_TLS_KEY"))
	var cert tls.Certificate
	var err error
	switch {
	case certFile != "" || keyFile != "":
		cert, err = tls.LoadX509KeyPair(certFile, keyFile)
		if err != nil {
			return "", fmt.Errorf("GATEWAY_TLS_CERT and GATEWAY_TLS_KEY must name a PEM certificate and its key: %w", err)
		}
	case dataDir == "":
		return "", errors.New("the HTTPS proxy port needs GATEWAY_TLS_CERT and GATEWAY_TLS_KEY (or --tls-cert and --tls-key)")
	default:
		hosts := []string{}
		if u, perr := url.Parse(os.Getenv("SHOP_APP_URL")); perr == nil && u.Hostname() != "" {
			hosts = append(hosts, u.Hostname())
		}
		if host, _, _ := net.SplitHostPort(cfg.HTTPSAddr); host != "" {
			if a, perr := netip.ParseAddr(host); perr != nil || !a.IsUnspecified() {
				hosts = append(hosts, host)
			}
		}
		if cert, err = gateway.LoadOrCreateCertificate(dataDir, hosts); err != nil {
			return "", fmt.Errorf("cannot make the HTTPS proxy port's certificate in %s: %w", dataDir, err)
		}
	}
	cfg.TLS = gateway.ServerTLS(cert)
	return gateway.Fingerprint(cert), nil
}

func isLoopbackHost(host string) bool {
	if host == "localhost" {
		return true
	}
	a, err := netip.ParseAddr(host)
	return err == nil && a.IsLoopback()
}

// startEmbeddedGateway runs the gateway inside this PocketBase, reading its database.
func startEmbeddedGateway(app core.App) (*gateway.Gateway, error) {
	cfg, ok, err := gatewayConfigFromEnv()
	if err != nil || !ok {
		return nil, err
	}
	cfg.Logger = app.Logger()
	fingerprint, err := gatewayTLS(&cfg, app.DataDir())
	if err != nil {
		return nil, err
	}
	source := &gateway.SQLSource{Read: app.ConcurrentDB(), Write: app.NonconcurrentDB(), Key: os.Getenv("SHOP_CREDENTIALS_KEY"), Logger: app.Logger()}
	gw := gateway.New(cfg, source)
	if err := gw.Start(); err != nil {
		return nil, fmt.Errorf("the proxy gateway cannot start: %w", err)
	}
	for _, a := range gw.Addrs() {
		app.Logger().Info("proxy gateway listening", "address", a.String())
	}
	if fingerprint != "" {
		app.Logger().Info("proxy gateway HTTPS port certificate", "sha256", fingerprint)
	}
	return gw, nil
}
