package main

// `pocketbase admin-setup [--email E] [--if-no-admin]`: the first administrator on a real
// host (issue #17). It applies the migrations, makes a one-time setup token (valid for 30
// minutes, optionally for one e-mail address), stores only its SHA-256 in
// admin_setup_tokens and prints the token alone on stdout. With --if-no-admin it prints
// nothing when a shop admin (a users record with is_admin) exists already. With --status
// it makes no token and changes nothing (no migration either): it prints "admin" or
// "no-admin" (for `npm run doctor`).
// server/admin-setup.ts runs it for the start banner and `admin create <email>`; the page
// /console/setup?token=... spends the token (pb_hooks/lib/accounts/admin-setup.js).

import (
	"errors"
	"fmt"
	"net/mail"
	"strings"
	"time"

	"github.com/pocketbase/dbx"
	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tools/security"
	"github.com/pocketbase/pocketbase/tools/types"
	"github.com/spf13/cobra"
)

const (
	// adminSetupValidity is how long a setup token works.
	adminSetupValidity = 30 * time.Minute
	// adminSetupTokenLength random characters of A-Z a-z 0-9: about 256 bits.
	adminSetupTokenLength = 43
)

func adminSetupCommand(app core.App) *cobra.Command {
	var email string
	var ifNoAdmin, status bool
	cmd := shopCommand("admin-setup", "Prints a one-time token for /console/setup?token=... that creates a shop administrator (valid 30 minutes)", func() error {
		if status {
			if adminExists(app) {
				fmt.Println("admin")
			} else {
				fmt.Println("no-admin")
			}
			return nil
		}
		token, err := makeAdminSetupToken(app, email, ifNoAdmin)
		if err != nil {
			return err
		}
		if token != "" {
			fmt.Println(token)
		}
		return nil
	})
	cmd.Flags().StringVar(&email, "email", "", "the only e-mail address the new administrator may use")
	cmd.Flags().BoolVar(&ifNoAdmin, "if-no-admin", false, "print nothing when a shop administrator exists already")
	cmd.Flags().BoolVar(&status, "status", false, `make no token: print "admin" or "no-admin"`)
	return cmd
}

// makeAdminSetupToken returns a new token ("" with ifNoAdmin when an admin exists).
func makeAdminSetupToken(app core.App, email string, ifNoAdmin bool) (string, error) {
	if err := app.RunAllMigrations(); err != nil {
		return "", fmt.Errorf("failed to apply the migrations: %w", err)
	}
	email = strings.ToLower(strings.TrimSpace(email))
	if email != "" {
		if addr, err := mail.ParseAddress(email); err != nil || addr.Address != email || !strings.Contains(email[strings.LastIndex(email, "@"):], ".") {
			return "", fmt.Errorf("%q is not a valid e-mail address", email)
		}
	}
	if ifNoAdmin && adminExists(app) {
		return "", nil
	}
	if email != "" {
		taken, err := app.CountRecords("users", dbx.NewExp("email = {:email} COLLATE NOCASE", dbx.Params{"email": email}))
		if err != nil {
			return "", fmt.Errorf("failed to look up %s: %w", email, err)
		}
		if taken > 0 {
			return "", fmt.Errorf("an account with the e-mail %s exists already: sign in to the console with it, or give it admin rights in User Management", email)
		}
	}

	collection, err := app.FindCachedCollectionByNameOrId("admin_setup_tokens")
	if err != nil {
		return "", fmt.Errorf("failed to find the admin_setup_tokens collection: %w", err)
	}
	token := security.RandomString(adminSetupTokenLength)
	expires, err := types.ParseDateTime(time.Now().Add(adminSetupValidity))
	if err != nil {
		return "", err
	}
	record := core.NewRecord(collection)
	record.Set("token_hash", security.SHA256(token))
	record.Set("email", email)
	record.Set("expires_at", expires)
	if err := app.Save(record); err != nil {
		return "", fmt.Errorf("failed to save the setup token: %w", err)
	}
	// Tokens that can no longer be used are of no further interest (the audit log keeps
	// the admin a token created).
	_, _ = app.DB().NewQuery("DELETE FROM admin_setup_tokens WHERE (used_at != '' OR expires_at <= {:now}) AND id != {:id}").
		Bind(dbx.Params{"now": types.NowDateTime().String(), "id": record.Id}).Execute()
	if token == "" {
		return "", errors.New("failed to make a token")
	}
	return token, nil
}

// adminExists reports whether a users record with is_admin exists (false before the
// migrations made the field).
func adminExists(app core.App) bool {
	admins, err := app.CountRecords("users", dbx.HashExp{"is_admin": true})
	return err == nil && admins > 0
}
