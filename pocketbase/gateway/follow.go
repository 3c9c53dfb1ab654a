// Following the source: the first load, the changes after it (each poll, and a catch-up
// when unknown credentials arrive) and what they do to open tunnels.

package gateway

import (
	"fmt"
	"net/netip"
	"time"
)

// reload loads everything from the source.
func (g *Gateway) reload() error {
	g.pollMu.Lock()
	defer g.pollMu.Unlock()
	return g.reloadLocked()
}

func (g *Gateway) reloadLocked() error {
	records, cursor, err := g.credentials.Load(g.ctx)
	if err != nil {
		return err
	}
	for i := range records {
		g.dialer.health.seed(&records[i])
	}
	g.dialer.health.retain(records)
	g.applyChanges(g.index.Replace(records))
	g.cursor = cursor
	g.updated.Store(time.Now().UnixNano())
	g.refreshGuard()
	return nil
}

// refreshGuard gives the guard the ranges an admin allows and the addresses this gateway
// listens on and sends from (never dialled).
func (g *Gateway) refreshGuard() {
	bound := g.index.BindAddresses()
	for _, l := range g.listeners {
		if ap, err := netip.ParseAddrPort(l.Addr().String()); err == nil {
			bound = append(bound, ap.Addr())
		}
	}
	g.guard.SetBound(bound)
	prefixes, err := g.credentials.AllowedRanges(g.ctx)
	if err != nil {
		g.cfg.Logger.Warn("gateway: cannot read the allowed target ranges", "error", err)
		return
	}
	g.guard.SetAllowed(prefixes)
}

// catchUp makes sure a poll that began after `since` has finished (a login that failed
// at `since` then sees every change committed before it: a proxy bought a moment ago
// works at once); it answers whether the index may have changed meanwhile.
func (g *Gateway) catchUp(since time.Time) bool {
	g.pollMu.Lock()
	defer g.pollMu.Unlock()
	if g.lastPoll.After(since) {
		return true // a poll started after the login and has finished (we hold its lock)
	}
	if wait := g.cfg.CatchUpEvery - time.Since(g.lastPoll); wait > 0 {
		time.Sleep(wait)
	}
	return g.pollLocked() == nil
}

func (g *Gateway) poll() error {
	g.pollMu.Lock()
	defer g.pollMu.Unlock()
	return g.pollLocked()
}

func (g *Gateway) pollLocked() error {
	g.lastPoll = time.Now()
	ids, next, reset, err := g.credentials.Changes(g.ctx, g.cursor)
	if err != nil {
		return err
	}
	if reset {
		return g.reloadLocked()
	}
	if len(ids) > 0 {
		records, err := g.credentials.Fetch(g.ctx, ids)
		if err != nil {
			return err
		}
		found := make(map[string]bool, len(records))
		for i := range records {
			g.dialer.health.seed(&records[i])
			found[records[i].ID] = true
		}
		for _, id := range ids {
			if !found[id] {
				g.dialer.health.forget(id)
			}
		}
		g.applyChanges(g.index.Apply(ids, records))
	}
	g.cursor = next
	g.updated.Store(time.Now().UnixNano())
	return nil
}

func (g *Gateway) applyChanges(changes []Change) {
	for _, c := range changes {
		spent := c.Grant != nil && g.quotas.grantChanged(c.Grant, c.NewTerm)
		if c.Revoked || spent {
			g.tunnels.cut(c.ProxyID)
		} else if c.Grant != nil {
			g.tunnels.expireAt(c.ProxyID, c.Grant.ExpiresAt)
		}
	}
}

// follow polls the source for changes until Close or until the source refuses the gateway.
func (g *Gateway) follow() {
	defer g.wg.Done()
	ticker := time.NewTicker(g.cfg.PollInterval)
	defer ticker.Stop()
	lastSettings := time.Now()
	failing, stale := false, false
	for {
		select {
		case <-g.ctx.Done():
			return
		case <-ticker.C:
		}
		err := g.poll()
		if err != nil && g.ctx.Err() == nil {
			if refusedByShop(err) {
				g.refused(err)
				return
			}
			if !failing {
				g.cfg.Logger.Warn("gateway: cannot read changes; serving from the last snapshot", "error", err)
			}
			failing = true
			if !stale && g.stale() {
				stale = true
				g.cfg.Logger.Error(fmt.Sprintf("gateway: no update from the shop for %v; refusing new connections until it answers", g.cfg.MaxStale), "error", err)
			}
			continue
		}
		if failing {
			g.cfg.Logger.Info("gateway: following changes again; serving new connections")
			failing, stale = false, false
		}
		if time.Since(lastSettings) > 2*time.Second {
			g.refreshGuard()
			lastSettings = time.Now()
		}
	}
}
