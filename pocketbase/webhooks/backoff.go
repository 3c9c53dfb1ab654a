package webhooks

import "time"

// DefaultRetryBase is the first retry's delay; every later delay and the 24-hour window
// scale with it (WEBHOOK_RETRY_BASE_MS shortens them all in tests).
const DefaultRetryBase = 5 * time.Second

// schedule is Standard Webhooks' retry schedule after the first attempt: 5 s, 5 min,
// 30 min, 2 h, 5 h, 10 h, 10 h (at the default base).
var schedule = []time.Duration{
	5 * time.Second,
	5 * time.Minute,
	30 * time.Minute,
	2 * time.Hour,
	5 * time.Hour,
	10 * time.Hour,
	10 * time.Hour,
}

// window is how long after its creation a delivery is retried (at the default base).
const window = 24 * time.Hour

// scaled is d at the default base, rescaled to `base`.
func scaled(d, base time.Duration) time.Duration {
	if base <= 0 || base == DefaultRetryBase {
		return d
	}
	return time.Duration(float64(d) / float64(DefaultRetryBase) * float64(base))
}

// Window is how long after its creation a delivery is retried at this base (24 h at the default).
func Window(base time.Duration) time.Duration {
	return scaled(window, base)
}

// NextAttempt says when to try again after `attempts` failed attempts (1 or more) of a
// delivery created at `created`, failing at `now`: the schedule's next delay, never later
// than the end of the 24-hour window (so the last try is at 24 h), and ok false once the
// window has passed or the schedule is used up (the delivery has failed).
func NextAttempt(attempts int, created, now time.Time, base time.Duration) (next time.Time, ok bool) {
	if attempts < 1 {
		attempts = 1
	}
	deadline := created.Add(Window(base))
	if attempts-1 >= len(schedule) || !now.Before(deadline) {
		return time.Time{}, false
	}
	next = now.Add(scaled(schedule[attempts-1], base))
	if next.After(deadline) {
		next = deadline
	}
	return next, true
}
