// SQLSource's rows: the columns of a proxy and its owner, read into Records (passwords
// opened, dates parsed, allowlists read).

package gateway

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/netip"
	"strings"
	"time"

	"github.com/pocketbase/pocketbase/tools/security"
)

const recordColumns = `p.id, p.username, p.password_encrypted, p.type, p.status, p.expires_at,
  p.assigned_to_user_id, p.country, p.state, p.city, p.exit, p.bind_address, p.upstream_host,
  p.upstream_port, p.upstream_username, p.upstream_password_encrypted, p.upstream_failed_at,
  COALESCE(u.suspended, 0) AS owner_suspended, COALESCE(u.deleted, 0) AS owner_deleted,
  COALESCE(u.ip_allowlist, '') AS owner_allowlist, p.bandwidth_quota_bytes, p.max_connections`

const recordFrom = ` FROM proxies p LEFT JOIN users u ON u.id = p.assigned_to_user_id`

type recordRow struct {
	ID                        string `db:"id"`
	Username                  string `db:"username"`
	PasswordEncrypted         string `db:"password_encrypted"`
	Type                      string `db:"type"`
	Status                    string `db:"status"`
	ExpiresAt                 string `db:"expires_at"`
	Owner                     string `db:"assigned_to_user_id"`
	Country                   string `db:"country"`
	State                     string `db:"state"`
	City                      string `db:"city"`
	Exit                      string `db:"exit"`
	BindAddress               string `db:"bind_address"`
	UpstreamHost              string `db:"upstream_host"`
	UpstreamPort              int    `db:"upstream_port"`
	UpstreamUsername          string `db:"upstream_username"`
	UpstreamPasswordEncrypted string `db:"upstream_password_encrypted"`
	UpstreamFailedAt          string `db:"upstream_failed_at"`
	OwnerSuspended            bool   `db:"owner_suspended"`
	OwnerDeleted              bool   `db:"owner_deleted"`
	OwnerAllowlist            string `db:"owner_allowlist"`
	QuotaBytes                int64  `db:"bandwidth_quota_bytes"`
	MaxConnections            int    `db:"max_connections"`
}

// skip logs a row the gateway cannot read: one damaged row must not stop it following
// every other change.
func (s *SQLSource) skip(id string, err error) {
	if s.Logger != nil {
		s.Logger.Error("gateway: a proxy row cannot be read; its credentials are refused", "proxy", id, "error", err)
	}
}

// records turns rows into records: passwords opened (only those the gateway needs: the
// customer's of ASSIGNED proxies, the upstream's of upstream exits), dates parsed.
func (s *SQLSource) records(rows []recordRow) ([]Record, error) {
	out := make([]Record, 0, len(rows))
	for _, r := range rows {
		rec := Record{
			ID:             r.ID,
			Username:       r.Username,
			Type:           r.Type,
			Status:         r.Status,
			OwnerID:        r.Owner,
			OwnerBlocked:   r.OwnerSuspended || r.OwnerDeleted,
			Country:        r.Country,
			State:          r.State,
			City:           r.City,
			UpstreamFailed: r.UpstreamFailedAt != "",
			QuotaBytes:     r.QuotaBytes,
			MaxConnections: r.MaxConnections,
		}
		if r.ExpiresAt != "" {
			t, err := time.Parse(pbDate, r.ExpiresAt)
			if err != nil {
				s.skip(r.ID, fmt.Errorf("expires_at %q: %w", r.ExpiresAt, err))
				rec.Status = "UNREADABLE" // no grant: refused rather than served forever
			}
			rec.ExpiresAt = t
		}
		rec.Allowlist = parseAllowlist(r.OwnerAllowlist)
		if r.Status == "ASSIGNED" {
			plain, err := OpenSealed(r.PasswordEncrypted, s.Key)
			if err != nil {
				s.skip(r.ID, err)
			}
			rec.Password = plain // "" when unreadable: no grant
		}
		rec.Exit = Exit{ProxyID: r.ID, BindAddr: r.BindAddress, SOCKS: r.Type == "SOCKS5"}
		if r.Exit == "upstream" {
			plain, err := OpenSealed(r.UpstreamPasswordEncrypted, s.Key)
			if err != nil {
				s.skip(r.ID, fmt.Errorf("upstream: %w", err))
			}
			rec.Exit = Exit{ProxyID: r.ID, Upstream: true, Host: r.UpstreamHost, Port: r.UpstreamPort,
				Username: r.UpstreamUsername, Password: plain, SOCKS: r.Type == "SOCKS5"}
		}
		out = append(out, rec)
	}
	return out, nil
}

// OpenSealed opens a password sealed by pb_hooks/lib/core/sealing.js ("v1:" +
// PocketBase's security.Encrypt, AES-256-GCM under SHOP_CREDENTIALS_KEY).
func OpenSealed(sealed, key string) (string, error) {
	if sealed == "" {
		return "", nil
	}
	rest, ok := strings.CutPrefix(sealed, "v1:")
	if !ok {
		return "", errors.New("a stored password is not in a known encrypted form")
	}
	plain, err := security.Decrypt(rest, key)
	if err != nil {
		return "", errors.New("a stored password cannot be decrypted with SHOP_CREDENTIALS_KEY")
	}
	return string(plain), nil
}

// parseAllowlist reads users.ip_allowlist (a JSON list of addresses and CIDR ranges).
func parseAllowlist(text string) []netip.Prefix {
	if text == "" || text == "null" {
		return nil
	}
	entries := []string{}
	if err := json.Unmarshal([]byte(text), &entries); err != nil {
		// Unreadable: allow nobody rather than everybody.
		return []netip.Prefix{netip.PrefixFrom(netip.IPv6Unspecified(), 128)}
	}
	prefixes, bad := ParsePrefixes(strings.Join(entries, "\n"))
	if len(bad) > 0 && len(prefixes) == 0 {
		return []netip.Prefix{netip.PrefixFrom(netip.IPv6Unspecified(), 128)}
	}
	return prefixes
}
