package webhooks

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

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

// job is one claimed delivery with what sending it needs.
type job struct {
	ID        string `db:"id"`
	MessageID string `db:"message_id"`
	Payload   string `db:"payload"`
	Attempts  int    `db:"attempts"`
	Created   string `db:"created"`
	URL       string `db:"url"`
	Secret    string `db:"secret"`
	Enabled   bool   `db:"enabled"`
}

// poll claims as many due deliveries as there are free slots and sends them. When nothing
// is due it costs one read on the (status, next_attempt_at) index.
func (d *Dispatcher) poll() {
	free := cap(d.slots) - len(d.slots)
	if free <= 0 {
		return
	}
	now := dbTime(time.Now())
	due := []string{}
	err := d.cfg.Read.NewQuery("SELECT id FROM webhook_deliveries WHERE status = 'pending' AND next_attempt_at <= {:now} ORDER BY next_attempt_at LIMIT {:n}").
		Bind(dbx.Params{"now": now, "n": free}).Column(&due)
	if err != nil {
		d.cfg.Logger.Warn("webhooks: cannot read the queue", "error", err.Error())
		return
	}
	if len(due) == 0 {
		return
	}
	params := dbx.Params{"now": now}
	in := make([]string, len(due))
	for i, id := range due {
		name := fmt.Sprintf("id%d", i)
		params[name] = id
		in[i] = "{:" + name + "}"
	}
	claimed := []string{}
	err = d.cfg.Write.NewQuery("UPDATE webhook_deliveries SET status = 'delivering', updated = {:now} WHERE status = 'pending' AND id IN (" +
		strings.Join(in, ", ") + ") RETURNING id").Bind(params).Column(&claimed)
	if err != nil {
		d.cfg.Logger.Warn("webhooks: cannot claim deliveries", "error", err.Error())
		return
	}
	if len(claimed) == 0 {
		return
	}
	jobs := []job{}
	params = dbx.Params{}
	in = in[:0]
	for i, id := range claimed {
		name := fmt.Sprintf("id%d", i)
		params[name] = id
		in = append(in, "{:"+name+"}")
	}
	err = d.cfg.Read.NewQuery(`SELECT d.id, d.message_id, d.payload, d.attempts, d.created,
		COALESCE(e.url, '') AS url, COALESCE(e.secret, '') AS secret, COALESCE(e.enabled, FALSE) AS enabled
		FROM webhook_deliveries d LEFT JOIN webhook_endpoints e ON e.id = d.endpoint
		WHERE d.id IN (` + strings.Join(in, ", ") + ")").Bind(params).All(&jobs)
	if err != nil {
		// Left "delivering": rescueStale hands them back within minutes.
		d.cfg.Logger.Warn("webhooks: cannot read claimed deliveries", "error", err.Error())
		return
	}
	for _, j := range jobs {
		d.slots <- struct{}{}
		d.inflight.Add(1)
		go func(j job) {
			defer func() {
				<-d.slots
				d.inflight.Done()
			}()
			d.deliver(j)
		}(j)
	}
}

// rescueStale hands back rows left "delivering" far longer than an attempt can take (a
// write of an outcome that failed).
func (d *Dispatcher) rescueStale() {
	cutoff := dbTime(time.Now().Add(-(d.cfg.Timeout + 2*time.Minute)))
	if _, err := d.cfg.Write.NewQuery("UPDATE webhook_deliveries SET status = 'pending', updated = {:now} WHERE status = 'delivering' AND updated < {:cutoff}").
		Bind(dbx.Params{"now": dbTime(time.Now()), "cutoff": cutoff}).Execute(); err != nil {
		d.cfg.Logger.Warn("webhooks: cannot rescue stale deliveries", "error", err.Error())
	}
}

// result is one attempt's outcome.
type result struct {
	sent       bool // an attempt was made (false: nothing to send to)
	ok         bool
	statusCode int
	ms         int64
	err        string
}

func (d *Dispatcher) deliver(j job) {
	if !j.Enabled || j.URL == "" {
		d.record(j, result{err: "The endpoint is disabled or was deleted: nothing was sent."})
		return
	}
	r := d.attempt(j)
	if d.ctx.Err() != nil {
		return // shutting down: left "delivering", sent again on the next start
	}
	d.record(j, r)
}

// attempt signs and sends one delivery.
func (d *Dispatcher) attempt(j job) result {
	secret, err := gateway.OpenSealed(j.Secret, d.cfg.Key)
	if err != nil {
		return result{sent: true, err: "The endpoint's signing secret cannot be opened with SHOP_CREDENTIALS_KEY: nothing was sent."}
	}
	body := []byte(j.Payload)
	now := time.Now()
	signature, err := Sign(secret, j.MessageID, now, body)
	if err != nil {
		return result{sent: true, err: "The endpoint's signing secret is malformed: nothing was sent."}
	}
	ctx, cancel := context.WithTimeout(d.ctx, d.cfg.Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, j.URL, bytes.NewReader(body))
	if err != nil {
		return result{sent: true, err: shorten("The endpoint's URL cannot be used: " + err.Error())}
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", UserAgent)
	req.Header.Set("webhook-id", j.MessageID)
	req.Header.Set("webhook-timestamp", fmt.Sprint(now.Unix()))
	req.Header.Set("webhook-signature", signature)

	started := time.Now()
	resp, err := d.client.Do(req)
	if err != nil {
		return result{sent: true, ms: time.Since(started).Milliseconds(), err: d.describe(err)}
	}
	defer resp.Body.Close()
	head, _ := io.ReadAll(io.LimitReader(resp.Body, 200))
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10)) // lets the connection be reused
	ms := time.Since(started).Milliseconds()
	if resp.StatusCode >= 200 && resp.StatusCode < 300 {
		return result{sent: true, ok: true, statusCode: resp.StatusCode, ms: ms}
	}
	message := fmt.Sprintf("HTTP %d", resp.StatusCode)
	if text := printable(head); text != "" {
		message += ": " + text
	}
	return result{sent: true, statusCode: resp.StatusCode, ms: ms, err: shorten(message)}
}

// describe is a failed request in a line for the customer.
func (d *Dispatcher) describe(err error) string {
	var refused *RefusedAddressError
	if errors.As(err, &refused) {
		return shorten(refused.Error())
	}
	var netErr net.Error
	if errors.Is(err, context.DeadlineExceeded) || (errors.As(err, &netErr) && netErr.Timeout()) {
		return fmt.Sprintf("Timed out: no answer within %d s.", int(d.cfg.Timeout/time.Second))
	}
	var urlErr *url.Error
	if errors.As(err, &urlErr) {
		err = urlErr.Err
	}
	return shorten(err.Error())
}

// record writes an attempt's outcome: succeeded, pending with the next attempt's time, or
// failed once the 24 hours have passed.
func (d *Dispatcher) record(j job, r result) {
	now := time.Now()
	attempts := j.Attempts
	if r.sent {
		attempts++
	}
	params := dbx.Params{
		"id": j.ID, "now": dbTime(now), "attempts": attempts, "code": r.statusCode, "ms": r.ms, "error": r.err,
	}
	var query string
	switch {
	case r.ok:
		query = `UPDATE webhook_deliveries SET status = 'succeeded', attempts = {:attempts}, last_attempt_at = {:now},
			last_status_code = {:code}, last_response_ms = {:ms}, last_error = '', delivered_at = {:now},
			next_attempt_at = '', updated = {:now} WHERE id = {:id}`
	case !r.sent:
		query = `UPDATE webhook_deliveries SET status = 'failed', last_error = {:error}, next_attempt_at = '',
			updated = {:now} WHERE id = {:id}`
	default:
		created, err := types.ParseDateTime(j.Created)
		next, retry := NextAttempt(attempts, created.Time(), now, d.cfg.RetryBase)
		if err != nil || created.IsZero() {
			retry = false
		}
		params["status"] = "failed"
		params["next"] = ""
		if retry {
			params["status"] = "pending"
			params["next"] = dbTime(next)
		}
		query = `UPDATE webhook_deliveries SET status = {:status}, attempts = {:attempts}, last_attempt_at = {:now},
			last_status_code = {:code}, last_response_ms = {:ms}, last_error = {:error}, next_attempt_at = {:next},
			updated = {:now} WHERE id = {:id}`
	}
	if _, err := d.cfg.Write.NewQuery(query).Bind(params).Execute(); err != nil {
		d.cfg.Logger.Warn("webhooks: cannot record a delivery's outcome", "delivery", j.ID, "error", err.Error())
	}
}

// printable is the start of an answer's body as one line of text.
func printable(b []byte) string {
	if !utf8.Valid(b) {
		b = bytes.ToValidUTF8(b, []byte("?"))
	}
	return strings.TrimSpace(strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f {
			return ' '
		}
		return r
	}, string(b)))
}

// shorten keeps last_error within its 500 characters.
func shorten(s string) string {
	const max = 500
	if utf8.RuneCountInString(s) <= max {
		return s
	}
	runes := []rune(s)
	return string(runes[:max-1]) + "…"
}
