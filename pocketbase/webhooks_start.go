package main

import (
	"fmt"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/pocketbase/pocketbase/core"

	"proxyshop/pocketbase/webhooks"
)

// startWebhooks starts the customer webhook dispatcher with the web server (issue #18) and
// stops it when the app terminates. WEBHOOK_RETRY_BASE_MS (tests) shortens the retry
// schedule: it is the first retry's delay (default 5000), the others and the 24-hour window
// scale with it.
func startWebhooks(e *core.ServeEvent) error {
	if !e.App.HasTable("webhook_deliveries") {
		// Data whose migrations stop before the webhooks (a restore drill, a migration test).
		e.App.Logger().Warn("webhooks: no webhook_deliveries table, so no deliveries are sent")
		return nil
	}
	base := webhooks.DefaultRetryBase
	if text := strings.TrimSpace(os.Getenv("WEBHOOK_RETRY_BASE_MS")); text != "" {
		ms, err := strconv.Atoi(text)
		if err != nil || ms < 1 {
			return fmt.Errorf("WEBHOOK_RETRY_BASE_MS must be a whole number of milliseconds (1 or more), not %q", text)
		}
		base = time.Duration(ms) * time.Millisecond
	}
	d := webhooks.New(webhooks.Config{
		Read:      e.App.ConcurrentDB(),
		Write:     e.App.NonconcurrentDB(),
		Key:       os.Getenv("SHOP_CREDENTIALS_KEY"),
		Open:      webhooksOpen(),
		Logger:    e.App.Logger(),
		RetryBase: base,
	})
	if err := d.Start(); err != nil {
		return err
	}
	e.App.OnTerminate().BindFunc(func(te *core.TerminateEvent) error {
		d.Close()
		return te.Next()
	})
	return nil
}

// webhooksOpen: deliveries may reach loopback and private addresses only in the embedded
// default, the gateway's notion (gateway_start.go): GATEWAY_HOST (default 127.0.0.1) is a
// loopback address, and SHOP_APP_URL, when set, names a loopback host too (a public shop
// behind a proxy on this machine never counts as embedded). pb_hooks/lib/webhooks/
// endpoint-url.js embeddedDefault decides the same way for the save-time check.
func webhooksOpen() bool {
	host := strings.TrimSpace(os.Getenv("GATEWAY_HOST"))
	if host == "" {
		host = "127.0.0.1"
	}
	if !isLoopbackHost(host) {
		return false
	}
	appURL := strings.TrimSpace(os.Getenv("SHOP_APP_URL"))
	if appURL == "" {
		return true
	}
	u, err := url.Parse(appURL)
	return err == nil && isLoopbackHost(strings.ToLower(u.Hostname()))
}
