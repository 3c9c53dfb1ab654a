// The delivery queue: due rows claimed in the database, and rows left claimed by a
// dispatcher that stopped put back.

package webhooks

import (
	"fmt"
	"strings"
	"time"

	"github.com/pocketbase/dbx"
)

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
