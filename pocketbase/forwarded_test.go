package main

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/pocketbase/pocketbase/core"
)

const testForwardingSecret = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFG"

// forwardedRequest runs forwardedGuard(secret) over a request from 127.0.0.1 with `headers`
// and answers what the next handler saw: RealIP() and the headers left.
func forwardedRequest(t *testing.T, app core.App, secret string, headers map[string][]string) (string, http.Header) {
	t.Helper()
	e := &core.RequestEvent{App: app}
	e.Request = httptest.NewRequest("GET", "/api/ip", nil)
	e.Request.RemoteAddr = "127.0.0.1:54321"
	for name, values := range headers {
		for _, v := range values {
			e.Request.Header.Add(name, v)
		}
	}
	e.Response = httptest.NewRecorder()
	if err := forwardedGuard(secret)(e); err != nil {
		t.Fatal(err)
	}
	return e.RealIP(), e.Request.Header
}

func TestForwardedGuard(t *testing.T) {
	app, _ := newDataDir(t)
	app.Settings().TrustedProxy.Headers = []string{"X-Forwarded-For", "CF-Connecting-IP"}

	cases := []struct {
		name    string
		secret  string
		headers map[string][]string
		ip      string
	}{
		{"finding 6: a forged X-Forwarded-For without the secret is not believed", testForwardingSecret,
			map[string][]string{"X-Forwarded-For": {"203.0.113.7"}}, "127.0.0.1"},
		{"finding 6: a wrong secret is not believed", testForwardingSecret,
			map[string][]string{"X-Forwarded-For": {"203.0.113.7"}, forwardingSecretHeader: {testForwardingSecret[:42] + "H"}}, "127.0.0.1"},
		{"finding 6: a prefix of the secret is not believed", testForwardingSecret,
			map[string][]string{"X-Forwarded-For": {"203.0.113.7"}, forwardingSecretHeader: {testForwardingSecret[:20]}}, "127.0.0.1"},
		{"finding 6: two secret headers are not believed", testForwardingSecret,
			map[string][]string{"X-Forwarded-For": {"203.0.113.7"}, forwardingSecretHeader: {"nonsense", testForwardingSecret}}, "127.0.0.1"},
		{"finding 6: another header the settings trust is removed too", testForwardingSecret,
			map[string][]string{"CF-Connecting-IP": {"203.0.113.7"}}, "127.0.0.1"},
		{"finding 6: without a secret configured nothing is believed, even an empty secret header", "",
			map[string][]string{"X-Forwarded-For": {"203.0.113.7"}, forwardingSecretHeader: {""}}, "127.0.0.1"},
		{"the web server's secret makes its X-Forwarded-For believed", testForwardingSecret,
			map[string][]string{"X-Forwarded-For": {"203.0.113.7"}, forwardingSecretHeader: {testForwardingSecret}}, "203.0.113.7"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ip, left := forwardedRequest(t, app, c.secret, c.headers)
			if ip != c.ip {
				t.Errorf("RealIP() = %q, want %q", ip, c.ip)
			}
			if len(left.Values(forwardingSecretHeader)) > 0 {
				t.Errorf("the secret header reached the next handler: %v", left)
			}
			if c.ip == "127.0.0.1" {
				for _, name := range append(forwardedHeaders, "CF-Connecting-IP") {
					if len(left.Values(name)) > 0 {
						t.Errorf("%s reached the next handler: %v", name, left)
					}
				}
			}
		})
	}
}
