// Package gatewayapi is the shop's side of the gateway protocol: the routes under
// /api/gateway that gateways on other machines follow (gateway.HTTPSource), and the
// gateway tokens (gwt_…) that open them.
package gatewayapi

import (
	"database/sql"
	"errors"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/pocketbase/dbx"
	"github.com/pocketbase/pocketbase/apis"
	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tools/hook"

	"proxyshop/pocketbase/gateway"
	"proxyshop/pocketbase/keylimit"
	"proxyshop/pocketbase/tokens"
)

// The API that gateways on other machines follow (gateway.HTTPSource): the proxies with
// their credentials, the change feed, the allowed target ranges, and the usage they write.
// A gateway token (gateway_tokens, made by `pocketbase gateway-token <name>`) is a role of
// its own: it opens these routes and nothing else, and no other caller opens them.
//
// Limits (security review #26, findings 5 and 8):
//   - A call with a valid token is not counted by PocketBase's per-IP rate limiter (a flood
//     of wrong proxy passwords at a remote gateway made it spend the shop's limit of its IP
//     address and stop following changes); each token has its own limit instead,
//     GATEWAY_TOKEN_RATE_LIMIT requests a second (default 300), past it 429 with
//     Retry-After. A call without a valid token still counts against its address's limit.
//   - A usage batch may hold only what a gateway can move: 10 Gbit/s each way, and 100,000
//     connections a second, since that token's previous batches (a budget refilled at that
//     rate, holding at most an hour of it, full when PocketBase starts); its hour must be
//     within 2 hours of the shop's clock. Anything else is refused whole (400), nothing
//     written. The owner of each row is the proxy's (SQLSource.FlushUsage), never the
//     batch's.

// defaultGatewayRequestsPerSecond applies unless GATEWAY_TOKEN_RATE_LIMIT says otherwise.
const defaultGatewayRequestsPerSecond = 300

// What one gateway can move, as usage batches are checked against it: 10 Gbit/s each way
// (bytes up and down together: 2.5 GB a second), and connections (reached and failed).
const (
	gatewayBytesPerSecond       = 2 * 10_000_000_000 / 8
	gatewayConnectionsPerSecond = 100_000
	// usageBudgetSeconds: the most of it a token may have saved up (an hour: 9 TB), so a
	// gateway that kept its counts through an outage of the shop can still write them.
	usageBudgetSeconds = 3600
	// usageHourSkew: how far a batch's hour may be from the shop's clock.
	usageHourSkew = 2 * time.Hour
)

type gatewayAPI struct {
	app    core.App
	source *gateway.SQLSource
	mu     sync.Mutex
	seen   map[string]time.Time // token id -> last_seen_at written
	// perSecond requests a token may make each second (limiter's window).
	perSecond int
	limiter   *keylimit.Limiter
	budget    *usageBudget
	// addressLimit is PocketBase's own per-IP rate limiter (unbound from these routes).
	addressLimit *hook.Handler[*core.RequestEvent]
}

// Register mounts /api/gateway.
func Register(se *core.ServeEvent) {
	app := se.App
	perSecond := defaultGatewayRequestsPerSecond
	if n, err := strconv.Atoi(os.Getenv("GATEWAY_TOKEN_RATE_LIMIT")); err == nil && n > 0 {
		perSecond = n
	}
	api := &gatewayAPI{
		app:       app,
		source:    &gateway.SQLSource{Read: app.ConcurrentDB(), Write: app.NonconcurrentDB(), Key: os.Getenv("SHOP_CREDENTIALS_KEY"), Logger: app.Logger()},
		seen:      map[string]time.Time{},
		perSecond: perSecond,
		limiter:   keylimit.New(perSecond, time.Second),
		budget:    newUsageBudget(),
	}
	for _, h := range se.Router.Middlewares {
		if h.Id == apis.DefaultRateLimitMiddlewareId {
			api.addressLimit = h
		}
	}
	g := se.Router.Group("/api/gateway")
	// PocketBase's per-IP limiter runs before any route middleware: off here, and run by
	// requireToken for callers without a valid token only.
	g.Unbind(apis.DefaultRateLimitMiddlewareId)
	g.BindFunc(api.requireToken)
	g.GET("/snapshot", api.snapshot)
	g.GET("/changes", api.changes)
	g.POST("/records", api.records)
	g.GET("/allowed-ranges", api.allowedRanges)
	g.POST("/upstream", api.upstream)
	g.POST("/usage", api.usage)
	g.GET("/month-usage", api.monthUsage)
}

func (api *gatewayAPI) requireToken(e *core.RequestEvent) error {
	token, ok := strings.CutPrefix(e.Request.Header.Get("Authorization"), "Bearer ")
	if !ok || !strings.HasPrefix(token, TokenPrefix) {
		if err := api.limitAddress(e); err != nil {
			return err
		}
		return e.UnauthorizedError("A gateway token is required.", nil)
	}
	var row struct {
		ID string `db:"id"`
	}
	err := api.app.ConcurrentDB().NewQuery("SELECT id FROM gateway_tokens WHERE token_hash = {:hash}").
		Bind(dbx.Params{"hash": tokens.Hash(token)}).One(&row)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return e.InternalServerError("", err)
	}
	if err != nil {
		if err := api.limitAddress(e); err != nil {
			return err
		}
		return e.UnauthorizedError("This gateway token is not valid (revoked or mistyped).", nil)
	}
	if err := api.limitToken(e, row.ID); err != nil {
		return err
	}
	api.touch(row.ID, e.RealIP())
	e.Set("gateway_token", row.ID)
	return e.Next()
}

// limitAddress counts a call without a valid token against PocketBase's per-IP rate limit,
// as if the limiter had run (its rule for the path, its counters): an error past it. The
// limiter sees an event of its own, whose Next goes nowhere.
func (api *gatewayAPI) limitAddress(e *core.RequestEvent) error {
	if api.addressLimit == nil {
		return nil
	}
	probe := &core.RequestEvent{App: e.App}
	probe.Request, probe.Response = e.Request, e.Response
	return api.addressLimit.Func(probe)
}

// limitToken counts the call against the token's second (GATEWAY_TOKEN_RATE_LIMIT): 429
// with Retry-After past it.
func (api *gatewayAPI) limitToken(e *core.RequestEvent, tokenID string) error {
	ok, reset := api.limiter.Admit(e.Response.Header(), tokenID)
	if ok {
		return nil
	}
	return e.TooManyRequestsError(
		"Too many requests for this gateway token: at most "+strconv.Itoa(api.perSecond)+" a second (GATEWAY_TOKEN_RATE_LIMIT). Wait "+strconv.Itoa(reset)+" seconds and try again.", nil)
}

// touchEvery is how often a token's last use is written: the console calls a gateway out
// of contact when it has not been heard from for 90 s (pb_hooks/lib/gateway/tokens.js).
const touchEvery = 15 * time.Second

// touch records when and from where a token was last used (at most every touchEvery).
func (api *gatewayAPI) touch(id, address string) {
	api.mu.Lock()
	if time.Since(api.seen[id]) < touchEvery {
		api.mu.Unlock()
		return
	}
	api.seen[id] = time.Now()
	api.mu.Unlock()
	_, _ = api.app.NonconcurrentDB().NewQuery("UPDATE gateway_tokens SET last_seen_at = {:at}, last_address = {:address} WHERE id = {:id}").
		Bind(dbx.Params{"at": time.Now().UTC().Format("2006-01-02 15:04:05.000Z"), "address": address, "id": id}).Execute()
}

func (api *gatewayAPI) snapshot(e *core.RequestEvent) error {
	records, cursor, err := api.source.Load(e.Request.Context())
	if err != nil {
		return e.InternalServerError("", err)
	}
	return e.JSON(http.StatusOK, gateway.SnapshotAnswer{Cursor: cursor, Records: records})
}

func (api *gatewayAPI) changes(e *core.RequestEvent) error {
	since, err := strconv.ParseInt(e.Request.URL.Query().Get("since"), 10, 64)
	if err != nil || since < 0 {
		return e.BadRequestError("since must be a change cursor (a whole number).", nil)
	}
	ids, cursor, reset, err := api.source.Changes(e.Request.Context(), since)
	if err != nil {
		return e.InternalServerError("", err)
	}
	return e.JSON(http.StatusOK, gateway.ChangesAnswer{IDs: ids, Cursor: cursor, Reset: reset})
}

func (api *gatewayAPI) records(e *core.RequestEvent) error {
	var body gateway.RecordsRequest
	if err := e.BindBody(&body); err != nil || len(body.IDs) > 5000 {
		return e.BadRequestError("Send {ids: [...]} with at most 5000 proxy ids.", err)
	}
	records, err := api.source.Fetch(e.Request.Context(), body.IDs)
	if err != nil {
		return e.InternalServerError("", err)
	}
	return e.JSON(http.StatusOK, gateway.RecordsAnswer{Records: records})
}

func (api *gatewayAPI) allowedRanges(e *core.RequestEvent) error {
	ranges, err := api.source.AllowedRanges(e.Request.Context())
	if err != nil {
		return e.InternalServerError("", err)
	}
	return e.JSON(http.StatusOK, gateway.RangesAnswer{Ranges: ranges})
}

func (api *gatewayAPI) upstream(e *core.RequestEvent) error {
	var body gateway.UpstreamReport
	if err := e.BindBody(&body); err != nil || body.ProxyID == "" {
		return e.BadRequestError("Send {proxy_id, error}.", err)
	}
	var failure error
	if body.Error != "" {
		failure = errors.New(body.Error)
	}
	if err := api.source.ReportUpstream(e.Request.Context(), body.ProxyID, failure); err != nil {
		return e.InternalServerError("", err)
	}
	return e.JSON(http.StatusOK, map[string]bool{"ok": true})
}

func (api *gatewayAPI) usage(e *core.RequestEvent) error {
	var batch gateway.UsageBatch
	if err := e.BindBody(&batch); err != nil || batch.Gateway == "" || len(batch.Gateway) > 100 || batch.Hour.IsZero() {
		return e.BadRequestError("Send a usage batch {gateway, hour, proxies, counts, up_seconds}.", err)
	}
	now := time.Now()
	if !batch.Hour.Equal(batch.Hour.Truncate(time.Hour)) || batch.Hour.Before(now.Add(-usageHourSkew)) || batch.Hour.After(now.Add(usageHourSkew)) {
		return e.BadRequestError("The batch's hour must be the start of a UTC hour within 2 hours of the shop's clock (check the gateway's clock).", nil)
	}
	var bytes, connections float64
	for _, c := range batch.Proxies {
		if c.BytesUp < 0 || c.BytesDown < 0 || c.Connections < 0 || c.Failed < 0 {
			return e.BadRequestError("Usage counts cannot be negative.", nil)
		}
		bytes += float64(c.BytesUp) + float64(c.BytesDown)
		connections += float64(c.Connections) + float64(c.Failed)
	}
	if batch.UpSeconds < 0 || batch.Counts.OK < 0 || batch.Counts.Failed < 0 || batch.Counts.Refused < 0 || len(batch.Counts.Histogram) > 100 {
		return e.BadRequestError("The gateway's counts cannot be negative.", nil)
	}
	for _, n := range batch.Counts.Histogram {
		if n < 0 {
			return e.BadRequestError("The gateway's counts cannot be negative.", nil)
		}
	}
	connections = max(connections, float64(batch.Counts.OK)+float64(batch.Counts.Failed)+float64(batch.Counts.Refused))
	tokenID, _ := e.Get("gateway_token").(string)
	if !api.budget.take(tokenID, bytes, connections, now) {
		return e.BadRequestError("This usage batch holds more than a gateway can move since this token's previous batches "+
			"(10 Gbit/s each way and 100,000 connections a second, at most an hour of it at once): nothing was written.", nil)
	}
	if err := api.source.FlushUsage(e.Request.Context(), batch); err != nil {
		return e.InternalServerError("", err)
	}
	return e.JSON(http.StatusOK, map[string]bool{"ok": true})
}

func (api *gatewayAPI) monthUsage(e *core.RequestEvent) error {
	month, err := time.Parse(time.RFC3339, e.Request.URL.Query().Get("month"))
	if err != nil {
		return e.BadRequestError("month must be an RFC 3339 time.", nil)
	}
	used, err := api.source.MonthUsage(e.Request.Context(), month)
	if err != nil {
		return e.InternalServerError("", err)
	}
	return e.JSON(http.StatusOK, gateway.MonthUsageAnswer{Used: used})
}
