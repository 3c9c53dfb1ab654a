package gatewayapi

import (
	"sync"
	"time"
)

// usageBudget is what each token may still write: bytes and connections, refilled at
// gatewayBytesPerSecond and gatewayConnectionsPerSecond up to usageBudgetSeconds of them.
// A token's budget is full the first time it writes after PocketBase starts.
type usageBudget struct {
	mu      sync.Mutex
	byToken map[string]*usageLevel
}

type usageLevel struct {
	bytes, connections float64
	at                 time.Time
}

func newUsageBudget() *usageBudget { return &usageBudget{byToken: map[string]*usageLevel{}} }

// take answers whether a batch of `bytes` and `connections` fits what `token` has left at
// `now`, and takes it from the budget when it does (a refused batch takes nothing).
func (b *usageBudget) take(token string, bytes, connections float64, now time.Time) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	const fullBytes, fullConnections = gatewayBytesPerSecond * usageBudgetSeconds, gatewayConnectionsPerSecond * usageBudgetSeconds
	level := b.byToken[token]
	if level == nil {
		level = &usageLevel{bytes: fullBytes, connections: fullConnections, at: now}
		b.byToken[token] = level
	}
	if elapsed := now.Sub(level.at).Seconds(); elapsed > 0 {
		level.bytes = min(fullBytes, level.bytes+elapsed*gatewayBytesPerSecond)
		level.connections = min(fullConnections, level.connections+elapsed*gatewayConnectionsPerSecond)
		level.at = now
	}
	if bytes > level.bytes || connections > level.connections {
		return false
	}
	level.bytes -= bytes
	level.connections -= connections
	return true
}
