package gateway

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"time"
)

// FlushInterval is how often usage is written to the source: a crash loses at most this
// much of it.
const FlushInterval = 5 * time.Second

// takeConnection checks a grant's limits for one more connection: out of contact with the
// shop, past its monthly quota or with all of its connection slots taken it answers why
// (release is nil then); else it
// holds a slot until release is called, when the connection has ended.
func (g *Gateway) takeConnection(grant *Grant) (release func(), refused *refusal) {
	if g.stale() {
		return nil, refusedStale
	}
	if grant.QuotaBytes > 0 && g.quotas.of(grant).left() <= 0 {
		renews := monthStart(time.Now()).AddDate(0, 1, 0).Format("January 2")
		return nil, &refusal{429, 0x02, fmt.Sprintf("This proxy's monthly bandwidth quota (%s) is used up; it renews on %s (UTC).", formatBytes(grant.QuotaBytes), renews)}
	}
	release, ok := g.tunnels.takeSlot(grant.ProxyID, grant.MaxConnections)
	if !ok {
		return nil, &refusal{429, 0x02, capText(grant.MaxConnections)}
	}
	return release, nil
}

// capText is the refusal of a connection past the cap: "1 open connection", never "1 open connections".
func capText(max int) string {
	noun := "connections"
	if max == 1 {
		noun = "connection"
	}
	return fmt.Sprintf("This proxy already has %d open %s, its limit; close one and try again.", max, noun)
}

func formatBytes(n int64) string {
	const gb, mb = 1 << 30, 1 << 20
	if n%gb == 0 {
		return fmt.Sprintf("%d GB", n/gb)
	}
	if n%mb == 0 && n > 0 {
		return fmt.Sprintf("%d MB", n/mb) // a quota given in MB (a 500 MB trial)
	}
	return fmt.Sprintf("%.2f GB", float64(n)/gb)
}

// gatewayName names this process in gateway_stats: GATEWAY_NAME, else the host name.
func gatewayName() string {
	if name := os.Getenv("GATEWAY_NAME"); name != "" {
		return name
	}
	if host, err := os.Hostname(); err == nil && host != "" {
		return host
	}
	return "gateway"
}

// meterLoop flushes usage every FlushInterval and re-reads the month's usage every minute
// and when a month begins.
func (g *Gateway) meterLoop() {
	defer g.wg.Done()
	ticker := time.NewTicker(g.cfg.FlushInterval)
	defer ticker.Stop()
	lastMonthRead := time.Now()
	for {
		select {
		case <-g.ctx.Done():
			return
		case <-ticker.C:
		}
		g.flush(g.ctx, false)
		if now := time.Now(); now.Sub(lastMonthRead) > time.Minute || !monthStart(now).Equal(monthStart(lastMonthRead)) {
			g.readMonthUsage(g.ctx)
			lastMonthRead = now
		}
	}
}

// flush writes the counters taken since the last flush; on failure they are kept for the
// next one. Without `force`, an idle gateway writes its up time once a minute only.
func (g *Gateway) flush(ctx context.Context, force bool) {
	g.flushMu.Lock()
	defer g.flushMu.Unlock()
	now := time.Now().UTC()
	proxies, counts := g.meter.Take()
	idle := len(proxies) == 0 && counts.OK == 0 && counts.Failed == 0 && counts.Refused == 0
	sameHour := now.Truncate(time.Hour).Equal(g.lastFlush.Truncate(time.Hour))
	if idle && sameHour && now.Sub(g.lastFlush) < time.Minute && !force {
		return // nothing moved: the up time is written with the next flush (at least once a minute)
	}
	up := int64(now.Sub(g.lastFlush).Round(time.Second) / time.Second)
	g.lastFlush = now
	batch := UsageBatch{Gateway: g.cfg.Name, Hour: now.Truncate(time.Hour), Proxies: proxies, Counts: counts, UpSeconds: up}
	if err := g.usageStore.FlushUsage(ctx, batch); err != nil {
		var se *StatusError
		if errors.As(err, &se) && se.Status == http.StatusBadRequest {
			// The shop refuses the batch itself (past its bounds): sent again it would be
			// refused again, and every later flush with it.
			g.cfg.Logger.Error("gateway: the shop refused a usage batch; it is dropped", "error", err, "proxies", len(proxies))
			return
		}
		g.cfg.Logger.Warn("gateway: cannot write usage; keeping it for the next flush", "error", err)
		g.meter.putBack(proxies, counts)
		g.lastFlush = now.Add(-time.Duration(up) * time.Second)
		return
	}
	g.quotas.flushedNow(proxies)
}

// readMonthUsage takes the shop's count of each proxy's bytes this month (all gateways')
// into the budgets.
func (g *Gateway) readMonthUsage(ctx context.Context) {
	used, err := g.usageStore.MonthUsage(ctx, monthStart(time.Now()))
	if err != nil {
		g.cfg.Logger.Warn("gateway: cannot read this month's usage", "error", err)
		return
	}
	g.quotas.reconcile(used, func(id string) bool { return g.index.Grant(id) != nil })
}

// putBack adds counts that could not be written to the counters again.
func (m *Meter) putBack(proxies map[string]Counts, gc GatewayCounts) {
	for id, c := range proxies {
		u := m.of(id, c.OwnerID)
		u.up.Add(c.BytesUp)
		u.down.Add(c.BytesDown)
		u.connections.Add(c.Connections)
		u.failed.Add(c.Failed)
	}
	m.ok.Add(gc.OK)
	m.failed.Add(gc.Failed)
	m.refused.Add(gc.Refused)
	for i, n := range gc.Histogram {
		m.histogram[i].Add(n)
	}
}
