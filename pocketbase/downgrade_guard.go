package main

// The downgrade refusal (issue #17, "Upgrades and service"): a binary whose migrations do
// not include every migration already applied to the data dir (a newer shop ran on it)
// refuses to start, before it opens the database, runs a migration or serves anything. An older
// shop on a newer schema would misread the data (missing fields, rules it does not know),
// and PocketBase itself would carry on silently.
//
// It covers every command that opens the data dir (serve, superuser-from-env, admin-setup,
// collections, PocketBase's superuser ...) but PocketBase's own `migrate` tool, which is
// how an operator deliberately moves between versions: the newer binary's `migrate down`
// reverts its migrations (deleting their _migrations rows) so an older one then starts, and
// `migrate history-sync` forgets migrations this binary does not know.

import (
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/pocketbase/dbx"
	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tools/hook"
	"github.com/spf13/cobra"
)

// exit is os.Exit (a test replaces it).
var exit = os.Exit

// downgradeGuardHook runs first on bootstrap, before PocketBase opens the data dir (and so
// before any migration, system or app, and before serving): on a newer shop's database it
// prints the refusal and exits 1. Bootstrap runs once the command is known (PocketBase's
// Start has added serve and superuser to root) and is skipped for help, version and
// unknown commands.
func downgradeGuardHook(root *cobra.Command) *hook.Handler[*core.BootstrapEvent] {
	return &hook.Handler[*core.BootstrapEvent]{
		Id:       "shopDowngradeGuard",
		Priority: -1000,
		Func: func(e *core.BootstrapEvent) error {
			if err := refuseDowngrade(root, os.Args[1:], e.App.DataDir()); err != nil {
				fmt.Fprintln(os.Stderr, err)
				exit(1)
				return err // (tests only: exit returns)
			}
			return e.Next()
		},
	}
}

// refuseDowngrade returns the refusal when the command named by args opens the data dir and
// the data dir's database records a migration that neither PocketBase's system migrations
// nor this build's migrations dir (core.AppMigrations, registered by jsvm) know.
func refuseDowngrade(root *cobra.Command, args []string, dataDir string) error {
	if !guardedCommand(root, args) {
		return nil
	}
	known := map[string]bool{}
	for _, list := range []core.MigrationsList{core.SystemMigrations, core.AppMigrations} {
		for _, m := range list.Items() {
			known[m.File] = true
		}
	}
	unknown, err := unknownAppliedMigrations(filepath.Join(dataDir, "data.db"), known)
	if err != nil {
		return fmt.Errorf("cannot check the migrations applied to %s: %w", dataDir, err)
	}
	if len(unknown) > 0 {
		return errors.New(downgradeMessage(unknown))
	}
	return nil
}

// guardedCommand says whether the command (os.Args[1:]) is checked: everything that opens
// the data dir but the `migrate` tree (help, version and unknown commands open nothing).
func guardedCommand(root *cobra.Command, args []string) bool {
	for _, arg := range args {
		if arg == "-h" || arg == "--help" || arg == "-v" || arg == "--version" {
			return false
		}
	}
	cmd, _, err := root.Find(args)
	if err != nil {
		return false
	}
	for c := cmd; c != nil && c != root; c = c.Parent() {
		if c.Name() == "migrate" && c.Parent() == root {
			return false
		}
	}
	return true
}

// unknownAppliedMigrations lists, sorted, the _migrations rows of the database at dbPath
// that are not in known. A missing database or one without _migrations (a new data dir)
// has none. The check only reads; it opens the database read-write nonetheless, so that
// closing it, as the last connection, removes the -wal and -shm files SQLite makes (a
// read-only connection would leave them behind in a data dir it did not change).
func unknownAppliedMigrations(dbPath string, known map[string]bool) ([]string, error) {
	if info, err := os.Stat(dbPath); errors.Is(err, os.ErrNotExist) || (err == nil && info.Size() == 0) {
		return nil, nil
	} else if err != nil {
		return nil, err
	}
	db, err := dbx.Open("sqlite", dbPath+"?_pragma=busy_timeout(10000)")
	if err != nil {
		return nil, err
	}
	defer db.Close()

	var table string
	err = db.NewQuery("SELECT name FROM sqlite_master WHERE type = 'table' AND name = {:name}").
		Bind(dbx.Params{"name": core.DefaultMigrationsTable}).Row(&table)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	} else if err != nil {
		return nil, err
	}

	var applied []string
	if err := db.Select("file").From(core.DefaultMigrationsTable).Column(&applied); err != nil {
		return nil, err
	}
	unknown := []string{}
	for _, file := range applied {
		if !known[file] {
			unknown = append(unknown, file)
		}
	}
	sort.Strings(unknown)
	return unknown, nil
}

// downgradeMessage is what the shop prints (and exits 1) when it meets a newer database.
func downgradeMessage(unknown []string) string {
	what := "migration " + unknown[0] + " is"
	if len(unknown) > 1 {
		what = "migrations " + strings.Join(unknown, ", ") + " are"
	}
	return "This data was last run by a newer version of the shop (" + what + " unknown to this one). " +
		"Run that version or newer, or restore a backup made by this version."
}
