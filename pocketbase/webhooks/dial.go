package webhooks

import (
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"syscall"
	"time"

	"proxyshop/pocketbase/gateway"
)

// RefusedAddressError is a connection the guard refused: the endpoint resolved to an
// address webhooks may not reach (private, loopback, link-local, metadata ...).
type RefusedAddressError struct {
	Addr netip.Addr
}

func (e *RefusedAddressError) Error() string {
	return fmt.Sprintf("Refused: the endpoint's address %s is private, loopback, link-local or otherwise not public; webhooks are only sent to public addresses. Nothing was sent.", e.Addr)
}

// GuardControl is a net.Dialer Control func: it runs after name resolution, for every
// address actually dialled, so a name that resolves (or re-resolves: DNS rebinding) to a
// blocked address is refused before any byte is sent.
func GuardControl(guard *gateway.Guard) func(network, address string, c syscall.RawConn) error {
	return func(network, address string, _ syscall.RawConn) error {
		host, _, err := net.SplitHostPort(address)
		if err != nil {
			return err
		}
		addr, err := netip.ParseAddr(host)
		if err != nil {
			return fmt.Errorf("refused to dial %q: not an IP address", host)
		}
		if !guard.Allows(addr) {
			return &RefusedAddressError{Addr: addr.Unmap().WithZone("")}
		}
		return nil
	}
}

// NewClient is the HTTP client deliveries use: every connection goes through the guard,
// no proxy from the environment (it would dial for us, past the guard), redirects are not
// followed (a 3xx is the endpoint's answer), and a whole attempt is bounded by `timeout`.
func NewClient(guard *gateway.Guard, timeout time.Duration) *http.Client {
	dialer := &net.Dialer{Timeout: timeout, KeepAlive: 30 * time.Second, Control: GuardControl(guard)}
	transport := &http.Transport{
		Proxy:                 nil,
		DialContext:           dialer.DialContext,
		ForceAttemptHTTP2:     true,
		MaxIdleConns:          64,
		MaxIdleConnsPerHost:   4,
		IdleConnTimeout:       90 * time.Second,
		TLSHandshakeTimeout:   timeout,
		ResponseHeaderTimeout: timeout,
	}
	return &http.Client{
		Transport: transport,
		Timeout:   timeout,
		CheckRedirect: func(*http.Request, []*http.Request) error {
			return http.ErrUseLastResponse
		},
	}
}
