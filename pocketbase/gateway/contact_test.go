package gateway

import (
	"context"
	"encoding/json"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// fakeShop serves the shop's gateway API (what pocketbase/gatewayapi answers) from a
// StaticSource, and can revoke the token (401) or be unreachable (503).
type fakeShop struct {
	src     *StaticSource
	revoked atomic.Bool
	down    atomic.Bool
	server  *httptest.Server
}

func startFakeShop(t *testing.T, src *StaticSource) *fakeShop {
	t.Helper()
	f := &fakeShop{src: src}
	f.server = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.server.Close)
	return f
}

func (f *fakeShop) serve(w http.ResponseWriter, r *http.Request) {
	switch {
	case f.revoked.Load() || r.Header.Get("Authorization") != "Bearer gwt_test":
		http.Error(w, `{"message":"This gateway token is not valid (revoked or mistyped)."}`, http.StatusUnauthorized)
		return
	case f.down.Load():
		http.Error(w, "down", http.StatusServiceUnavailable)
		return
	}
	ctx := r.Context()
	var answer any
	var err error
	switch r.URL.Path {
	case "/api/gateway/snapshot":
		records, cursor, lerr := f.src.Load(ctx)
		answer, err = SnapshotAnswer{Cursor: cursor, Records: records}, lerr
	case "/api/gateway/changes":
		since, _ := strconv.ParseInt(r.URL.Query().Get("since"), 10, 64)
		ids, next, reset, cerr := f.src.Changes(ctx, since)
		answer, err = ChangesAnswer{IDs: ids, Cursor: next, Reset: reset}, cerr
	case "/api/gateway/records":
		var body RecordsRequest
		_ = json.NewDecoder(r.Body).Decode(&body)
		records, ferr := f.src.Fetch(ctx, body.IDs)
		answer, err = RecordsAnswer{Records: records}, ferr
	case "/api/gateway/allowed-ranges":
		answer = RangesAnswer{}
	case "/api/gateway/month-usage":
		answer = MonthUsageAnswer{Used: map[string]int64{}}
	default:
		answer = map[string]bool{"ok": true}
	}
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	_ = json.NewEncoder(w).Encode(answer)
}

func startRemoteGateway(t *testing.T, shop *fakeShop, maxStale time.Duration) *Gateway {
	t.Helper()
	g := New(Config{HTTPAddr: "127.0.0.1:0", SOCKSAddr: "127.0.0.1:0", OpenTargets: true, PollInterval: 20 * time.Millisecond, MaxStale: maxStale},
		&HTTPSource{BaseURL: shop.server.URL, Token: "gwt_test"})
	if err := g.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(g.Close)
	return g
}

// Finding 4 of #26: a remote gateway treated every error of the shop as temporary, a 401
// "token revoked" included, and served its last snapshot forever: after its token was
// revoked and a proxy rotated, the old password kept working there. A 401 or 403 now stops
// it: every tunnel is cut and nothing more is served.
func TestFinding4ARevokedGatewayCutsEveryTunnelAndStops(t *testing.T) {
	echo := startEcho(t, "echo")
	shop := startFakeShop(t, NewStaticSource(assigned("r", "DATACENTER")))
	g := startRemoteGateway(t, shop, time.Minute)
	status, c, _ := connectTunnel(g.httpAddr(), "user-r", "pass-r", echo.addr)
	if status != 200 {
		t.Fatalf("CONNECT through the remote gateway: %d", status)
	}
	roundTrip(t, c, "before the revocation")

	shop.revoked.Store(true)
	waitClosed(t, c, 2*time.Second)
	select {
	case err := <-g.Refused():
		if !strings.Contains(err.Error(), "401") {
			t.Fatalf("refused with %v", err)
		}
	case <-time.After(2 * time.Second):
		t.Fatal("the gateway did not stop after the shop refused its token")
	}
	for _, addr := range []string{g.httpAddr(), g.socksAddr()} {
		if conn, err := net.DialTimeout("tcp", addr, time.Second); err == nil {
			conn.Close()
			t.Fatalf("%s still accepts connections after the token was revoked", addr)
		}
	}
}

// Without a successful update for MaxStale the gateway refuses new connections (what it
// cannot see, a revocation or a rotation, must not be served for long), keeps the tunnels
// it has, and serves again once the shop answers.
func TestFinding4AGatewayOutOfContactRefusesNewConnectionsUntilTheShopAnswers(t *testing.T) {
	echo := startEcho(t, "echo")
	shop := startFakeShop(t, NewStaticSource(assigned("s", "DATACENTER")))
	g := startRemoteGateway(t, shop, 300*time.Millisecond)
	_, open, _ := connectTunnel(g.httpAddr(), "user-s", "pass-s", echo.addr)

	shop.down.Store(true)
	deadline := time.Now().Add(3 * time.Second)
	for {
		status, body := connectFrom("127.0.0.1", g.httpAddr(), "user-s", "pass-s", echo.addr)
		if status == 503 && strings.Contains(body, "lost contact with the shop") {
			break
		}
		if status != 200 || time.Now().After(deadline) {
			t.Fatalf("out of contact: %d %q", status, body)
		}
		time.Sleep(50 * time.Millisecond)
	}
	if _, reply, _, _ := socksConnect(g.socksAddr(), "user-s", "pass-s", "127.0.0.1", portOf(echo.addr)); reply != 0x01 {
		t.Fatalf("SOCKS5 out of contact: reply %d, want 1 (general failure)", reply)
	}
	roundTrip(t, open, "an open tunnel stays")

	shop.down.Store(false)
	for deadline := time.Now().Add(2 * time.Second); ; {
		if status, _ := connectFrom("127.0.0.1", g.httpAddr(), "user-s", "pass-s", echo.addr); status == 200 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("not serving again after the shop answered")
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func TestRefusedByShopIsOnly401And403(t *testing.T) {
	for status, want := range map[int]bool{401: true, 403: true, 429: false, 500: false, 503: false} {
		err := error(&StatusError{Method: "GET", Path: "/api/gateway/changes", Status: status})
		if refusedByShop(err) != want || refusedByShop(errors.Join(errors.New("x"), err)) != want {
			t.Errorf("%d: refused %v", status, !want)
		}
	}
	if refusedByShop(context.DeadlineExceeded) {
		t.Error("a timeout is a refusal")
	}
}

// refusingShop refuses every usage batch as the shop does one past its bounds (400), or
// fails to answer (503).
type refusingShop struct {
	*StaticSource
	status int
}

func (s *refusingShop) FlushUsage(context.Context, UsageBatch) error {
	return &StatusError{Method: "POST", Path: "/api/gateway/usage", Status: s.status}
}

// A batch the shop refuses (400: past what a gateway can move, finding 5's bound) is dropped
// rather than sent again with every later flush; one it could not take (503) is kept.
func TestARefusedUsageBatchIsDroppedAFailedOneKept(t *testing.T) {
	for status, kept := range map[int]bool{400: false, 503: true} {
		src := &refusingShop{StaticSource: NewStaticSource(assigned("u", "DATACENTER")), status: status}
		g := New(Config{}, src)
		g.meter.of("u", "owner").down.Add(1000)
		g.flush(context.Background(), true)
		if got := g.meter.Peek("u").BytesDown; (got == 1000) != kept {
			t.Errorf("after a %d: %d bytes kept for the next flush", status, got)
		}
	}
}
