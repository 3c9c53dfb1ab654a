// Package devapi is the developer API's side of the shop in Go (issue #18, #27): API keys
// (keys.go, scopes.go), every /api/v1 request checked against the OpenAPI documents before
// a hook runs (contract.go, validate.go) and every failure of /api/v1 answered as RFC 9457
// problem details (problem.go). The routes themselves are the hooks'.
package devapi

import (
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tools/hook"

	"proxyshop/pocketbase/keylimit"
)

// defaultAPIKeyRequestsPerMinute applies unless API_KEY_RATE_LIMIT says otherwise.
const defaultAPIKeyRequestsPerMinute = 300

// Documents are the contract's documents under a hooks dir: the published one, and the
// console's (admins only) once `npm run openapi` writes it.
func Documents(hooksDir string) []Document {
	return []Document{
		{File: filepath.Join(hooksDir, "lib/api/openapi.json")},
		{File: filepath.Join(hooksDir, "lib/api/admin-openapi.json"), Optional: true, Admin: true},
	}
}

// Register binds the developer API's middlewares: problem details, API keys and the
// request validation. hooksDir "" is pb_hooks beside the data dir.
func Register(se *core.ServeEvent, hooksDir string) {
	if hooksDir == "" {
		hooksDir = filepath.Join(se.App.DataDir(), "../pb_hooks")
	}
	contract, err := LoadContract(Documents(hooksDir)...)
	if err != nil {
		se.App.Logger().Error("developer API: the OpenAPI documents could not be read: no route scopes (API keys open nothing) and no request validation for what was not read", "error", err.Error())
	}
	perMinute := defaultAPIKeyRequestsPerMinute
	if n, err := strconv.Atoi(os.Getenv("API_KEY_RATE_LIMIT")); err == nil && n > 0 {
		perMinute = n
	}
	keys := &apiKeys{contract: contract, limiter: keylimit.New(perMinute, time.Minute), touched: map[string]time.Time{}}
	se.Router.Bind(problemDetails())
	se.Router.Bind(&hook.Handler[*core.RequestEvent]{Id: "shopApiKeys", Priority: apiKeyMiddlewarePriority, Func: keys.authenticate})
	se.Router.Bind(contract.Middleware())
}
