// Package keylimit counts requests a key (an API key, a gateway token) in fixed windows
// and answers them with the RateLimit headers: the one rate limit of the developer API
// (pocketbase/devapi) and the gateway protocol (pocketbase/gatewayapi).
package keylimit

import (
	"net/http"
	"strconv"
	"sync"
	"time"
)

// Limiter is a fixed window a key: at most `limit` requests in each window.
type Limiter struct {
	mu      sync.Mutex
	limit   int
	window  time.Duration
	windows map[string]*keyWindow
}

type keyWindow struct {
	start time.Time
	count int
}

// maxIdleWindows: past this many keys, a new window first drops the ones that ended.
const maxIdleWindows = 10000

// New is a limiter of `limit` requests a key in each `window`.
func New(limit int, window time.Duration) *Limiter {
	return &Limiter{limit: limit, window: window, windows: map[string]*keyWindow{}}
}

// Limit is the requests a key may make in a window.
func (l *Limiter) Limit() int { return l.limit }

// Admit counts one request of `key` and answers it with the RateLimit-Limit, -Remaining
// and -Reset headers (and Retry-After when it may not go on): whether it may, and the
// seconds until the window resets.
func (l *Limiter) Admit(h http.Header, key string) (bool, int) {
	remaining, reset, ok := l.take(key, time.Now())
	h.Set("RateLimit-Limit", strconv.Itoa(l.limit))
	h.Set("RateLimit-Remaining", strconv.Itoa(remaining))
	h.Set("RateLimit-Reset", strconv.Itoa(reset))
	if !ok {
		h.Set("Retry-After", strconv.Itoa(reset))
	}
	return ok, reset
}

// take counts one request: what is left in the window, the seconds until it resets, and
// whether the request may go on.
func (l *Limiter) take(key string, now time.Time) (int, int, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	w := l.windows[key]
	if w == nil || now.Sub(w.start) >= l.window {
		if len(l.windows) > maxIdleWindows {
			for k, old := range l.windows {
				if now.Sub(old.start) >= l.window {
					delete(l.windows, k)
				}
			}
		}
		w = &keyWindow{start: now}
		l.windows[key] = w
	}
	reset := int((w.start.Add(l.window).Sub(now) + time.Second - 1) / time.Second)
	if w.count >= l.limit {
		return 0, reset, false
	}
	w.count++
	return l.limit - w.count, reset, true
}
