// One delivery: its attempt, the words its outcome is recorded in, and the row's next state.

package webhooks

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/pocketbase/dbx"
	"github.com/pocketbase/pocketbase/tools/types"

	"proxyshop/pocketbase/gateway"
)

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
