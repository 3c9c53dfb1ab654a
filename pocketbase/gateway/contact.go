package gateway

import (
	"time"
)

// The gateway's contact with the shop. It follows the source's changes every
// PollInterval (follow.go). A brief outage is served from the last snapshot; past MaxStale
// without a successful read it refuses new connections (a revocation it cannot see must not
// be served for long), and a source that refuses the gateway itself (a revoked token: 401,
// 403) stops it: every tunnel is cut and the listeners are closed, so a load balancer sends
// its customers elsewhere.

// stale: no successful read of the source for longer than MaxStale.
func (g *Gateway) stale() bool {
	return g.cfg.MaxStale > 0 && time.Since(time.Unix(0, g.updated.Load())) > g.cfg.MaxStale
}

var refusedStale = &refusal{503, 0x01, "This gateway has lost contact with the shop and cannot check proxies now; try again shortly."}

// refused stops the gateway for good: the shop no longer accepts it.
func (g *Gateway) refused(err error) {
	g.cfg.Logger.Error("gateway: the shop refused this gateway's token (revoked?): every tunnel is cut and no connection is served; make a new token to run it again", "error", err)
	g.stopServing()
	select {
	case g.fatal <- err:
	default:
	}
}

// stopServing closes the listeners and cuts every tunnel.
func (g *Gateway) stopServing() {
	for _, l := range g.listeners {
		l.Close()
	}
	g.tunnels.cutAll()
}

// Refused answers the error the shop refused this gateway with, once it has (a gateway
// alone exits then).
func (g *Gateway) Refused() <-chan error { return g.fatal }
