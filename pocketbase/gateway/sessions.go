package gateway

import (
	"cmp"
	"container/list"
	"sync"
	"time"
)

// Sticky sessions are bounded: a proxy keeps its newest maxSessionsPerProxy, the gateway
// its newest maxSessions (a customer inventing session ids cannot grow memory without end).
const (
	maxSessionsPerProxy = 5_000
	maxSessions         = 200_000
)

// sessions keeps a sticky session's upstream until it expires, or until newer sessions
// push it out (the oldest first).
type sessions struct {
	mu       sync.Mutex
	byKey    map[sessionKey]*list.Element // of *session, in all and in its proxy's list
	all      *list.List                   // every session, oldest first
	perProxy map[string]*list.List        // each proxy's sessions, oldest first
	pruned   time.Time
	// maxPerProxy and maxTotal: the bounds (tests lower them).
	maxPerProxy, maxTotal int
}

type sessionKey struct{ proxyID, name string }

type session struct {
	key    sessionKey
	exitID string
	until  time.Time
	own    *list.Element // in perProxy[key.proxyID]
}

func (s *sessions) get(key sessionKey, now time.Time) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if e, ok := s.byKey[key]; ok && now.Before(e.Value.(*session).until) {
		return e.Value.(*session).exitID
	}
	return ""
}

func (s *sessions) put(key sessionKey, exitID string, until time.Time, now time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.byKey == nil {
		s.byKey, s.all, s.perProxy = map[sessionKey]*list.Element{}, list.New(), map[string]*list.List{}
	}
	if now.Sub(s.pruned) > time.Minute {
		for e := s.all.Front(); e != nil; {
			next := e.Next()
			if !now.Before(e.Value.(*session).until) {
				s.removeLocked(e)
			}
			e = next
		}
		s.pruned = now
	}
	if e, ok := s.byKey[key]; ok {
		s.removeLocked(e) // put again as the newest
	}
	own := s.perProxy[key.proxyID]
	if own == nil {
		own = list.New()
		s.perProxy[key.proxyID] = own
	}
	v := &session{key: key, exitID: exitID, until: until}
	s.byKey[key] = s.all.PushBack(v)
	v.own = own.PushBack(s.byKey[key])
	if own.Len() > cmp.Or(s.maxPerProxy, maxSessionsPerProxy) {
		s.removeLocked(own.Front().Value.(*list.Element))
	}
	if s.all.Len() > cmp.Or(s.maxTotal, maxSessions) {
		s.removeLocked(s.all.Front())
	}
}

func (s *sessions) removeLocked(e *list.Element) {
	v := e.Value.(*session)
	s.all.Remove(e)
	delete(s.byKey, v.key)
	if own := s.perProxy[v.key.proxyID]; own != nil {
		own.Remove(v.own)
		if own.Len() == 0 {
			delete(s.perProxy, v.key.proxyID)
		}
	}
}

func (s *sessions) len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.byKey)
}
