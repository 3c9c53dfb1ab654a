package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/netip"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/pocketbase/dbx"
	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tools/hook"

	"proxyshop/pocketbase/gateway"
)

// API keys for the developer API (issue #18). A request to /api/v1 with
// `Authorization: Bearer psk_live_…` is the key's owner, within the key: it must be known,
// not revoked or expired, come from its IP allowlist, stay under its rate limit and call a
// route its scopes open (the scope of each route is the OpenAPI document's x-scope). A hook
// reads the key as e.get("api_key") to hold purchases to its spend cap. Session tokens are
// left to PocketBase.

// apiKeyPrefix marks the shop's API keys, so leaked ones are recognisable.
const apiKeyPrefix = "psk_"

// apiKeyMiddlewarePriority: before PocketBase loads a session token (-1020, which leaves an
// auth already set alone) and before its rate limiter (-1000).
const apiKeyMiddlewarePriority = -1025

// defaultAPIKeyRequestsPerMinute applies unless API_KEY_RATE_LIMIT says otherwise.
const defaultAPIKeyRequestsPerMinute = 300

type apiKeyRow struct {
	ID            string `db:"id"`
	User          string `db:"user"`
	Name          string `db:"name"`
	Scopes        string `db:"scopes"`
	ExpiresAt     string `db:"expires_at"`
	IPAllowlist   string `db:"ip_allowlist"`
	SpendCapCents int64  `db:"spend_cap_cents"`
	RevokedAt     string `db:"revoked_at"`
}

type developerAPI struct {
	scopes    map[string]string // "GET /api/v1/proxies/{id}" -> "read"
	perMinute int
	limiter   *keyLimiter
	mu        sync.Mutex
	touched   map[string]time.Time // key id -> last_used_at written
}

func registerDeveloperAPI(se *core.ServeEvent, hooksDir string) {
	if hooksDir == "" {
		hooksDir = filepath.Join(se.App.DataDir(), "../pb_hooks")
	}
	scopes, err := loadRouteScopes(filepath.Join(hooksDir, "lib/api/openapi.json"))
	if err != nil {
		se.App.Logger().Error("developer API: no route scopes, API keys open nothing", "error", err.Error())
	}
	perMinute := defaultAPIKeyRequestsPerMinute
	if n, err := strconv.Atoi(os.Getenv("API_KEY_RATE_LIMIT")); err == nil && n > 0 {
		perMinute = n
	}
	api := &developerAPI{scopes: scopes, perMinute: perMinute, limiter: newKeyLimiter(perMinute, time.Minute), touched: map[string]time.Time{}}
	se.Router.Bind(problemDetails())
	se.Router.Bind(&hook.Handler[*core.RequestEvent]{Id: "shopApiKeys", Priority: apiKeyMiddlewarePriority, Func: api.authenticate})
}

// loadRouteScopes reads each operation's x-scope from the OpenAPI document.
func loadRouteScopes(file string) (map[string]string, error) {
	raw, err := os.ReadFile(file)
	if err != nil {
		return map[string]string{}, err
	}
	var doc struct {
		Paths map[string]map[string]struct {
			Scope string `json:"x-scope"`
		} `json:"paths"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		return map[string]string{}, err
	}
	scopes := map[string]string{}
	for path, ops := range doc.Paths {
		for method, op := range ops {
			scopes[strings.ToUpper(method)+" "+path] = op.Scope
		}
	}
	return scopes, nil
}

func bearerAPIKey(r *http.Request) (string, bool) {
	token := strings.TrimSpace(r.Header.Get("Authorization"))
	if t, ok := strings.CutPrefix(token, "Bearer "); ok {
		token = strings.TrimSpace(t)
	}
	return token, strings.HasPrefix(token, apiKeyPrefix)
}

func (api *developerAPI) authenticate(e *core.RequestEvent) error {
	if !isDeveloperAPI(e.Request.URL.Path) {
		return e.Next()
	}
	e.Set("api_key_rate_limit", api.perMinute) // GET /api/v1/account tells it
	token, ok := bearerAPIKey(e.Request)
	if !ok {
		return e.Next()
	}
	key, err := api.findKey(e.App, token)
	if err != nil {
		return err
	}
	if !api.limit(e, key.ID) {
		return newProblem(http.StatusTooManyRequests, "rate_limited",
			fmt.Sprintf("Too many requests for this API key: at most %d a minute. Wait %s seconds and try again.", api.perMinute, e.Response.Header().Get("Retry-After")))
	}
	if err := api.checkAddress(key, e.RealIP()); err != nil {
		return err
	}
	if err := api.checkScope(key, e.Request); err != nil {
		return err
	}
	user, err := e.App.FindRecordById("users", key.User)
	if err != nil {
		return newProblem(http.StatusUnauthorized, "invalid_api_key", "This API key's account no longer exists.")
	}
	if user.GetBool("suspended") {
		return newProblem(http.StatusForbidden, "account_suspended", "This account is suspended. Contact support.")
	}
	e.Auth = user
	var scopes []string
	_ = json.Unmarshal([]byte(key.Scopes), &scopes)
	e.Set("api_key", map[string]any{"id": key.ID, "name": key.Name, "scopes": scopes, "spend_cap_cents": key.SpendCapCents})
	api.touch(e.App, key.ID, e.RealIP())
	return e.Next()
}

func (api *developerAPI) findKey(app core.App, token string) (*apiKeyRow, error) {
	key := &apiKeyRow{}
	err := app.ConcurrentDB().
		NewQuery(`SELECT id, user, name, COALESCE(scopes, '[]') AS scopes, COALESCE(expires_at, '') AS expires_at,
			COALESCE(ip_allowlist, '[]') AS ip_allowlist, COALESCE(spend_cap_cents, 0) AS spend_cap_cents, COALESCE(revoked_at, '') AS revoked_at
			FROM api_keys WHERE key_hash = {:hash}`).
		Bind(dbx.Params{"hash": hashToken(token)}).One(key)
	if err != nil {
		return nil, newProblem(http.StatusUnauthorized, "invalid_api_key",
			"This API key is not valid: check that it was copied whole, or create a new one in Settings → API Access.")
	}
	if key.RevokedAt != "" {
		return nil, newProblem(http.StatusUnauthorized, "api_key_revoked",
			fmt.Sprintf("This API key was revoked on %s. Create a new one in Settings → API Access.", dayOf(key.RevokedAt)))
	}
	if key.ExpiresAt != "" {
		if expires, err := time.Parse("2006-01-02 15:04:05.000Z", key.ExpiresAt); err == nil && !time.Now().Before(expires) {
			return nil, newProblem(http.StatusUnauthorized, "api_key_expired",
				fmt.Sprintf("This API key expired on %s. Create a new one in Settings → API Access.", dayOf(key.ExpiresAt)))
		}
	}
	return key, nil
}

func dayOf(stored string) string {
	if len(stored) >= 10 {
		return stored[:10]
	}
	return stored
}

func (api *developerAPI) checkAddress(key *apiKeyRow, ip string) error {
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
	return newProblem(http.StatusForbidden, "ip_not_allowed",
		fmt.Sprintf("This API key may not be used from %s: the address is not on the key's IP allowlist.", ip))
}

func (api *developerAPI) checkScope(key *apiKeyRow, r *http.Request) error {
	pattern := r.Pattern
	if i := strings.IndexByte(pattern, ' '); i >= 0 {
		pattern = r.Method + pattern[i:]
	}
	scope, known := api.scopes[pattern]
	if !known && (r.Pattern == "" || strings.Contains(r.Pattern, "{path...}")) {
		return nil // no such route: the answer is a 404
	}
	switch {
	case !known:
		// Not a route of the developer API (or none at all): a key opens nothing else.
		return newProblem(http.StatusForbidden, "not_for_api_keys", "This route is not part of the developer API, so an API key cannot call it.")
	case scope == "public":
		return nil
	case scope == "session":
		return newProblem(http.StatusForbidden, "session_required",
			"API keys cannot do this: sign in to the dashboard (Settings → API Access) to manage keys.")
	}
	var scopes []string
	_ = json.Unmarshal([]byte(key.Scopes), &scopes)
	for _, s := range scopes {
		if s == scope {
			return nil
		}
	}
	return newProblem(http.StatusForbidden, "insufficient_scope",
		fmt.Sprintf("This API key lacks the %q scope that this route needs. Create a key with that scope in Settings → API Access.", scope))
}

// limit counts the request against the key's minute and sets the RateLimit headers.
func (api *developerAPI) limit(e *core.RequestEvent, keyID string) bool {
	ok, _ := api.limiter.admit(e.Response.Header(), keyID)
	return ok
}

// touch records when and from where a key was last used (at most once a minute a key).
func (api *developerAPI) touch(app core.App, id, address string) {
	api.mu.Lock()
	if time.Since(api.touched[id]) < time.Minute {
		api.mu.Unlock()
		return
	}
	api.touched[id] = time.Now()
	api.mu.Unlock()
	_, err := app.NonconcurrentDB().NewQuery("UPDATE api_keys SET last_used_at = {:at}, last_used_ip = {:address} WHERE id = {:id}").
		Bind(dbx.Params{"at": time.Now().UTC().Format("2006-01-02 15:04:05.000Z"), "address": address, "id": id}).Execute()
	if err != nil {
		app.Logger().Warn("developer API: could not record a key's use", "error", err.Error())
	}
}

// keyLimiter is a fixed window a key: at most `limit` requests in each window.
type keyLimiter struct {
	mu      sync.Mutex
	limit   int
	window  time.Duration
	windows map[string]*keyWindow
}

type keyWindow struct {
	start time.Time
	count int
}

func newKeyLimiter(limit int, window time.Duration) *keyLimiter {
	return &keyLimiter{limit: limit, window: window, windows: map[string]*keyWindow{}}
}

// admit counts one request of `key` and answers it with the RateLimit-Limit, -Remaining
// and -Reset headers (and Retry-After when it may not go on): whether it may, and the
// seconds until the window resets.
func (l *keyLimiter) admit(h http.Header, key string) (bool, int) {
	remaining, reset, ok := l.take(key, time.Now())
	h.Set("RateLimit-Limit", strconv.Itoa(l.limit))
	h.Set("RateLimit-Remaining", strconv.Itoa(remaining))
	h.Set("RateLimit-Reset", strconv.Itoa(reset))
	if !ok {
		h.Set("Retry-After", strconv.Itoa(reset))
	}
	return ok, reset
}

// take counts one request: what is left in the window, the seconds until it resets, and
// whether the request may go on.
func (l *keyLimiter) take(key string, now time.Time) (int, int, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	w := l.windows[key]
	if w == nil || now.Sub(w.start) >= l.window {
		if len(l.windows) > 10000 {
			for k, old := range l.windows {
				if now.Sub(old.start) >= l.window {
					delete(l.windows, k)
				}
			}
		}
		w = &keyWindow{start: now}
		l.windows[key] = w
	}
	reset := int((w.start.Add(l.window).Sub(now) + time.Second - 1) / time.Second)
	if w.count >= l.limit {
		return 0, reset, false
	}
	w.count++
	return l.limit - w.count, reset, true
}
