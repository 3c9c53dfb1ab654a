// Authorisation: which grant a connection's credentials open, or why it is refused.

package gateway

import (
	"net"
	"net/netip"
	"strings"
	"time"
)

// refusal is why a connection is not served, in words a customer can act on.
type refusal struct {
	status int  // HTTP status
	socks  byte // SOCKS5 reply code (after authentication)
	text   string
}

var (
	refusedCredentials = &refusal{407, 0, "Proxy authentication required: use the username and password of an active proxy."}
	refusedPort        = &refusal{407, 0, "This proxy's type is not served on this port."}
	refusedClient      = &refusal{407, 0, "This proxy does not accept connections from your address (IP allowlist)."}
)

// authorize finds the grant for credentials given on `port` from `client`. Credentials it
// does not know make it catch up with the source first (a proxy bought a moment ago works
// at once), unless the same ones failed so just before; an address with too many failures
// is refused without looking.
func (g *Gateway) authorize(username, password string, port Port, client netip.Addr) (*Grant, Options, *refusal) {
	source, started := sourceOf(client), time.Now()
	if wait := g.failures.blockedFor(source, started); wait > 0 {
		return nil, Options{}, refusedGuessing(wait)
	}
	grant, opts, refused := g.authorizeNow(username, password, port, client)
	if refused != refusedCredentials {
		return grant, opts, refused
	}
	miss := missKey(username, password)
	if !g.misses.recent(miss, started) && g.catchUp(started) {
		grant, opts, refused = g.authorizeNow(username, password, port, client)
	}
	if refused == refusedCredentials {
		now := time.Now()
		g.misses.add(miss, now)
		g.failures.add(source, now)
	}
	return grant, opts, refused
}

func (g *Gateway) authorizeNow(username, password string, port Port, client netip.Addr) (*Grant, Options, *refusal) {
	grant := g.index.Authenticate(username, password)
	opts := Options{}
	if grant == nil {
		base, parsed, err := splitUsername(username)
		if err != nil {
			return nil, opts, &refusal{407, 0, "Proxy authentication failed: " + err.Error() + "."}
		}
		if parsed.empty() {
			return nil, opts, refusedCredentials
		}
		grant = g.index.Authenticate(base, password)
		if grant == nil {
			return nil, opts, refusedCredentials
		}
		if grant.Type != "RESIDENTIAL" {
			return nil, opts, &refusal{407, 0, "Username options (-session, -sesstime, -country) are for RESIDENTIAL proxies only."}
		}
		if parsed.Country != "" && grant.Country != "" && !strings.EqualFold(parsed.Country, grant.Country) {
			return nil, opts, &refusal{407, 0, "-country-" + parsed.Country + " is outside the location this proxy was bought for."}
		}
		opts = parsed
	}
	if grant.expired(time.Now()) {
		return nil, opts, refusedCredentials
	}
	if !grant.allowsPort(port) {
		return nil, opts, refusedPort
	}
	if !grant.allowsClient(client) {
		return nil, opts, refusedClient
	}
	return grant, opts, nil
}

func clientAddr(c net.Conn) netip.Addr {
	if ap, err := netip.ParseAddrPort(c.RemoteAddr().String()); err == nil {
		return ap.Addr().Unmap()
	}
	return netip.Addr{}
}
