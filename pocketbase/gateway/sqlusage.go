// SQLSource's usage side: the hourly usage and stats rows a gateway's counters go to, and
// the month's bytes its quotas start from.

package gateway

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/pocketbase/dbx"
	"github.com/pocketbase/pocketbase/tools/security"
)

// MaxRowCount is the most a proxy_usage or gateway_stats count may hold (2^50: a PiB of
// bytes, or as many connections, in one hour; some 250 times what a gateway at 10 Gbit/s
// moves in an hour). Every add is clamped to it, so a row never overflows SQLite's integers
// and a sum of a month's rows stays far below them.
const MaxRowCount int64 = 1 << 50

// clampCount is n held to [0, MaxRowCount].
func clampCount(n int64) int64 { return max(0, min(n, MaxRowCount)) }

// upsertUsage adds to the row of the proxy, its owner and the hour (one row per owner, so
// the bytes of a proxy's old and new owner in the same hour stay apart).
const upsertUsage = `INSERT INTO proxy_usage (id, proxy_id, user_id, hour, bytes_up, bytes_down, connections, failed_connections, created, updated)
  VALUES ({:id}, {:proxy}, {:user}, {:hour}, {:up}, {:down}, {:connections}, {:failed}, {:now}, {:now})
  ON CONFLICT (proxy_id, user_id, hour) DO UPDATE SET bytes_up = MIN({:max}, bytes_up + excluded.bytes_up),
  bytes_down = MIN({:max}, bytes_down + excluded.bytes_down), connections = MIN({:max}, connections + excluded.connections),
  failed_connections = MIN({:max}, failed_connections + excluded.failed_connections), updated = excluded.updated`

// upsertStats adds to the gateway's row of the hour, the histogram bucket by bucket.
var upsertStats = func() string {
	buckets := make([]string, len(ConnectBucketsMs)+1)
	for i := range buckets {
		buckets[i] = fmt.Sprintf("MIN({:max}, COALESCE(json_extract(connect_ms_histogram, '$[%d]'), 0) + COALESCE(json_extract(excluded.connect_ms_histogram, '$[%d]'), 0))", i, i)
	}
	return `INSERT INTO gateway_stats (id, gateway, hour, connections_ok, connections_failed, connections_refused, connect_ms_histogram, up_seconds, created, updated)
  VALUES ({:id}, {:gateway}, {:hour}, {:ok}, {:failed}, {:refused}, {:histogram}, {:up}, {:now}, {:now})
  ON CONFLICT (gateway, hour) DO UPDATE SET connections_ok = MIN({:max}, connections_ok + excluded.connections_ok),
  connections_failed = MIN({:max}, connections_failed + excluded.connections_failed),
  connections_refused = MIN({:max}, COALESCE(connections_refused, 0) + excluded.connections_refused), up_seconds = MIN(3600, up_seconds + excluded.up_seconds),
  connect_ms_histogram = json_array(` + strings.Join(buckets, ", ") + `), updated = excluded.updated`
}()

// FlushUsage writes one batch in one transaction. Each proxy's counts go to its current
// owner (proxies.assigned_to_user_id, "" for none), whatever the batch says; counts of a
// proxy that does not exist are dropped; every count is clamped to MaxRowCount. The gateway
// inside PocketBase and POST /api/gateway/usage (gateways on other machines) both write
// through here.
func (s *SQLSource) FlushUsage(ctx context.Context, batch UsageBatch) error {
	if s.Write == nil {
		return nil
	}
	hour := batch.Hour.UTC().Format(pbDate)
	now := time.Now().UTC().Format(pbDate)
	write := func(tx dbx.Builder) error {
		owners, err := ownersOf(ctx, tx, batch.Proxies)
		if err != nil {
			return err
		}
		dropped := 0
		for id, c := range batch.Proxies {
			owner, ok := owners[id]
			if !ok {
				dropped++
				continue
			}
			_, err := tx.NewQuery(upsertUsage).Bind(dbx.Params{
				"id": newRecordID(), "proxy": id, "user": owner, "hour": hour, "up": clampCount(c.BytesUp), "down": clampCount(c.BytesDown),
				"connections": clampCount(c.Connections), "failed": clampCount(c.Failed), "now": now, "max": MaxRowCount,
			}).WithContext(ctx).Execute()
			if err != nil {
				return err
			}
		}
		if dropped > 0 && s.Logger != nil {
			s.Logger.Warn("gateway: usage of proxies that do not exist was dropped", "proxies", dropped, "gateway", batch.Gateway)
		}
		var histogram []int64
		for _, n := range batch.Counts.Histogram {
			histogram = append(histogram, clampCount(n))
		}
		histogramJSON, _ := json.Marshal(histogram)
		_, err = tx.NewQuery(upsertStats).Bind(dbx.Params{
			"id": newRecordID(), "gateway": batch.Gateway, "hour": hour, "ok": clampCount(batch.Counts.OK), "failed": clampCount(batch.Counts.Failed),
			"refused":   clampCount(batch.Counts.Refused),
			"histogram": string(histogramJSON), "up": max(0, min(batch.UpSeconds, 3600)), "now": now, "max": MaxRowCount,
		}).WithContext(ctx).Execute()
		return err
	}
	if db, ok := s.Write.(*dbx.DB); ok {
		return db.Transactional(func(tx *dbx.Tx) error { return write(tx) })
	}
	return write(s.Write)
}

// ownersOf answers the current owner of each proxy of `proxies` that exists.
func ownersOf(ctx context.Context, db dbx.Builder, proxies map[string]Counts) (map[string]string, error) {
	ids := make([]string, 0, len(proxies))
	for id := range proxies {
		ids = append(ids, id)
	}
	owners := make(map[string]string, len(ids))
	for start := 0; start < len(ids); start += 500 {
		list, params := inList(ids[start:min(start+500, len(ids))])
		rows := []struct {
			ID    string `db:"id"`
			Owner string `db:"owner"`
		}{}
		err := db.NewQuery("SELECT id, assigned_to_user_id AS owner FROM proxies WHERE id IN (" + list + ")").
			Bind(params).WithContext(ctx).All(&rows)
		if err != nil {
			return nil, err
		}
		for _, r := range rows {
			owners[r.ID] = r.Owner
		}
	}
	return owners, nil
}

// MonthUsage answers each proxy's bytes this month as its quota counts them: its current
// owner's bytes since `month` began or since their term of ownership began, whichever is
// later (the proxy_term_usage view, pb_migrations/1764800500_proxy_usage_terms.js, which the
// hooks read too). The sum saturates at the largest int64 instead of failing.
func (s *SQLSource) MonthUsage(ctx context.Context, month time.Time) (map[string]int64, error) {
	rows := []struct {
		ProxyID string `db:"proxy_id"`
		Bytes   int64  `db:"bytes"`
	}{}
	err := s.Read.NewQuery("SELECT proxy_id, CAST(TOTAL(bytes_up) + TOTAL(bytes_down) AS INTEGER) AS bytes FROM proxy_term_usage WHERE hour >= {:month} GROUP BY proxy_id").
		Bind(dbx.Params{"month": month.UTC().Format(pbDate)}).WithContext(ctx).All(&rows)
	if err != nil {
		return nil, err
	}
	used := make(map[string]int64, len(rows))
	for _, r := range rows {
		used[r.ProxyID] = r.Bytes
	}
	return used, nil
}

// newRecordID is a PocketBase record id (15 characters, a-z0-9).
func newRecordID() string {
	return security.RandomStringWithAlphabet(15, "abcdefghijklmnopqrstuvwxyz0123456789")
}
