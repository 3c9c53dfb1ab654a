package webhooks

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"github.com/pocketbase/dbx"
	"github.com/pocketbase/pocketbase/tools/types"

	"proxyshop/pocketbase/gateway"
)

// UserAgent names the shop to receivers.
const UserAgent = "ProxyShop-Webhooks/1.0 (+https://www.standardwebhooks.com/)"

// Config is a dispatcher's database, key, guard and timings.
type Config struct {
	Read  dbx.Builder // concurrent reads (PocketBase's ConcurrentDB)
	Write dbx.Builder // PocketBase's single writer (NonconcurrentDB)
	Key   string      // SHOP_CREDENTIALS_KEY: opens the sealed endpoint secrets
	// Open lets deliveries reach loopback and private addresses: only in the embedded
	// default (everything on one machine) and in tests.
	Open   bool
	Logger *slog.Logger
	// RetryBase is the first retry's delay (default 5 s); the schedule and window scale with it.
	RetryBase time.Duration
	// PollInterval: how often due rows are looked for (default 200 ms).
	PollInterval time.Duration
	// Concurrency: deliveries in flight at once (default 8).
	Concurrency int
	// Timeout bounds one attempt: connect, TLS, request and answer (default 10 s).
	Timeout time.Duration
	// Client replaces the guarded HTTP client (tests).
	Client *http.Client
}

// Dispatcher sends due deliveries until closed.
type Dispatcher struct {
	cfg      Config
	client   *http.Client
	slots    chan struct{}
	inflight sync.WaitGroup
	ctx      context.Context
	cancel   context.CancelFunc
	stop     chan struct{}
	done     chan struct{}
	once     sync.Once
}

// New makes a dispatcher; Start runs it.
func New(cfg Config) *Dispatcher {
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if cfg.RetryBase <= 0 {
		cfg.RetryBase = DefaultRetryBase
	}
	if cfg.PollInterval <= 0 {
		cfg.PollInterval = 200 * time.Millisecond
	}
	if cfg.Concurrency <= 0 {
		cfg.Concurrency = 8
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = 10 * time.Second
	}
	client := cfg.Client
	if client == nil {
		client = NewClient(gateway.NewGuard(cfg.Open), cfg.Timeout)
	}
	ctx, cancel := context.WithCancel(context.Background())
	return &Dispatcher{
		cfg:    cfg,
		client: client,
		slots:  make(chan struct{}, cfg.Concurrency),
		ctx:    ctx,
		cancel: cancel,
		stop:   make(chan struct{}),
		done:   make(chan struct{}),
	}
}

// dbTime is a moment as PocketBase stores dates ("2006-01-02 15:04:05.000Z"), so SQL compares text.
func dbTime(t time.Time) string {
	return t.UTC().Format(types.DefaultDateLayout)
}

// Start takes back the deliveries a previous run left "delivering" (a crash or a kill
// mid-send: at-least-once, as Standard Webhooks expects) and starts polling.
func (d *Dispatcher) Start() error {
	if _, err := d.cfg.Write.NewQuery("UPDATE webhook_deliveries SET status = 'pending', updated = {:now} WHERE status = 'delivering'").
		Bind(dbx.Params{"now": dbTime(time.Now())}).Execute(); err != nil {
		return fmt.Errorf("the webhook queue cannot be read: %w", err)
	}
	go d.run()
	return nil
}

// Close stops polling, gives the deliveries in flight a few seconds to finish, then
// cancels the rest: those stay "delivering" and are sent again on the next start.
func (d *Dispatcher) Close() {
	d.once.Do(func() {
		close(d.stop)
		<-d.done
		finished := make(chan struct{})
		go func() {
			d.inflight.Wait()
			close(finished)
		}()
		select {
		case <-finished:
		case <-time.After(3 * time.Second):
			d.cancel()
			<-finished
		}
		d.cancel()
	})
}

func (d *Dispatcher) run() {
	defer close(d.done)
	ticker := time.NewTicker(d.cfg.PollInterval)
	defer ticker.Stop()
	lastRescue := time.Now()
	for {
		d.poll()
		if time.Since(lastRescue) > time.Minute {
			lastRescue = time.Now()
			d.rescueStale()
		}
		select {
		case <-d.stop:
			return
		case <-ticker.C:
		}
	}
}
