// A tunnel's life after authorisation: dialling its target and relaying until it ends or is cut.

package gateway

import (
	"errors"
	"io"
	"net"
	"time"
)

// dial reaches the target for a grant and meters the attempt.
func (g *Gateway) dial(grant *Grant, opts Options, host string, port int) (*conn, error) {
	started := time.Now()
	target, err := g.dialer.Dial(g.ctx, grant, opts, host, port)
	if err != nil {
		if !errors.Is(err, errTargetRefused) {
			g.meter.failed.Add(1)
			g.meter.of(grant.ProxyID, grant.OwnerID).failed.Add(1)
		}
		return nil, err
	}
	g.meter.connected(time.Since(started))
	return target, nil
}

// open runs a tunnel for a grant between client and target until it ends or is cut.
// oneWay: a plain HTTP request, whose client may send nothing more to the target.
// refuse answers the client in its protocol when the grant was revoked meanwhile.
// greet answers the client and sends what it already had for the target (a plain
// request, bytes sent before CONNECT's answer) through toTarget, which meters them and
// draws them on the proxy's budget. When the budget runs out, every tunnel of the proxy
// ends at its last byte.
func (g *Gateway) open(grant *Grant, client net.Conn, target *conn, oneWay bool, greet func(toTarget io.Writer) error, refuse func(*refusal)) {
	t := &tunnel{proxyID: grant.ProxyID, client: client, target: target.tcp}
	g.tunnels.add(t, grant.ExpiresAt)
	defer g.tunnels.remove(t)
	// A change that landed between authorisation and now: the grant must still be current.
	if current := g.index.Grant(grant.ProxyID); current == nil || !current.sameAccess(grant) {
		target.tcp.Close()
		refuse(refusedCredentials)
		return
	}
	usage := g.meter.of(grant.ProxyID, grant.OwnerID)
	usage.connections.Add(1)
	b := g.quotas.of(grant)
	up := func(n int64) { usage.up.Add(n) }
	down := func(n int64) { usage.down.Add(n) }
	err := greet(&drawingWriter{w: target.tcp, b: b, add: up})
	if err == nil && len(target.pending) > 0 {
		_, err = (&drawingWriter{w: client, b: b, add: down}).Write(target.pending)
	}
	tcp, spliced := client.(*net.TCPConn) // a TLS client is copied through user space
	switch {
	case err != nil:
	case oneWay && spliced:
		err = pump(tcp, target.tcp, b, down)
	case oneWay:
		err = pumpStream(client, target.tcp, b, down)
	case spliced:
		err = relay(tcp, target.tcp, b, up, down)
	default:
		err = relayStream(client, target.tcp, b, up, down)
	}
	t.cut()
	if errors.Is(err, errBudgetSpent) {
		g.tunnels.cut(grant.ProxyID)
	}
}
