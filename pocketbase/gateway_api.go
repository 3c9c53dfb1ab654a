package main

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/pocketbase/dbx"
	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tools/security"

	"proxyshop/pocketbase/gateway"
)

// The API that gateways on other machines follow (gateway.HTTPSource): the proxies with
// their credentials, the change feed, the allowed target ranges, and the usage they write.
// A gateway token (gateway_tokens, made by `pocketbase gateway-token <name>`) is a role of
// its own: it opens these routes and nothing else, and no other caller opens them.

// tokenPrefix marks gateway tokens, so a leaked one is recognisable.
const tokenPrefix = "gwt_"

func hashToken(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}

type gatewayAPI struct {
	app    core.App
	source *gateway.SQLSource
	mu     sync.Mutex
	seen   map[string]time.Time // token id -> last_seen_at written
}

func registerGatewayAPI(se *core.ServeEvent) {
	app := se.App
	api := &gatewayAPI{
		app:    app,
		source: &gateway.SQLSource{Read: app.ConcurrentDB(), Write: app.NonconcurrentDB(), Key: os.Getenv("SHOP_CREDENTIALS_KEY"), Logger: app.Logger()},
		seen:   map[string]time.Time{},
	}
	g := se.Router.Group("/api/gateway")
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
	if !ok || !strings.HasPrefix(token, tokenPrefix) {
		return e.UnauthorizedError("A gateway token is required.", nil)
	}
	var row struct {
		ID string `db:"id"`
	}
	err := api.app.ConcurrentDB().NewQuery("SELECT id FROM gateway_tokens WHERE token_hash = {:hash}").
		Bind(dbx.Params{"hash": hashToken(token)}).One(&row)
	if err != nil {
		return e.UnauthorizedError("This gateway token is not valid (revoked or mistyped).", nil)
	}
	api.touch(row.ID, e.RealIP())
	return e.Next()
}

// touch records when and from where a token was last used (at most once a minute).
func (api *gatewayAPI) touch(id, address string) {
	api.mu.Lock()
	if time.Since(api.seen[id]) < time.Minute {
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
	for _, c := range batch.Proxies {
		if c.BytesUp < 0 || c.BytesDown < 0 || c.Connections < 0 || c.Failed < 0 {
			return e.BadRequestError("Usage counts cannot be negative.", nil)
		}
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

// newGatewayToken makes a token named `name` and answers it (stored only as a hash).
func newGatewayToken(app core.App, name string) (string, error) {
	name = strings.TrimSpace(name)
	if name == "" || len(name) > 100 {
		return "", errors.New("name the gateway (1-100 characters), e.g. pocketbase gateway-token eu-1")
	}
	collection, err := app.FindCollectionByNameOrId("gateway_tokens")
	if err != nil {
		return "", err
	}
	token := tokenPrefix + security.RandomString(40)
	record := core.NewRecord(collection)
	record.Set("name", name)
	record.Set("token_hash", hashToken(token))
	if err := app.Save(record); err != nil {
		return "", err
	}
	return token, nil
}
