package gateway

import (
	"context"
	"net/netip"
	"time"
)

// Credentials is the side of a source the gateway authorises from: every proxy, then the
// proxies that changed, the target ranges an admin allows, and upstreams that fail.
type Credentials interface {
	// Load answers every proxy and the change cursor the snapshot includes.
	Load(ctx context.Context) ([]Record, int64, error)
	// Changes answers the ids of the proxies changed after `cursor` and the new cursor;
	// reset says the cursor is too old to follow and everything must be loaded again.
	Changes(ctx context.Context, cursor int64) (ids []string, next int64, reset bool, err error)
	// Fetch answers the proxies among ids that exist (an id left out was deleted).
	Fetch(ctx context.Context, ids []string) ([]Record, error)
	// AllowedRanges answers the target ranges an admin allows despite the guard.
	AllowedRanges(ctx context.Context) ([]netip.Prefix, error)
	// ReportUpstream records that an upstream failed (err) or works again (nil).
	ReportUpstream(ctx context.Context, proxyID string, err error) error
}

// UsageStore is the side of a source the gateway's counters go to and its quotas start from.
type UsageStore interface {
	// FlushUsage adds a batch of counts to the hourly usage rows.
	FlushUsage(ctx context.Context, batch UsageBatch) error
	// MonthUsage answers each proxy's bytes (up and down) since `month` began.
	MonthUsage(ctx context.Context, month time.Time) (map[string]int64, error)
}

// Source is where a gateway reads proxies from and writes its usage to: the shop's
// database in the same process (SQLSource) or its API from another machine (HTTPSource).
type Source interface {
	Credentials
	UsageStore
}

var (
	_ Source = (*SQLSource)(nil)
	_ Source = (*HTTPSource)(nil)
	_ Source = (*StaticSource)(nil)
)
