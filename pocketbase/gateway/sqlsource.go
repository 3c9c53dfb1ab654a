package gateway

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/netip"
	"strings"
	"time"

	"github.com/pocketbase/dbx"
	"github.com/pocketbase/pocketbase/tools/security"
)

// SQLSource reads the shop's own database (the gateway inside the PocketBase process).
type SQLSource struct {
	Read  dbx.Builder // concurrent reads
	Write dbx.Builder // PocketBase's single writer
	Key   string      // SHOP_CREDENTIALS_KEY
	// Logger says which rows cannot be read.
	Logger *slog.Logger
	// Retention: change rows older than this are pruned.
	Retention time.Duration
	lastPrune time.Time
}

const recordColumns = `p.id, p.username, p.password_encrypted, p.type, p.status, p.expires_at,
  p.assigned_to_user_id, p.country, p.state, p.city, p.exit, p.bind_address, p.upstream_host,
  p.upstream_port, p.upstream_username, p.upstream_password_encrypted, p.upstream_failed_at,
  COALESCE(u.suspended, 0) AS owner_suspended, COALESCE(u.deleted, 0) AS owner_deleted,
  COALESCE(u.ip_allowlist, '') AS owner_allowlist, p.bandwidth_quota_bytes, p.max_connections`

const recordFrom = ` FROM proxies p LEFT JOIN users u ON u.id = p.assigned_to_user_id`

type recordRow struct {
	ID                        string `db:"id"`
	Username                  string `db:"username"`
	PasswordEncrypted         string `db:"password_encrypted"`
	Type                      string `db:"type"`
	Status                    string `db:"status"`
	ExpiresAt                 string `db:"expires_at"`
	Owner                     string `db:"assigned_to_user_id"`
	Country                   string `db:"country"`
	State                     string `db:"state"`
	City                      string `db:"city"`
	Exit                      string `db:"exit"`
	BindAddress               string `db:"bind_address"`
	UpstreamHost              string `db:"upstream_host"`
	UpstreamPort              int    `db:"upstream_port"`
	UpstreamUsername          string `db:"upstream_username"`
	UpstreamPasswordEncrypted string `db:"upstream_password_encrypted"`
	UpstreamFailedAt          string `db:"upstream_failed_at"`
	OwnerSuspended            bool   `db:"owner_suspended"`
	OwnerDeleted              bool   `db:"owner_deleted"`
	OwnerAllowlist            string `db:"owner_allowlist"`
	QuotaBytes                int64  `db:"bandwidth_quota_bytes"`
	MaxConnections            int    `db:"max_connections"`
}

// pbDate is PocketBase's stored date text.
const pbDate = "2006-01-02 15:04:05.000Z"

func (s *SQLSource) Load(ctx context.Context) ([]Record, int64, error) {
	var cursor struct {
		Seq int64 `db:"seq"`
	}
	if err := s.Read.NewQuery("SELECT COALESCE(MAX(seq), 0) AS seq FROM gateway_changes").WithContext(ctx).One(&cursor); err != nil {
		return nil, 0, err
	}
	rows := []recordRow{}
	if err := s.Read.NewQuery("SELECT " + recordColumns + recordFrom).WithContext(ctx).All(&rows); err != nil {
		return nil, 0, err
	}
	records, err := s.records(rows)
	return records, cursor.Seq, err
}

func (s *SQLSource) Changes(ctx context.Context, cursor int64) ([]string, int64, bool, error) {
	var oldest struct {
		Seq int64 `db:"seq"`
	}
	if err := s.Read.NewQuery("SELECT COALESCE(MIN(seq), 0) AS seq FROM gateway_changes").WithContext(ctx).One(&oldest); err != nil {
		return nil, cursor, false, err
	}
	if oldest.Seq > cursor+1 {
		return nil, cursor, true, nil // rows after the cursor were pruned
	}
	rows := []struct {
		Seq     int64  `db:"seq"`
		ProxyID string `db:"proxy_id"`
	}{}
	err := s.Read.NewQuery("SELECT seq, proxy_id FROM gateway_changes WHERE seq > {:cursor} ORDER BY seq LIMIT 5000").
		Bind(dbx.Params{"cursor": cursor}).WithContext(ctx).All(&rows)
	if err != nil {
		return nil, cursor, false, err
	}
	seen := map[string]bool{}
	ids := []string{}
	for _, r := range rows {
		if !seen[r.ProxyID] {
			seen[r.ProxyID] = true
			ids = append(ids, r.ProxyID)
		}
		cursor = r.Seq
	}
	s.prune(ctx)
	return ids, cursor, false, nil
}

func (s *SQLSource) prune(ctx context.Context) {
	if s.Write == nil || time.Since(s.lastPrune) < time.Minute {
		return
	}
	s.lastPrune = time.Now()
	retention := s.Retention
	if retention <= 0 {
		retention = 10 * time.Minute
	}
	before := time.Now().UTC().Add(-retention).Format("2006-01-02 15:04:05.000Z")
	_, _ = s.Write.NewQuery("DELETE FROM gateway_changes WHERE at < {:before}").Bind(dbx.Params{"before": before}).WithContext(ctx).Execute()
}

func (s *SQLSource) Fetch(ctx context.Context, ids []string) ([]Record, error) {
	all := []Record{}
	for start := 0; start < len(ids); start += 500 {
		list, params := inList(ids[start:min(start+500, len(ids))])
		rows := []recordRow{}
		err := s.Read.NewQuery("SELECT " + recordColumns + recordFrom + " WHERE p.id IN (" + list + ")").
			Bind(params).WithContext(ctx).All(&rows)
		if err != nil {
			return nil, err
		}
		records, err := s.records(rows)
		if err != nil {
			return nil, err
		}
		all = append(all, records...)
	}
	return all, nil
}

// inList is a bound list for `IN (...)`: its placeholders and their values.
func inList(ids []string) (string, dbx.Params) {
	params := dbx.Params{}
	names := make([]string, len(ids))
	for i, id := range ids {
		name := fmt.Sprintf("id%d", i)
		params[name] = id
		names[i] = "{:" + name + "}"
	}
	return strings.Join(names, ","), params
}

func (s *SQLSource) AllowedRanges(ctx context.Context) ([]netip.Prefix, error) {
	var row struct {
		Value string `db:"value"`
	}
	err := s.Read.NewQuery("SELECT value FROM settings WHERE key = 'gateway_allowed_ranges'").WithContext(ctx).One(&row)
	if err != nil && !isNoRows(err) {
		return nil, err
	}
	prefixes, _ := ParsePrefixes(row.Value)
	return prefixes, nil
}

func (s *SQLSource) ReportUpstream(ctx context.Context, proxyID string, failure error) error {
	if s.Write == nil {
		return nil
	}
	at, text := "", ""
	if failure != nil {
		at = time.Now().UTC().Format(pbDate)
		text = failure.Error()
		if len(text) > 500 {
			text = text[:500]
		}
	}
	_, err := s.Write.NewQuery("UPDATE proxies SET upstream_failed_at = {:at}, upstream_error = {:text} WHERE id = {:id}").
		Bind(dbx.Params{"at": at, "text": text, "id": proxyID}).WithContext(ctx).Execute()
	return err
}

func isNoRows(err error) bool { return err != nil && strings.Contains(err.Error(), "no rows") }

// skip logs a row the gateway cannot read: one damaged row must not stop it following
// every other change.
func (s *SQLSource) skip(id string, err error) {
	if s.Logger != nil {
		s.Logger.Error("gateway: a proxy row cannot be read; its credentials are refused", "proxy", id, "error", err)
	}
}

// records turns rows into records: passwords opened (only those the gateway needs: the
// customer's of ASSIGNED proxies, the upstream's of upstream exits), dates parsed.
func (s *SQLSource) records(rows []recordRow) ([]Record, error) {
	out := make([]Record, 0, len(rows))
	for _, r := range rows {
		rec := Record{
			ID:             r.ID,
			Username:       r.Username,
			Type:           r.Type,
			Status:         r.Status,
			OwnerID:        r.Owner,
			OwnerBlocked:   r.OwnerSuspended || r.OwnerDeleted,
			Country:        r.Country,
			State:          r.State,
			City:           r.City,
			UpstreamFailed: r.UpstreamFailedAt != "",
			QuotaBytes:     r.QuotaBytes,
			MaxConnections: r.MaxConnections,
		}
		if r.ExpiresAt != "" {
			t, err := time.Parse(pbDate, r.ExpiresAt)
			if err != nil {
				s.skip(r.ID, fmt.Errorf("expires_at %q: %w", r.ExpiresAt, err))
				rec.Status = "UNREADABLE" // no grant: refused rather than served forever
			}
			rec.ExpiresAt = t
		}
		rec.Allowlist = parseAllowlist(r.OwnerAllowlist)
		if r.Status == "ASSIGNED" {
			plain, err := OpenSealed(r.PasswordEncrypted, s.Key)
			if err != nil {
				s.skip(r.ID, err)
			}
			rec.Password = plain // "" when unreadable: no grant
		}
		rec.Exit = Exit{ProxyID: r.ID, BindAddr: r.BindAddress, SOCKS: r.Type == "SOCKS5"}
		if r.Exit == "upstream" {
			plain, err := OpenSealed(r.UpstreamPasswordEncrypted, s.Key)
			if err != nil {
				s.skip(r.ID, fmt.Errorf("upstream: %w", err))
			}
			rec.Exit = Exit{ProxyID: r.ID, Upstream: true, Host: r.UpstreamHost, Port: r.UpstreamPort,
				Username: r.UpstreamUsername, Password: plain, SOCKS: r.Type == "SOCKS5"}
		}
		out = append(out, rec)
	}
	return out, nil
}

// OpenSealed opens a password sealed by pb_hooks/lib/proxies/credentials.js ("v1:" +
// PocketBase's security.Encrypt, AES-256-GCM under SHOP_CREDENTIALS_KEY).
func OpenSealed(sealed, key string) (string, error) {
	if sealed == "" {
		return "", nil
	}
	rest, ok := strings.CutPrefix(sealed, "v1:")
	if !ok {
		return "", errors.New("a stored password is not in a known encrypted form")
	}
	plain, err := security.Decrypt(rest, key)
	if err != nil {
		return "", errors.New("a stored password cannot be decrypted with SHOP_CREDENTIALS_KEY")
	}
	return string(plain), nil
}

// parseAllowlist reads users.ip_allowlist (a JSON list of addresses and CIDR ranges).
func parseAllowlist(text string) []netip.Prefix {
	if text == "" || text == "null" {
		return nil
	}
	entries := []string{}
	if err := json.Unmarshal([]byte(text), &entries); err != nil {
		// Unreadable: allow nobody rather than everybody.
		return []netip.Prefix{netip.PrefixFrom(netip.IPv6Unspecified(), 128)}
	}
	prefixes, bad := ParsePrefixes(strings.Join(entries, "\n"))
	if len(bad) > 0 && len(prefixes) == 0 {
		return []netip.Prefix{netip.PrefixFrom(netip.IPv6Unspecified(), 128)}
	}
	return prefixes
}

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
	return `INSERT INTO gateway_stats (id, gateway, hour, connections_ok, connections_failed, connect_ms_histogram, up_seconds, created, updated)
  VALUES ({:id}, {:gateway}, {:hour}, {:ok}, {:failed}, {:histogram}, {:up}, {:now}, {:now})
  ON CONFLICT (gateway, hour) DO UPDATE SET connections_ok = MIN({:max}, connections_ok + excluded.connections_ok),
  connections_failed = MIN({:max}, connections_failed + excluded.connections_failed), up_seconds = MIN(3600, up_seconds + excluded.up_seconds),
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
