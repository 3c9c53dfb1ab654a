package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"proxyshop/pocketbase/gateway"
)

// The HTTPS port's certificate (issue #28): made once in the data dir for the embedded
// gateway, read from GATEWAY_TLS_CERT/KEY when set, and required of a standalone gateway.
func TestGatewayTLSCertificate(t *testing.T) {
	t.Setenv("GATEWAY_HOST", "127.0.0.1")
	t.Setenv("GATEWAY_HTTP_PORT", "")
	t.Setenv("GATEWAY_SOCKS_PORT", "")
	t.Setenv("GATEWAY_HTTPS_PORT", "3129")
	t.Setenv("GATEWAY_TLS_CERT", "")
	t.Setenv("GATEWAY_TLS_KEY", "")
	t.Setenv("SHOP_APP_URL", "https://shop.example.com")
	cfg, ok, err := gatewayConfigFromEnv()
	if err != nil || !ok || cfg.HTTPSAddr != "127.0.0.1:3129" {
		t.Fatalf("config: %+v %v %v", cfg, ok, err)
	}
	if _, err := gatewayTLS(&cfg, ""); err == nil || !strings.Contains(err.Error(), "GATEWAY_TLS_CERT") {
		t.Fatalf("a standalone gateway without a certificate: %v", err)
	}
	dir := t.TempDir()
	made, err := gatewayTLS(&cfg, dir)
	if err != nil || cfg.TLS == nil || len(made) != 95 {
		t.Fatalf("self-signed: %q %v", made, err)
	}
	if leaf := cfg.TLS.Certificates[0].Leaf; leaf.VerifyHostname("shop.example.com") != nil || leaf.VerifyHostname("127.0.0.1") != nil {
		t.Fatalf("names: %v %v", leaf.DNSNames, leaf.IPAddresses)
	}
	if again, _ := gatewayTLS(&cfg, dir); again != made {
		t.Fatal("the certificate was made again on the next start")
	}
	t.Setenv("GATEWAY_TLS_CERT", filepath.Join(dir, gateway.SelfSignedCertFile))
	t.Setenv("GATEWAY_TLS_KEY", filepath.Join(dir, gateway.SelfSignedKeyFile))
	if fromFiles, err := gatewayTLS(&cfg, ""); err != nil || fromFiles != made {
		t.Fatalf("from GATEWAY_TLS_CERT/KEY: %q %v", fromFiles, err)
	}
	os.Remove(filepath.Join(dir, gateway.SelfSignedKeyFile))
	if _, err := gatewayTLS(&cfg, ""); err == nil {
		t.Fatal("a missing key file was accepted")
	}
}
