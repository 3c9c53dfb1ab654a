package keylimit

import (
	"net/http"
	"testing"
	"time"
)

func TestTake(t *testing.T) {
	start := time.Date(2026, 11, 28, 10, 0, 0, 0, time.UTC)
	type step struct {
		key       string
		at        time.Duration
		remaining int
		reset     int
		ok        bool
	}
	for _, tc := range []struct {
		name  string
		steps []step
	}{
		{"a key may make `limit` requests in a window, not one more", []step{
			{"a", 0, 1, 60, true}, {"a", time.Second, 0, 59, true}, {"a", 2 * time.Second, 0, 58, false},
		}},
		{"the window starts again once it ends", []step{
			{"a", 0, 1, 60, true}, {"a", 0, 0, 60, true}, {"a", 0, 0, 60, false}, {"a", time.Minute, 1, 60, true},
		}},
		{"each key has its own window", []step{
			{"a", 0, 1, 60, true}, {"a", 0, 0, 60, true}, {"b", 0, 1, 60, true},
		}},
		{"the reset rounds up to whole seconds", []step{
			{"a", 0, 1, 60, true}, {"a", 59*time.Second + time.Millisecond, 0, 1, true},
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l := New(2, time.Minute)
			for i, s := range tc.steps {
				remaining, reset, ok := l.take(s.key, start.Add(s.at))
				if remaining != s.remaining || reset != s.reset || ok != s.ok {
					t.Fatalf("step %d: got (%d, %d, %v), want (%d, %d, %v)", i, remaining, reset, ok, s.remaining, s.reset, s.ok)
				}
			}
		})
	}
}

func TestAdmitHeaders(t *testing.T) {
	l := New(1, time.Minute)
	h := http.Header{}
	if ok, _ := l.Admit(h, "k"); !ok || h.Get("RateLimit-Limit") != "1" || h.Get("RateLimit-Remaining") != "0" || h.Get("Retry-After") != "" {
		t.Fatalf("first request: ok=%v headers %v", ok, h)
	}
	h = http.Header{}
	if ok, reset := l.Admit(h, "k"); ok || h.Get("Retry-After") == "" || reset < 1 {
		t.Fatalf("second request: ok=%v reset=%d headers %v", ok, reset, h)
	}
}

func TestForgetsEndedWindows(t *testing.T) {
	l := New(1, time.Second)
	start := time.Now()
	for i := 0; i <= maxIdleWindows+1; i++ {
		l.take(string(rune(i)), start)
	}
	l.take("late", start.Add(2*time.Second))
	if len(l.windows) != 1 {
		t.Fatalf("%d windows kept, want the new one only", len(l.windows))
	}
}
