package gateway

import (
	"crypto/sha256"
	"crypto/subtle"
	"net/netip"
	"slices"
	"strings"
	"sync"
	"time"
)

// Listener kinds: which port a connection came in on.
type Port int

const (
	PortHTTP Port = iota
	PortSOCKS
	PortHTTPS // the HTTP proxy inside TLS
)

// Record is one proxy row as the source reads it, passwords already in plaintext.
type Record struct {
	ID        string    `json:"id"`
	Username  string    `json:"username"`
	Password  string    `json:"password"` // the customer's; "" when not ASSIGNED (not needed)
	Type      string    `json:"type"`     // RESIDENTIAL, DATACENTER, SOCKS5, HTTP, HTTPS
	Status    string    `json:"status"`
	ExpiresAt time.Time `json:"expires_at"` // zero: no expiry
	OwnerID   string    `json:"owner_id"`
	// OwnerBlocked: the owner is suspended or deleted.
	OwnerBlocked bool `json:"owner_blocked"`
	// Allowlist: the owner's allowed client addresses; empty = any.
	Allowlist []netip.Prefix `json:"allowlist"`
	Country   string         `json:"country"`
	State     string         `json:"state"`
	City      string         `json:"city"`
	Exit      Exit           `json:"exit"`
	// UpstreamFailed: the source holds a failure mark for this proxy's upstream.
	UpstreamFailed bool `json:"upstream_failed"`
	// QuotaBytes: bytes a calendar month (UTC), up and down together; 0 = no quota.
	QuotaBytes int64 `json:"quota_bytes"`
	// MaxConnections: concurrent connections; 0 = no cap.
	MaxConnections int `json:"max_connections"`
}

// Exit is where a proxy's traffic leaves the gateway.
type Exit struct {
	ProxyID  string `json:"proxy_id"`
	Upstream bool   `json:"upstream"`     // false: direct from this machine
	BindAddr string `json:"bind_address"` // direct: local address to send from ("" = any)
	Host     string `json:"host"`         // upstream
	Port     int    `json:"port"`
	Username string `json:"username"`
	Password string `json:"password"`
	SOCKS    bool   `json:"socks"` // the upstream speaks SOCKS5 (else HTTP CONNECT)
}

// Grant is what a customer's credentials allow: an ASSIGNED proxy.
type Grant struct {
	ProxyID      string
	OwnerID      string
	Username     string
	passwordHash [32]byte
	Type         string
	ExpiresAt    time.Time
	Allowlist    []netip.Prefix
	Country      string
	State        string
	City         string
	Exit         Exit
	// Limits: a quota lowered below what was used cuts the proxy's tunnels (open tunnels
	// draw on the new quota at once); a lower connection cap applies to new connections.
	QuotaBytes     int64
	MaxConnections int
}

// typePorts: the ports a proxy of each type answers on (SOCKS5 carries CONNECT and UDP
// ASSOCIATE; HTTPS is the HTTP proxy inside TLS). The contract states them
// (src/lib/api-contract/schemas.ts PROXY_TYPE_PORTS, written to pb_hooks/lib/facts.json
// gateway_ports.by_type, which the hooks read to tell customers where to connect);
// facts_test.go holds this table to that file. A gateway on another machine has no hooks
// folder to read it from, so the table is compiled in and the test keeps it honest.
var typePorts = map[string][]Port{
	"RESIDENTIAL": {PortHTTP, PortSOCKS, PortHTTPS},
	"DATACENTER":  {PortHTTP, PortSOCKS, PortHTTPS},
	"SOCKS5":      {PortSOCKS},
	"HTTP":        {PortHTTP},
	"HTTPS":       {PortHTTP, PortHTTPS},
}

// allowsPort: the type's ports (typePorts); a type the table does not name, on both.
func (g *Grant) allowsPort(p Port) bool {
	ports, ok := typePorts[g.Type]
	return !ok || slices.Contains(ports, p)
}

func (g *Grant) expired(now time.Time) bool {
	return !g.ExpiresAt.IsZero() && !now.Before(g.ExpiresAt)
}

func (g *Grant) allowsClient(addr netip.Addr) bool {
	if len(g.Allowlist) == 0 {
		return true
	}
	addr = addr.Unmap()
	for _, p := range g.Allowlist {
		if p.Contains(addr) {
			return true
		}
	}
	return false
}

// sameAccess: everything that decides who may use a grant and where it goes is unchanged,
// so its open tunnels may stay (a renewal changes only the expiry).
func (g *Grant) sameAccess(o *Grant) bool {
	if g.Username != o.Username || g.OwnerID != o.OwnerID || g.passwordHash != o.passwordHash || g.Type != o.Type || g.Exit != o.Exit ||
		len(g.Allowlist) != len(o.Allowlist) || g.Country != o.Country || g.State != o.State || g.City != o.City {
		return false
	}
	for i := range g.Allowlist {
		if g.Allowlist[i] != o.Allowlist[i] {
			return false
		}
	}
	return true
}

// grantOf is the grant of an ASSIGNED proxy whose owner may use it, else nil.
func grantOf(r *Record) *Grant {
	if r.Status != "ASSIGNED" || r.OwnerBlocked || r.Username == "" || r.Password == "" {
		return nil
	}
	return &Grant{
		ProxyID:        r.ID,
		OwnerID:        r.OwnerID,
		QuotaBytes:     r.QuotaBytes,
		MaxConnections: r.MaxConnections,
		Username:       r.Username,
		passwordHash:   sha256.Sum256([]byte(r.Password)),
		Type:           r.Type,
		ExpiresAt:      r.ExpiresAt,
		Allowlist:      r.Allowlist,
		Country:        r.Country,
		State:          r.State,
		City:           r.City,
		Exit:           r.Exit,
	}
}

// poolKey names a RESIDENTIAL pool: the upstreams of one location.
type poolKey struct{ country, state, city string }

// Index holds the grants by username and the RESIDENTIAL upstream pools, in step with the
// source. Safe for concurrent use.
type Index struct {
	mu       sync.RWMutex
	byID     map[string]*Grant
	byName   map[string]*Grant
	upstream map[string]*Record    // RESIDENTIAL proxies with an upstream exit, any status: pool members
	binds    map[string]netip.Addr // the local address each direct exit sends from, any status
}

func NewIndex() *Index {
	return &Index{byID: map[string]*Grant{}, byName: map[string]*Grant{}, upstream: map[string]*Record{}, binds: map[string]netip.Addr{}}
}

// Change says what happened to one proxy's grant when the index was updated.
type Change struct {
	ProxyID string
	// Revoked: the old grant's tunnels must be cut (removed, or access changed).
	Revoked bool
	// Grant: the grant now (nil when there is none).
	Grant *Grant
	// NewTerm: the grant begins a term of ownership (a new owner, or granted again): its
	// quota counts from zero.
	NewTerm bool
}

// Replace loads a full snapshot; every grant that is gone or changed is reported.
func (ix *Index) Replace(records []Record) []Change {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	seen := make(map[string]bool, len(records))
	changes := []Change{}
	for i := range records {
		seen[records[i].ID] = true
		if c, ok := ix.putLocked(&records[i]); ok {
			changes = append(changes, c)
		}
	}
	for id := range ix.byID {
		if !seen[id] {
			changes = append(changes, ix.removeLocked(id))
		}
	}
	for id := range ix.upstream {
		if !seen[id] {
			delete(ix.upstream, id)
		}
	}
	for id := range ix.binds {
		if !seen[id] {
			delete(ix.binds, id)
		}
	}
	return changes
}

// Apply updates the proxies `ids` from `records` (an id without a record was deleted).
func (ix *Index) Apply(ids []string, records []Record) []Change {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	found := make(map[string]bool, len(records))
	changes := []Change{}
	for i := range records {
		found[records[i].ID] = true
		if c, ok := ix.putLocked(&records[i]); ok {
			changes = append(changes, c)
		}
	}
	for _, id := range ids {
		if found[id] {
			continue
		}
		delete(ix.upstream, id)
		delete(ix.binds, id)
		if _, ok := ix.byID[id]; ok {
			changes = append(changes, ix.removeLocked(id))
		}
	}
	return changes
}

func (ix *Index) putLocked(r *Record) (Change, bool) {
	if r.Type == "RESIDENTIAL" && r.Exit.Upstream {
		ix.upstream[r.ID] = r
	} else {
		delete(ix.upstream, r.ID)
	}
	if a, err := netip.ParseAddr(r.Exit.BindAddr); err == nil && !r.Exit.Upstream {
		ix.binds[r.ID] = a
	} else {
		delete(ix.binds, r.ID)
	}
	old := ix.byID[r.ID]
	g := grantOf(r)
	if g == nil {
		if old == nil {
			return Change{}, false
		}
		return ix.removeLocked(r.ID), true
	}
	if old != nil && old.Username != g.Username && ix.byName[old.Username] == old {
		delete(ix.byName, old.Username)
	}
	ix.byID[r.ID] = g
	ix.byName[g.Username] = g
	if old != nil && old.sameAccess(g) && old.ExpiresAt.Equal(g.ExpiresAt) && old.QuotaBytes == g.QuotaBytes && old.MaxConnections == g.MaxConnections {
		return Change{}, false
	}
	return Change{ProxyID: r.ID, Revoked: old != nil && !old.sameAccess(g), Grant: g, NewTerm: old == nil || old.OwnerID != g.OwnerID}, true
}

func (ix *Index) removeLocked(id string) Change {
	if old := ix.byID[id]; old != nil && ix.byName[old.Username] == old {
		delete(ix.byName, old.Username)
	}
	delete(ix.byID, id)
	return Change{ProxyID: id, Revoked: true}
}

// BindAddresses are the local addresses direct exits send from.
func (ix *Index) BindAddresses() []netip.Addr {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	seen := map[netip.Addr]bool{}
	out := []netip.Addr{}
	for _, a := range ix.binds {
		if !seen[a] {
			seen[a] = true
			out = append(out, a)
		}
	}
	return out
}

// Grant is the current grant of a proxy, or nil.
func (ix *Index) Grant(proxyID string) *Grant {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	return ix.byID[proxyID]
}

// Authenticate answers the grant for a username (its options already removed) and
// password, or nil. The comparison takes the same time whether or not the username exists.
func (ix *Index) Authenticate(username, password string) *Grant {
	ix.mu.RLock()
	g := ix.byName[username]
	ix.mu.RUnlock()
	given := sha256.Sum256([]byte(password))
	want := [32]byte{}
	if g != nil {
		want = g.passwordHash
	}
	if subtle.ConstantTimeCompare(given[:], want[:]) != 1 || g == nil {
		return nil
	}
	return g
}

// Pool is the upstream exits of a RESIDENTIAL grant's location, narrowed to `country`
// when given, in a stable order.
func (ix *Index) Pool(g *Grant, country string) []Exit {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	want := poolKey{strings.ToUpper(g.Country), g.State, g.City}
	if country != "" {
		want.country = strings.ToUpper(country)
	}
	exits := []Exit{}
	for _, r := range ix.upstream {
		if want.country != "" && strings.ToUpper(r.Country) != want.country {
			continue
		}
		if want.state != "" && r.State != want.state {
			continue
		}
		if want.city != "" && r.City != want.city {
			continue
		}
		exits = append(exits, r.Exit)
	}
	sortExits(exits)
	return exits
}
