package gateway

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/pocketbase/dbx"
	_ "modernc.org/sqlite"
)

// No gateway_allowed_ranges row is no allowed range, not an error (sql.ErrNoRows is
// recognised by errors.Is, not by its text); a row's ranges are read.
func TestSQLSourceAllowedRanges(t *testing.T) {
	db, err := dbx.Open("sqlite", filepath.Join(t.TempDir(), "data.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	if _, err := db.NewQuery("CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT)").Execute(); err != nil {
		t.Fatal(err)
	}
	s := &SQLSource{Read: db, Write: db}
	if ranges, err := s.AllowedRanges(context.Background()); err != nil || len(ranges) != 0 {
		t.Fatalf("no row: %v %v", ranges, err)
	}
	if _, err := db.NewQuery("INSERT INTO settings (key, value) VALUES ('gateway_allowed_ranges', '10.0.0.0/8')").Execute(); err != nil {
		t.Fatal(err)
	}
	if ranges, err := s.AllowedRanges(context.Background()); err != nil || len(ranges) != 1 || ranges[0].String() != "10.0.0.0/8" {
		t.Fatalf("one range: %v %v", ranges, err)
	}
	if _, err := db.NewQuery("DROP TABLE settings").Execute(); err != nil {
		t.Fatal(err)
	}
	if _, err := s.AllowedRanges(context.Background()); err == nil {
		t.Fatal("a failed read answered no error")
	}
}
