package gateway

import (
	"errors"
	"math"
	"sync"
	"sync/atomic"
)

// errBudgetSpent: a tunnel's budget has no byte left; the copy stopped at its last byte.
var errBudgetSpent = errors.New("the proxy's traffic budget is spent")

// noLimit is the limit of a budget nothing limits.
const noLimit = -1

// budget is bytes that may still be relayed: a limit, less the bytes used that this
// gateway did not relay (base: other gateways', earlier runs') and the bytes it relayed
// or holds for a copy under way (used). The pump takes bytes before it copies them and
// gives back what it did not copy, so no byte passes the limit on this gateway, and many
// tunnels draw on one budget at once without a lock. A proxy's monthly quota is one; the
// limit can be raised or lowered while tunnels draw on it (a refill).
type budget struct {
	limit, base, used atomic.Int64
}

// take answers how many of `want` bytes may move now (0: none, the budget is spent)
// and holds them as used.
func (b *budget) take(want int64) int64 {
	for {
		used := b.used.Load()
		n := want
		if limit := b.limit.Load(); limit != noLimit {
			n = min(n, limit-b.base.Load()-used)
			if n <= 0 {
				return 0
			}
		}
		if b.used.CompareAndSwap(used, used+n) {
			return n
		}
	}
}

// giveBack returns bytes taken but not moved.
func (b *budget) giveBack(n int64) {
	if n > 0 {
		b.used.Add(-n)
	}
}

// left is the bytes that may still move (math.MaxInt64 without a limit).
func (b *budget) left() int64 {
	limit := b.limit.Load()
	if limit == noLimit {
		return math.MaxInt64
	}
	return limit - b.base.Load() - b.used.Load()
}

// quotas are the proxies' budgets: each proxy's monthly bandwidth quota (for its current
// term of ownership) less the bytes the shop has counted, every gateway's, re-read every
// minute (reconcile), and the bytes this gateway relayed since.
type quotas struct {
	mu      sync.Mutex
	byProxy map[string]*quota
}

type quota struct {
	budget
	flushed int64 // bytes of the proxy this gateway has written to the shop (under quotas.mu)
}

func limitOf(g *Grant) int64 {
	if g.QuotaBytes > 0 {
		return g.QuotaBytes
	}
	return noLimit
}

func (q *quotas) entry(proxyID string) *quota {
	if q.byProxy == nil {
		q.byProxy = map[string]*quota{}
	}
	e := q.byProxy[proxyID]
	if e == nil {
		e = &quota{}
		e.limit.Store(noLimit)
		q.byProxy[proxyID] = e
	}
	return e
}

// of is the budget a grant's tunnels draw on.
func (q *quotas) of(g *Grant) *budget {
	q.mu.Lock()
	defer q.mu.Unlock()
	e := q.entry(g.ProxyID)
	e.limit.Store(limitOf(g))
	return &e.budget
}

// grantChanged applies a grant's quota; a new term of ownership (a new owner, or a proxy
// granted again) starts from zero. It answers whether the budget is spent.
func (q *quotas) grantChanged(g *Grant, newTerm bool) bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	e := q.entry(g.ProxyID)
	e.limit.Store(limitOf(g))
	if newTerm {
		e.base.Store(-e.used.Load())
	}
	return e.left() <= 0
}

// flushedNow records bytes written to the shop.
func (q *quotas) flushedNow(counts map[string]Counts) {
	q.mu.Lock()
	defer q.mu.Unlock()
	for id, c := range counts {
		q.entry(id).flushed += c.bytes()
	}
}

// reconcile takes the shop's count of each proxy's bytes (its current term, this month:
// every gateway's flushed bytes, this one's included) as the truth: base becomes what this
// gateway did not write itself. Entries of proxies with no count and no grant are dropped.
func (q *quotas) reconcile(counted map[string]int64, granted func(string) bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	for id, e := range q.byProxy {
		if _, ok := counted[id]; !ok && !granted(id) {
			delete(q.byProxy, id)
			continue
		}
		e.base.Store(counted[id] - e.flushed)
	}
	for id, n := range counted {
		if q.byProxy[id] == nil {
			q.entry(id).base.Store(n)
		}
	}
}
