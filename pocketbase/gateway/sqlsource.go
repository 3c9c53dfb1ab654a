package gateway

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"net/netip"
	"strings"
	"time"

	"github.com/pocketbase/dbx"
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
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
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
