package devapi

import (
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/pocketbase/dbx"
	"github.com/pocketbase/pocketbase/core"

	"proxyshop/pocketbase/keylimit"
	"proxyshop/pocketbase/tokens"
)

// API keys for the developer API (issue #18). A request to /api/v1 with
// `Authorization: Bearer psk_live_…` is the key's owner, within the key: it must be known,
// not revoked or expired, come from its IP allowlist, stay under its rate limit and call a
// route its scopes open (the scope of each route is the OpenAPI document's x-scope). A hook
// reads the key as e.get("api_key") to hold purchases to its spend cap. Session tokens are
// left to PocketBase.

// apiKeyMiddlewarePriority: before PocketBase loads a session token (-1020, which leaves an
// auth already set alone) and before its rate limiter (-1000).
const apiKeyMiddlewarePriority = -1025

// storedTime is how PocketBase stores a date.
const storedTime = "2006-01-02 15:04:05.000Z"

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

type apiKeys struct {
	contract *Contract
	limiter  *keylimit.Limiter
	mu       sync.Mutex
	touched  map[string]time.Time // key id -> last_used_at written
}

func (k *apiKeys) authenticate(e *core.RequestEvent) error {
	if !IsDeveloperAPI(e.Request.URL.Path) {
		return e.Next()
	}
	e.Set("api_key_rate_limit", k.limiter.Limit()) // GET /api/v1/account tells it
	token, ok := bearerAPIKey(e.Request)
	if !ok {
		return e.Next()
	}
	key, err := findKey(e.App, token, time.Now())
	if err != nil {
		return err
	}
	if ok, _ := k.limiter.Admit(e.Response.Header(), key.ID); !ok {
		return NewProblem(http.StatusTooManyRequests, "rate_limited",
			fmt.Sprintf("Too many requests for this API key: at most %d a minute. Wait %s seconds and try again.", k.limiter.Limit(), e.Response.Header().Get("Retry-After")))
	}
	if err := checkAddress(key, e.RealIP()); err != nil {
		return err
	}
	if err := checkScope(k.contract, key, e.Request); err != nil {
		return err
	}
	user, err := e.App.FindRecordById("users", key.User)
	if err != nil {
		return NewProblem(http.StatusUnauthorized, "invalid_api_key", "This API key's account no longer exists.")
	}
	if user.GetBool("suspended") {
		return NewProblem(http.StatusForbidden, "account_suspended", "This account is suspended. Contact support.")
	}
	e.Auth = user
	e.Set("api_key", map[string]any{"id": key.ID, "name": key.Name, "scopes": scopesOf(key), "spend_cap_cents": key.SpendCapCents})
	k.touch(e.App, key.ID, e.RealIP())
	return e.Next()
}

// findKey is the live key `token` names at `now`, or the problem that refuses it.
func findKey(app core.App, token string, now time.Time) (*apiKeyRow, error) {
	key := &apiKeyRow{}
	err := app.ConcurrentDB().
		NewQuery(`SELECT id, user, name, COALESCE(scopes, '[]') AS scopes, COALESCE(expires_at, '') AS expires_at,
			COALESCE(ip_allowlist, '[]') AS ip_allowlist, COALESCE(spend_cap_cents, 0) AS spend_cap_cents, COALESCE(revoked_at, '') AS revoked_at
			FROM api_keys WHERE key_hash = {:hash}`).
		Bind(dbx.Params{"hash": tokens.Hash(token)}).One(key)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, NewProblem(http.StatusUnauthorized, "invalid_api_key",
			"This API key is not valid: check that it was copied whole, or create a new one in Settings → API Access.")
	}
	if err != nil {
		return nil, err
	}
	return key, liveKey(key, now)
}

// liveKey refuses a revoked or expired key.
func liveKey(key *apiKeyRow, now time.Time) error {
	if key.RevokedAt != "" {
		return NewProblem(http.StatusUnauthorized, "api_key_revoked",
			fmt.Sprintf("This API key was revoked on %s. Create a new one in Settings → API Access.", dayOf(key.RevokedAt)))
	}
	if key.ExpiresAt != "" {
		if expires, err := time.Parse(storedTime, key.ExpiresAt); err == nil && !now.Before(expires) {
			return NewProblem(http.StatusUnauthorized, "api_key_expired",
				fmt.Sprintf("This API key expired on %s. Create a new one in Settings → API Access.", dayOf(key.ExpiresAt)))
		}
	}
	return nil
}

func dayOf(stored string) string {
	if len(stored) >= 10 {
		return stored[:10]
	}
	return stored
}

func scopesOf(key *apiKeyRow) []string {
	var scopes []string
	_ = json.Unmarshal([]byte(key.Scopes), &scopes)
	return scopes
}

// touch records when and from where a key was last used (at most once a minute a key).
func (k *apiKeys) touch(app core.App, id, address string) {
	k.mu.Lock()
	if time.Since(k.touched[id]) < time.Minute {
		k.mu.Unlock()
		return
	}
	k.touched[id] = time.Now()
	k.mu.Unlock()
	_, err := app.NonconcurrentDB().NewQuery("UPDATE api_keys SET last_used_at = {:at}, last_used_ip = {:address} WHERE id = {:id}").
		Bind(dbx.Params{"at": time.Now().UTC().Format(storedTime), "address": address, "id": id}).Execute()
	if err != nil {
		app.Logger().Warn("developer API: could not record a key's use", "error", err.Error())
	}
}
