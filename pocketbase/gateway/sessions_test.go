package gateway

import (
	"fmt"
	"testing"
	"time"
)

// Finding 10 of #26: the sticky-session map grew without bound (a customer inventing
// session ids grew the gateway's memory). Each proxy keeps its newest sessions and the
// gateway its newest overall; the oldest go first.
func TestFinding10StickySessionsAreBoundedOldestFirst(t *testing.T) {
	s := sessions{maxPerProxy: 3, maxTotal: 5}
	now := time.Now()
	until := now.Add(time.Hour)
	for i := 0; i < 1000; i++ {
		s.put(sessionKey{"a", fmt.Sprint(i)}, "exit", until, now)
	}
	if s.len() != 3 || s.get(sessionKey{"a", "999"}, now) == "" || s.get(sessionKey{"a", "996"}, now) != "" {
		t.Fatalf("one proxy's 1000 sessions: %d kept", s.len())
	}
	// Used again, a session is the newest: it stays when a new one comes.
	s.put(sessionKey{"a", "997"}, "exit", until, now)
	s.put(sessionKey{"a", "new"}, "exit", until, now)
	if s.get(sessionKey{"a", "997"}, now) == "" || s.get(sessionKey{"a", "998"}, now) != "" {
		t.Fatal("the oldest session of the proxy was not the one pushed out")
	}
	for _, proxy := range []string{"b", "c"} {
		s.put(sessionKey{proxy, "1"}, "exit", until, now)
	}
	s.put(sessionKey{"d", "1"}, "exit", until, now)
	if s.len() != 5 || s.get(sessionKey{"a", "999"}, now) != "" || s.get(sessionKey{"d", "1"}, now) == "" {
		t.Fatalf("past the overall bound: %d kept", s.len())
	}
	// Expired ones are pruned.
	later := now.Add(2 * time.Hour)
	s.put(sessionKey{"e", "1"}, "exit", later.Add(time.Hour), later)
	if s.len() != 1 {
		t.Fatalf("after expiry: %d kept", s.len())
	}
}
