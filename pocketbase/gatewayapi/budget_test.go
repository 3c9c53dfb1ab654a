package gatewayapi

import (
	"testing"
	"time"
)

// Security review #26, finding 5: what one gateway token may write is bounded by what a
// gateway can move in the time since its previous batches (tests/api/gateway-api.test.ts
// tries the route).
func TestUsageBudget(t *testing.T) {
	const hourOfBytes = float64(gatewayBytesPerSecond) * usageBudgetSeconds // 9 TB
	start := time.Date(2026, 11, 27, 10, 0, 0, 0, time.UTC)

	t.Run("finding 5: a fresh token may write an hour of line rate at once, not more", func(t *testing.T) {
		b := newUsageBudget()
		if b.take("gw", hourOfBytes+1, 0, start) {
			t.Fatal("more than an hour of 10 Gbit/s each way was taken")
		}
		if !b.take("gw", hourOfBytes, 0, start) {
			t.Fatal("an hour of 10 Gbit/s each way was refused")
		}
		if b.take("gw", 1, 0, start) {
			t.Fatal("a byte past the budget was taken in the same instant")
		}
	})

	t.Run("finding 5: it refills at the line rate with the seconds that pass, up to an hour of it", func(t *testing.T) {
		b := newUsageBudget()
		b.take("gw", hourOfBytes, 0, start)
		fiveSeconds := start.Add(5 * time.Second)
		if b.take("gw", 5*gatewayBytesPerSecond+1e6, 0, fiveSeconds) {
			t.Fatal("more than 5 seconds of line rate was taken 5 seconds later")
		}
		if !b.take("gw", 5*gatewayBytesPerSecond, 0, fiveSeconds) {
			t.Fatal("5 seconds of line rate was refused 5 seconds later")
		}
		dayLater := fiveSeconds.Add(24 * time.Hour)
		if b.take("gw", hourOfBytes+1, 0, dayLater) {
			t.Fatal("a day's pause saved up more than an hour")
		}
		if !b.take("gw", hourOfBytes, 0, dayLater) {
			t.Fatal("a day's pause did not fill the budget")
		}
	})

	t.Run("finding 5: connections have their own bound, and each token its own budget; a refused batch takes nothing", func(t *testing.T) {
		b := newUsageBudget()
		if b.take("gw", 1, gatewayConnectionsPerSecond*usageBudgetSeconds+1, start) {
			t.Fatal("more than an hour of connections was taken")
		}
		if !b.take("gw", hourOfBytes, 0, start) {
			t.Fatal("the refused batch took from the budget")
		}
		if !b.take("other", hourOfBytes, 0, start) {
			t.Fatal("another token's budget was spent")
		}
	})
}
