package devapi

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/netip"
	"slices"
	"strings"

	"proxyshop/pocketbase/gateway"
)

// apiKeyPrefix marks the shop's API keys, so leaked ones are recognisable.
const apiKeyPrefix = "psk_"

// bearerAPIKey is the API key a request carries (Authorization: Bearer psk_…), and
// whether it carries one (a session token is PocketBase's to read).
func bearerAPIKey(r *http.Request) (string, bool) {
	token := strings.TrimSpace(r.Header.Get("Authorization"))
	if t, ok := strings.CutPrefix(token, "Bearer "); ok {
		token = strings.TrimSpace(t)
	}
	return token, strings.HasPrefix(token, apiKeyPrefix)
}

// checkAddress refuses a request from outside the key's IP allowlist (none: anywhere).
func checkAddress(key *apiKeyRow, ip string) error {
	var entries []string
	if key.IPAllowlist == "" || json.Unmarshal([]byte(key.IPAllowlist), &entries) != nil || len(entries) == 0 {
		return nil
	}
	addr, err := netip.ParseAddr(ip)
	if err == nil {
		addr = addr.Unmap()
		prefixes, _ := gateway.ParsePrefixes(strings.Join(entries, " "))
		for _, p := range prefixes {
			if p.Contains(addr) {
				return nil
			}
		}
	}
	return NewProblem(http.StatusForbidden, "ip_not_allowed",
		fmt.Sprintf("This API key may not be used from %s: the address is not on the key's IP allowlist.", ip))
}

// checkScope refuses a route the key's scopes do not open (the document's x-scope).
func checkScope(contract *Contract, key *apiKeyRow, r *http.Request) error {
	scope, known := contract.Scope(patternOf(r))
	if !known && (r.Pattern == "" || strings.Contains(r.Pattern, "{path...}")) {
		return nil // no such route: the answer is a 404
	}
	switch {
	case !known:
		// Not a route of the developer API (or none at all): a key opens nothing else.
		return NewProblem(http.StatusForbidden, "not_for_api_keys", "This route is not part of the developer API, so an API key cannot call it.")
	case scope == "public":
		return nil
	case scope == "session":
		return NewProblem(http.StatusForbidden, "session_required",
			"API keys cannot do this: sign in to the dashboard (Settings → API Access) to manage keys.")
	}
	if slices.Contains(scopesOf(key), scope) {
		return nil
	}
	return NewProblem(http.StatusForbidden, "insufficient_scope",
		fmt.Sprintf("This API key lacks the %q scope that this route needs. Create a key with that scope in Settings → API Access.", scope))
}
