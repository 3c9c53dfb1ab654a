package webhooks

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"proxyshop/pocketbase/gateway"
)

func TestDialerRefusesPrivateAddressesUnlessOpen(t *testing.T) {
	closed := GuardControl(gateway.NewGuard(false))
	open := GuardControl(gateway.NewGuard(true))
	for _, address := range []string{"127.0.0.1:80", "10.1.2.3:443", "169.254.169.254:80", "192.168.1.1:443", "[::1]:443", "[fd00:ec2::254]:80", "[::ffff:127.0.0.1]:80", "[fe80::1%lo]:80",
		// #26 finding 9: IPv6 forms carrying a blocked IPv4 address (NAT64, 6to4, IPv4-compatible)
		"[64:ff9b::7f00:1]:80", "[2002:a9fe:a9fe::1]:80", "[::10.1.2.3]:443"} {
		err := closed("tcp", address, nil)
		var refused *RefusedAddressError
		if !errors.As(err, &refused) {
			t.Errorf("closed guard dialled %s (err %v)", address, err)
		}
		if err := open("tcp", address, nil); err != nil {
			t.Errorf("open guard refused %s: %v", address, err)
		}
	}
	if err := closed("tcp", "93.184.215.14:443", nil); err != nil {
		t.Errorf("a public address was refused: %v", err)
	}

	// Through the client: nothing reaches a loopback server, and the error says why.
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { hits.Add(1) }))
	defer srv.Close()
	_, err := NewClient(gateway.NewGuard(false), 2*time.Second).Post(srv.URL, "application/json", strings.NewReader("{}"))
	var refused *RefusedAddressError
	if !errors.As(err, &refused) || refused.Addr.String() != "127.0.0.1" {
		t.Fatalf("closed client: %v", err)
	}
	// A name resolving to loopback is refused too (the check runs on the dialled address).
	port := srv.URL[strings.LastIndex(srv.URL, ":")+1:]
	if _, err := NewClient(gateway.NewGuard(false), 2*time.Second).Post("http://localhost:"+port, "application/json", strings.NewReader("{}")); !errors.As(err, &refused) {
		t.Fatalf("closed client reached localhost: %v", err)
	}
	if hits.Load() != 0 {
		t.Fatalf("the closed client sent %d requests", hits.Load())
	}
	resp, err := NewClient(gateway.NewGuard(true), 2*time.Second).Post(srv.URL, "application/json", strings.NewReader("{}"))
	if err != nil {
		t.Fatalf("open client: %v", err)
	}
	resp.Body.Close()
	if hits.Load() != 1 {
		t.Fatalf("the open client sent %d requests", hits.Load())
	}
}
