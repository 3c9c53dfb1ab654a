// Helpers of the dispatcher's tests, which run it against a real SQLite file.

package webhooks

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/pocketbase/dbx"
	"github.com/pocketbase/pocketbase/tools/security"
	_ "modernc.org/sqlite"
)

const testKey = "abcdefghijklmnopqrstuvwxyz012345"
const testSecret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"

func testDB(t *testing.T) *dbx.DB {
	t.Helper()
	db, err := dbx.Open("sqlite", filepath.Join(t.TempDir(), "data.db")+"?_pragma=busy_timeout(10000)&_pragma=journal_mode(WAL)")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	for _, q := range []string{
		`CREATE TABLE webhook_endpoints (id TEXT PRIMARY KEY, user TEXT NOT NULL DEFAULT '', url TEXT NOT NULL DEFAULT '',
			events JSON DEFAULT '[]', secret TEXT NOT NULL DEFAULT '', enabled BOOLEAN DEFAULT FALSE)`,
		`CREATE TABLE webhook_deliveries (id TEXT PRIMARY KEY, endpoint TEXT NOT NULL DEFAULT '', user TEXT NOT NULL DEFAULT '',
			event TEXT NOT NULL DEFAULT '', message_id TEXT NOT NULL DEFAULT '', payload TEXT NOT NULL DEFAULT '',
			status TEXT NOT NULL DEFAULT '', attempts NUMERIC DEFAULT 0, next_attempt_at TEXT DEFAULT '', last_attempt_at TEXT DEFAULT '',
			last_status_code NUMERIC DEFAULT 0, last_response_ms NUMERIC DEFAULT 0, last_error TEXT DEFAULT '', delivered_at TEXT DEFAULT '',
			created TEXT DEFAULT '', updated TEXT DEFAULT '')`,
	} {
		if _, err := db.NewQuery(q).Execute(); err != nil {
			t.Fatal(err)
		}
	}
	return db
}

func addEndpoint(t *testing.T, db *dbx.DB, id, url string, enabled bool) {
	t.Helper()
	sealed, err := security.Encrypt([]byte(testSecret), testKey)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Insert("webhook_endpoints", dbx.Params{"id": id, "user": "u1", "url": url, "secret": "v1:" + sealed, "enabled": enabled}).Execute(); err != nil {
		t.Fatal(err)
	}
}

func addDelivery(t *testing.T, db *dbx.DB, id, endpoint, status string) {
	t.Helper()
	now := dbTime(time.Now())
	if _, err := db.Insert("webhook_deliveries", dbx.Params{"id": id, "endpoint": endpoint, "user": "u1", "event": "balance.low",
		"message_id": "msg_" + id, "payload": `{"type":"balance.low","data":{}}`, "status": status, "next_attempt_at": now, "created": now, "updated": now}).Execute(); err != nil {
		t.Fatal(err)
	}
}

type row struct {
	Status   string `db:"status"`
	Attempts int    `db:"attempts"`
	Code     int    `db:"last_status_code"`
	Error    string `db:"last_error"`
	Next     string `db:"next_attempt_at"`
	Done     string `db:"delivered_at"`
}

func waitFor(t *testing.T, db *dbx.DB, id string, ok func(row) bool) row {
	t.Helper()
	var r row
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		if err := db.NewQuery("SELECT status, attempts, last_status_code, last_error, next_attempt_at, delivered_at FROM webhook_deliveries WHERE id = {:id}").
			Bind(dbx.Params{"id": id}).One(&r); err != nil {
			t.Fatal(err)
		}
		if ok(r) {
			return r
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("delivery %s never got there: %+v", id, r)
	return r
}

func parseUnix(t *testing.T, s string) time.Time {
	t.Helper()
	var n int64
	for _, c := range s {
		if c < '0' || c > '9' {
			t.Fatalf("webhook-timestamp %q is not unix seconds", s)
		}
		n = n*10 + int64(c-'0')
	}
	return time.Unix(n, 0)
}
