package main

import "github.com/pocketbase/pocketbase/core"

// registerDeveloperAPI binds the /api/v1 middlewares: API keys and problem details (issue #18).
func registerDeveloperAPI(e *core.ServeEvent, hooksDir string) {}
