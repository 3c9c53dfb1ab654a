package webhooks

import (
	"testing"
	"time"
)

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
