package gateway

import (
	"crypto/tls"
	"log/slog"
	"time"
)

// Config is what the gateway listens on and how it behaves.
type Config struct {
	HTTPAddr  string // "host:port" of the HTTP proxy listener; "" = off
	SOCKSAddr string // "host:port" of the SOCKS5 listener; "" = off
	// HTTPSAddr is "host:port" of the HTTPS proxy listener (TLS, then the HTTP port's
	// handling), served with TLS; "" = off.
	HTTPSAddr string
	TLS       *tls.Config
	// OpenTargets lets connections reach loopback and private addresses: only when the
	// gateway listens on loopback (the embedded default on one machine).
	OpenTargets  bool
	Realm        string
	PollInterval time.Duration
	// AuthTimeout bounds a connection's first bytes and credentials (default 3 s);
	// HandshakeTimeout the whole handshake after them (default 10 s).
	AuthTimeout      time.Duration
	HandshakeTimeout time.Duration
	DialTimeout      time.Duration
	FlushInterval    time.Duration
	// UDPIdleTimeout ends a SOCKS5 UDP association when no datagram moved for this long
	// (default 2 minutes).
	UDPIdleTimeout time.Duration
	// MaxHandshakes bounds the connections in their handshake at once (default 4096), a
	// backstop behind MaxHandshakesPerSource: the connections of one address (an IPv6 /64)
	// not yet authenticated (default 128).
	MaxHandshakes          int
	MaxHandshakesPerSource int
	// AuthFailureLimit: an address (an IPv6 /64) with this many failed sign-ins within a
	// minute is refused until that minute ends (default 30; negative: no limit).
	AuthFailureLimit int
	// CatchUpEvery bounds how often failed sign-ins may make the gateway read the source's
	// changes at once (default 5 ms; a gateway following the shop over its API: more).
	CatchUpEvery time.Duration
	// MaxStale: without a successful read of the source's changes for this long the
	// gateway refuses new connections until it reads again (default 60 s; negative: never).
	MaxStale time.Duration
	// Name names this gateway in its stats rows (default GATEWAY_NAME or the host name).
	Name   string
	Logger *slog.Logger
}

func (c *Config) defaults() {
	if c.Realm == "" {
		c.Realm = "Proxy gateway"
	}
	if c.PollInterval <= 0 {
		c.PollInterval = 200 * time.Millisecond
	}
	if c.HandshakeTimeout <= 0 {
		c.HandshakeTimeout = 10 * time.Second
	}
	if c.AuthTimeout <= 0 {
		c.AuthTimeout = 3 * time.Second
	}
	c.AuthTimeout = min(c.AuthTimeout, c.HandshakeTimeout)
	if c.MaxHandshakesPerSource <= 0 {
		c.MaxHandshakesPerSource = 128
	}
	if c.AuthFailureLimit == 0 {
		c.AuthFailureLimit = 30
	}
	if c.CatchUpEvery <= 0 {
		c.CatchUpEvery = 5 * time.Millisecond
	}
	if c.MaxStale == 0 {
		c.MaxStale = time.Minute
	}
	if c.DialTimeout <= 0 {
		c.DialTimeout = 10 * time.Second
	}
	if c.UDPIdleTimeout <= 0 {
		c.UDPIdleTimeout = 2 * time.Minute
	}
	if c.MaxHandshakes <= 0 {
		c.MaxHandshakes = 4096
	}
	if c.FlushInterval <= 0 {
		c.FlushInterval = FlushInterval
	}
	if c.Name == "" {
		c.Name = gatewayName()
	}
	if c.Logger == nil {
		c.Logger = slog.Default()
	}
}
