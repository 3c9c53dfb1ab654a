package webhooks

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/pocketbase/dbx"
	"github.com/pocketbase/pocketbase/tools/security"
	_ "modernc.org/sqlite"

	"proxyshop/pocketbase/gateway"
)

// The Standard Webhooks reference libraries' test vector (standard-webhooks/libraries,
// e.g. javascript/src/index.test.ts and python/tests/test_webhooks.py).
func TestSignMatchesTheStandardWebhooksVector(t *testing.T) {
	ts := time.Unix(1614265330, 0)
	got, err := Sign("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", "msg_p5jXN8AQM9LWM0D4loKWxJek", ts, []byte(`{"test": 2432232314}`))
	if err != nil {
		t.Fatal(err)
	}
	if want := "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE="; got != want {
		t.Fatalf("signature %q, want %q", got, want)
	}
	// The same key without its prefix signs the same; a broken secret is an error, not a signature.
	if again, _ := Sign("MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", "msg_p5jXN8AQM9LWM0D4loKWxJek", ts, []byte(`{"test": 2432232314}`)); again != got {
		t.Fatalf("unprefixed secret signs %q", again)
	}
	if _, err := Sign("whsec_not base64!", "msg_1", ts, nil); err == nil {
		t.Fatal("a malformed secret signed")
	}
}

func TestBackoffFollowsTheScheduleForTwentyFourHours(t *testing.T) {
	created := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	now := created
	var delays []time.Duration
	attempts := 1
	for {
		next, ok := NextAttempt(attempts, created, now, DefaultRetryBase)
		if !ok {
			break
		}
		delays = append(delays, next.Sub(now))
		now = next
		attempts++
	}
	// 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, then the last try at 24 h (not 10 h later).
	want := []time.Duration{5 * time.Second, 5 * time.Minute, 30 * time.Minute, 2 * time.Hour, 5 * time.Hour, 10 * time.Hour, 24*time.Hour - (17*time.Hour + 35*time.Minute + 5*time.Second)}
	if len(delays) != len(want) {
		t.Fatalf("delays %v, want %v", delays, want)
	}
	for i := range want {
		if delays[i] != want[i] {
			t.Fatalf("delay %d is %v, want %v (all: %v)", i, delays[i], want[i], delays)
		}
	}
	if !now.Equal(created.Add(24 * time.Hour)) {
		t.Fatalf("last attempt at %v, want 24 h after creation", now.Sub(created))
	}
	if attempts != 8 {
		t.Fatalf("%d attempts in all, want 8", attempts)
	}
	// A delivery already past its window fails at its first failure.
	if _, ok := NextAttempt(1, created, created.Add(25*time.Hour), DefaultRetryBase); ok {
		t.Fatal("retried after the 24-hour window")
	}
	// A shorter base scales the schedule and the window alike.
	next, ok := NextAttempt(2, created, created, 50*time.Millisecond)
	if !ok || next.Sub(created) != 3*time.Second {
		t.Fatalf("second retry at base 50 ms: %v %v, want 3 s", next.Sub(created), ok)
	}
	if Window(50*time.Millisecond) != 864*time.Second {
		t.Fatalf("window at base 50 ms: %v", Window(50*time.Millisecond))
	}
}

func TestDialerRefusesPrivateAddressesUnlessOpen(t *testing.T) {
	closed := GuardControl(gateway.NewGuard(false))
	open := GuardControl(gateway.NewGuard(true))
	for _, address := range []string{"127.0.0.1:80", "10.1.2.3:443", "169.254.169.254:80", "192.168.1.1:443", "[::1]:443", "[fd00:ec2::254]:80", "[::ffff:127.0.0.1]:80", "[fe80::1%lo]:80",
		// #26 finding 9: IPv6 forms carrying a blocked IPv4 address (NAT64, 6to4, IPv4-compatible)
		"[64:ff9b::7f00:1]:80", "[2002:a9fe:a9fe::1]:80", "[::10.1.2.3]:443"} {
		err := closed("tcp", address, nil)
		var refused *RefusedAddressError
		if !errors.As(err, &refused) {
			t.Errorf("closed guard dialled %s (err %v)", address, err)
		}
		if err := open("tcp", address, nil); err != nil {
			t.Errorf("open guard refused %s: %v", address, err)
		}
	}
	if err := closed("tcp", "93.184.215.14:443", nil); err != nil {
		t.Errorf("a public address was refused: %v", err)
	}

	// Through the client: nothing reaches a loopback server, and the error says why.
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { hits.Add(1) }))
	defer srv.Close()
	_, err := NewClient(gateway.NewGuard(false), 2*time.Second).Post(srv.URL, "application/json", strings.NewReader("{}"))
	var refused *RefusedAddressError
	if !errors.As(err, &refused) || refused.Addr.String() != "127.0.0.1" {
		t.Fatalf("closed client: %v", err)
	}
	// A name resolving to loopback is refused too (the check runs on the dialled address).
	port := srv.URL[strings.LastIndex(srv.URL, ":")+1:]
	if _, err := NewClient(gateway.NewGuard(false), 2*time.Second).Post("http://localhost:"+port, "application/json", strings.NewReader("{}")); !errors.As(err, &refused) {
		t.Fatalf("closed client reached localhost: %v", err)
	}
	if hits.Load() != 0 {
		t.Fatalf("the closed client sent %d requests", hits.Load())
	}
	resp, err := NewClient(gateway.NewGuard(true), 2*time.Second).Post(srv.URL, "application/json", strings.NewReader("{}"))
	if err != nil {
		t.Fatalf("open client: %v", err)
	}
	resp.Body.Close()
	if hits.Load() != 1 {
		t.Fatalf("the open client sent %d requests", hits.Load())
	}
}

// ---- The dispatcher against a real SQLite file --------------------------------------

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

func TestDispatcherRetriesUntilTheReceiverRecovers(t *testing.T) {
	db := testDB(t)
	var mu sync.Mutex
	var got []*http.Request
	var bodies []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		mu.Lock()
		got = append(got, r)
		bodies = append(bodies, string(body))
		n := len(got)
		mu.Unlock()
		if n < 3 {
			w.WriteHeader(http.StatusServiceUnavailable)
			_, _ = w.Write([]byte("try later\n" + strings.Repeat("x", 1000)))
			return
		}
		w.WriteHeader(http.StatusNoContent)
	}))
	defer srv.Close()
	addEndpoint(t, db, "e1", srv.URL+"/hook", true)
	addDelivery(t, db, "d1", "e1", "pending")

	d := New(Config{Read: db, Write: db, Key: testKey, Open: true, RetryBase: 20 * time.Millisecond, PollInterval: 20 * time.Millisecond})
	if err := d.Start(); err != nil {
		t.Fatal(err)
	}
	defer d.Close()

	after2 := waitFor(t, db, "d1", func(r row) bool { return r.Attempts == 2 })
	if after2.Status != "pending" && after2.Status != "delivering" {
		t.Fatalf("after two failures: %+v", after2)
	}
	done := waitFor(t, db, "d1", func(r row) bool { return r.Status == "succeeded" })
	if done.Attempts != 3 || done.Code != 204 || done.Error != "" || done.Done == "" || done.Next != "" {
		t.Fatalf("after the recovery: %+v", done)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(got) != 3 {
		t.Fatalf("%d requests, want 3", len(got))
	}
	first := got[0]
	if first.Header.Get("webhook-id") != "msg_d1" || first.Header.Get("Content-Type") != "application/json" || !strings.Contains(first.UserAgent(), "ProxyShop") {
		t.Fatalf("headers: %v", first.Header)
	}
	ts := first.Header.Get("webhook-timestamp")
	want, _ := Sign(testSecret, "msg_d1", parseUnix(t, ts), []byte(bodies[0]))
	if first.Header.Get("webhook-signature") != want {
		t.Fatalf("signature %q, want %q", first.Header.Get("webhook-signature"), want)
	}
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

func TestDispatcherRecordsFailuresAndResumesAfterACrash(t *testing.T) {
	db := testDB(t)
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		w.WriteHeader(http.StatusInternalServerError)
		_, _ = w.Write([]byte("boom\x00" + strings.Repeat("y", 5000)))
	}))
	defer srv.Close()
	addEndpoint(t, db, "open", srv.URL, true)
	addEndpoint(t, db, "off", srv.URL, false)
	addDelivery(t, db, "crashed", "open", "delivering") // a previous run died mid-send
	addDelivery(t, db, "disabled", "off", "pending")

	// Closed guard: the loopback receiver is refused at connect time, nothing is sent.
	d := New(Config{Read: db, Write: db, Key: testKey, Open: false, RetryBase: time.Hour, PollInterval: 20 * time.Millisecond})
	if err := d.Start(); err != nil {
		t.Fatal(err)
	}
	r := waitFor(t, db, "crashed", func(r row) bool { return r.Attempts == 1 })
	if r.Status != "pending" || r.Code != 0 || !strings.Contains(r.Error, "Refused") || !strings.Contains(r.Error, "127.0.0.1") || r.Next == "" {
		t.Fatalf("refused delivery: %+v", r)
	}
	off := waitFor(t, db, "disabled", func(r row) bool { return r.Status == "failed" })
	if off.Attempts != 0 || !strings.Contains(off.Error, "disabled") {
		t.Fatalf("disabled endpoint: %+v", off)
	}
	d.Close()
	if hits.Load() != 0 {
		t.Fatalf("%d requests reached the receiver through a closed guard", hits.Load())
	}

	// Open: a 500 is a failed attempt with a short, one-line error.
	if _, err := db.NewQuery("UPDATE webhook_deliveries SET next_attempt_at = '' WHERE id = 'crashed'").Execute(); err != nil {
		t.Fatal(err)
	}
	d = New(Config{Read: db, Write: db, Key: testKey, Open: true, RetryBase: time.Hour, PollInterval: 20 * time.Millisecond})
	if err := d.Start(); err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	r = waitFor(t, db, "crashed", func(r row) bool { return r.Attempts == 2 })
	if r.Status != "pending" || r.Code != 500 || !strings.HasPrefix(r.Error, "HTTP 500: boom y") || len(r.Error) > 230 {
		t.Fatalf("after a 500: %+v", r)
	}
}

func TestCloseLeavesAnUnfinishedSendForTheNextStart(t *testing.T) {
	db := testDB(t)
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	defer srv.Close()
	defer close(release)
	addEndpoint(t, db, "e1", srv.URL, true)
	addDelivery(t, db, "slow", "e1", "pending")
	d := New(Config{Read: db, Write: db, Key: testKey, Open: true, PollInterval: 20 * time.Millisecond})
	if err := d.Start(); err != nil {
		t.Fatal(err)
	}
	waitFor(t, db, "slow", func(r row) bool { return r.Status == "delivering" })
	ctx, cancel := context.WithTimeout(context.Background(), 6*time.Second)
	defer cancel()
	closed := make(chan struct{})
	go func() { d.Close(); close(closed) }()
	select {
	case <-closed:
	case <-ctx.Done():
		t.Fatal("Close hung on a slow receiver")
	}
	r := waitFor(t, db, "slow", func(row) bool { return true })
	if r.Status != "delivering" || r.Attempts != 0 {
		t.Fatalf("after Close: %+v (want left delivering, no attempt counted)", r)
	}
}
