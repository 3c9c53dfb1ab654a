package devapi

import (
	"errors"
	"net/http/httptest"
	"testing"
	"time"
)

func problemCode(err error) string {
	var p *Problem
	if errors.As(err, &p) {
		return p.Code
	}
	if err != nil {
		return "not a problem: " + err.Error()
	}
	return ""
}

func TestBearerAPIKey(t *testing.T) {
	for _, tc := range []struct {
		header, token string
		ok            bool
	}{
		{"Bearer psk_live_abc", "psk_live_abc", true},
		{"  Bearer   psk_live_abc  ", "psk_live_abc", true},
		{"psk_live_abc", "psk_live_abc", true},
		{"Bearer eyJhbGciOi.session", "eyJhbGciOi.session", false},
		{"Bearer gwt_abc", "gwt_abc", false},
		{"", "", false},
	} {
		r := httptest.NewRequest("GET", "/api/v1/account", nil)
		r.Header.Set("Authorization", tc.header)
		if token, ok := bearerAPIKey(r); token != tc.token || ok != tc.ok {
			t.Errorf("%q: (%q, %v), want (%q, %v)", tc.header, token, ok, tc.token, tc.ok)
		}
	}
}

func TestCheckScope(t *testing.T) {
	c := testContract(t, true)
	for _, tc := range []struct {
		name, pattern, scopes, want string
	}{
		{"a key with the route's scope", "GET /api/v1/things", `["read"]`, ""},
		{"a key without it", "POST /api/v1/things", `["read"]`, "insufficient_scope"},
		{"a public route opens to any key", "POST /api/v1/open", `[]`, ""},
		{"a route no document lists", "GET /api/v1/secret", `["read","write"]`, "not_for_api_keys"},
		{"an admin route", "POST /api/admin/notes", `["read","write"]`, "not_for_api_keys"},
		{"no route at all is the 404's", "", `[]`, ""},
		{"the catch-all is the 404's", "GET /{path...}", `[]`, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := httptest.NewRequest("GET", "/api/v1/x", nil)
			if tc.pattern != "" {
				r = request(tc.pattern, "/api/v1/x", "")
			}
			if got := problemCode(checkScope(c, &apiKeyRow{Scopes: tc.scopes}, r)); got != tc.want {
				t.Fatalf("%q, want %q", got, tc.want)
			}
		})
	}
	session := &Contract{ops: map[string]*operation{"GET /api/v1/api-keys": {scope: "session"}}}
	if got := problemCode(checkScope(session, &apiKeyRow{Scopes: `["read"]`}, request("GET /api/v1/api-keys", "/api/v1/api-keys", ""))); got != "session_required" {
		t.Fatalf("a session route: %q", got)
	}
}

func TestCheckAddress(t *testing.T) {
	for _, tc := range []struct {
		allowlist, ip, want string
	}{
		{"", "203.0.113.9", ""},
		{"[]", "203.0.113.9", ""},
		{`["203.0.113.0/24"]`, "203.0.113.9", ""},
		{`["203.0.113.0/24"]`, "::ffff:203.0.113.9", ""},
		{`["203.0.113.9", "2001:db8::/32"]`, "2001:db8::1", ""},
		{`["203.0.113.0/24"]`, "198.51.100.1", "ip_not_allowed"},
		{`["203.0.113.0/24"]`, "not an address", "ip_not_allowed"},
	} {
		if got := problemCode(checkAddress(&apiKeyRow{IPAllowlist: tc.allowlist}, tc.ip)); got != tc.want {
			t.Errorf("%s from %s: %q, want %q", tc.allowlist, tc.ip, got, tc.want)
		}
	}
}

func TestLiveKey(t *testing.T) {
	now := time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		name string
		key  apiKeyRow
		want string
	}{
		{"a key without end", apiKeyRow{}, ""},
		{"a key before it expires", apiKeyRow{ExpiresAt: "2026-11-28 12:00:01.000Z"}, ""},
		{"an expired key", apiKeyRow{ExpiresAt: "2026-11-28 12:00:00.000Z"}, "api_key_expired"},
		{"a revoked key", apiKeyRow{RevokedAt: "2026-11-01 08:00:00.000Z"}, "api_key_revoked"},
	} {
		if got := problemCode(liveKey(&tc.key, now)); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
	var p *Problem
	if errors.As(liveKey(&apiKeyRow{RevokedAt: "2026-11-01 08:00:00.000Z"}, now), &p) && p.Detail != "This API key was revoked on 2026-11-01. Create a new one in Settings → API Access." {
		t.Errorf("revoked detail %q", p.Detail)
	}
}
