package webhooks

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

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
