package main

import (
	"crypto/subtle"
	"fmt"
	"net/http"
	"os"

	"github.com/pocketbase/pocketbase/apis"
	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tools/hook"
)

// Who may say where a request came from (issue #26 finding 6).
//
// PocketBase's RealIP() believes the settings' trustedProxy headers (X-Forwarded-For, set by
// the migration 1764000900_app_settings.js so that its rate limiter, the API keys' IP
// allowlists, the activity log and the audit log see the visitor, not the web server in
// front) from whoever sends them. PocketBase listens on loopback, but on one machine the web
// server, the built-in proxy gateway (whose customers may reach loopback targets when
// GATEWAY_HOST is loopback) and any other local process all connect from 127.0.0.1, so "the
// peer is loopback" does not say "the peer is the web server".
//
// So the process that starts PocketBase (server/pocketbase-process.ts) makes a random secret
// for each start and hands it over in SHOP_FORWARDING_SECRET, in the environment only (never
// on a command line, which ps shows to every user); the web server and its page renderer send
// it in X-Shop-Forwarding-Secret beside every X-Forwarded-For they set. This middleware runs
// before everything that reads the address (PocketBase's CORS, activity logger, superuser IP
// list and rate limiter, and the API key middleware in devapi/keys.go) and:
//   - removes every forwarded header (the trustedProxy ones and the usual others) from a
//     request without the right secret, so RealIP() is its TCP peer;
//   - always removes the secret header, so no hook, log or route ever sees it.
// Without SHOP_FORWARDING_SECRET (PocketBase started by hand) no forwarded header is
// believed at all.

const (
	forwardingSecretEnv    = "SHOP_FORWARDING_SECRET"
	forwardingSecretHeader = "X-Shop-Forwarding-Secret"
	// minForwardingSecretLength: server/pocketbase-process.ts sends 43 characters (32 random
	// bytes, base64url); anything much shorter is a mistake, refused at start.
	minForwardingSecretLength = 32
)

// forwardedMiddlewarePriority: before PocketBase's CORS (-1041) and activity logger (-1040),
// its superuser IP list (-1015) and rate limiter (-1000), and the shop's API keys (-1025)
// and problem details (-1035): none of them ever reads an address the caller made up.
const forwardedMiddlewarePriority = apis.DefaultCorsMiddlewarePriority - 10

// forwardedHeaders are removed from a request without the secret, beside whatever
// settings.trustedProxy.headers names at the time.
var forwardedHeaders = []string{"X-Forwarded-For", "X-Real-IP", "Forwarded", "X-Forwarded-Proto", "X-Forwarded-Host", "X-Forwarded-Port"}

func registerForwardedGuard(se *core.ServeEvent) error {
	secret := os.Getenv(forwardingSecretEnv)
	if secret != "" && len(secret) < minForwardingSecretLength {
		return fmt.Errorf("%s must be at least %d characters (the shop makes a random one for each start; leave it unset when starting PocketBase by hand)", forwardingSecretEnv, minForwardingSecretLength)
	}
	if secret == "" {
		se.App.Logger().Warn(forwardingSecretEnv + " is not set: forwarded client addresses (X-Forwarded-For) are never believed; every request counts as its TCP peer")
	}
	se.Router.Bind(&hook.Handler[*core.RequestEvent]{Id: "shopForwardedGuard", Priority: forwardedMiddlewarePriority, Func: forwardedGuard(secret)})
	return nil
}

// forwardedGuard is the middleware (see the top of this file); secret "" believes nobody.
func forwardedGuard(secret string) func(e *core.RequestEvent) error {
	return func(e *core.RequestEvent) error {
		if !fromWebServer(e.Request.Header, secret) {
			for _, name := range forwardedHeaders {
				e.Request.Header.Del(name)
			}
			for _, name := range e.App.Settings().TrustedProxy.Headers {
				e.Request.Header.Del(name)
			}
		}
		e.Request.Header.Del(forwardingSecretHeader)
		return e.Next()
	}
}

// fromWebServer: the request carries exactly one secret header, equal to the secret
// (compared in constant time).
func fromWebServer(header http.Header, secret string) bool {
	given := header.Values(forwardingSecretHeader)
	if secret == "" || len(given) != 1 {
		return false
	}
	return subtle.ConstantTimeCompare([]byte(given[0]), []byte(secret)) == 1
}
