package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/pocketbase/pocketbase/core"
	"github.com/spf13/cobra"
)

// newDataDir bootstraps a PocketBase data dir in a temporary directory and applies the
// system migrations plus `extra` (recorded in _migrations like a JS migration of a newer
// shop). It returns the app (closed by the test's cleanup) and the runner of `extra`.
func newDataDir(t *testing.T, extra ...string) (core.App, *core.MigrationsRunner) {
	t.Helper()
	app := core.NewBaseApp(core.BaseAppConfig{DataDir: t.TempDir()})
	if err := app.Bootstrap(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = app.ResetBootstrapState() })
	list := core.MigrationsList{}
	list.Copy(core.SystemMigrations)
	for _, file := range extra {
		list.Register(func(txApp core.App) error {
			_, err := txApp.DB().NewQuery("CREATE TABLE IF NOT EXISTS newer_" + file[:10] + " (id TEXT)").Execute()
			return err
		}, func(txApp core.App) error {
			_, err := txApp.DB().NewQuery("DROP TABLE IF EXISTS newer_" + file[:10]).Execute()
			return err
		}, file)
	}
	runner := core.NewMigrationsRunner(app, list)
	if _, err := runner.Up(); err != nil {
		t.Fatal(err)
	}
	return app, runner
}

func knownToThisBuild() map[string]bool {
	known := map[string]bool{}
	for _, m := range core.SystemMigrations.Items() {
		known[m.File] = true
	}
	return known
}

func TestUnknownAppliedMigrations(t *testing.T) {
	t.Run("a data dir this build migrated passes", func(t *testing.T) {
		app, _ := newDataDir(t)
		unknown, err := unknownAppliedMigrations(filepath.Join(app.DataDir(), "data.db"), knownToThisBuild())
		if err != nil || len(unknown) != 0 {
			t.Fatalf("got %v, %v; want none", unknown, err)
		}
	})

	t.Run("a newer shop's migrations are named, sorted", func(t *testing.T) {
		app, _ := newDataDir(t, "1764800100_y.js", "1764800000_x.js")
		unknown, err := unknownAppliedMigrations(filepath.Join(app.DataDir(), "data.db"), knownToThisBuild())
		if err != nil {
			t.Fatal(err)
		}
		if len(unknown) != 2 || unknown[0] != "1764800000_x.js" || unknown[1] != "1764800100_y.js" {
			t.Fatalf("got %v", unknown)
		}
	})

	t.Run("after the newer shop's migrate down the data dir passes again", func(t *testing.T) {
		app, runner := newDataDir(t, "1764800000_x.js")
		if _, err := runner.Down(1); err != nil {
			t.Fatal(err)
		}
		unknown, err := unknownAppliedMigrations(filepath.Join(app.DataDir(), "data.db"), knownToThisBuild())
		if err != nil || len(unknown) != 0 {
			t.Fatalf("got %v, %v; want none", unknown, err)
		}
	})

	t.Run("a new data dir has nothing to check and is not created", func(t *testing.T) {
		dbPath := filepath.Join(t.TempDir(), "data.db")
		unknown, err := unknownAppliedMigrations(dbPath, knownToThisBuild())
		if err != nil || len(unknown) != 0 {
			t.Fatalf("got %v, %v; want none", unknown, err)
		}
		if _, err := os.Stat(dbPath); !os.IsNotExist(err) {
			t.Fatalf("the check created %s", dbPath)
		}
	})
}

func TestDowngradeMessage(t *testing.T) {
	one := "This data was last run by a newer version of the shop (migration 1764800000_x.js is unknown to this one). Run that version or newer, or restore a backup made by this version."
	if got := downgradeMessage([]string{"1764800000_x.js"}); got != one {
		t.Fatalf("got %q", got)
	}
	two := "This data was last run by a newer version of the shop (migrations 1764800000_x.js, 1764800100_y.js are unknown to this one). Run that version or newer, or restore a backup made by this version."
	if got := downgradeMessage([]string{"1764800000_x.js", "1764800100_y.js"}); got != two {
		t.Fatalf("got %q", got)
	}
}

func TestRefuseDowngrade(t *testing.T) {
	app, _ := newDataDir(t, "1764800000_x.js")
	noop := func(*cobra.Command, []string) {}
	root := &cobra.Command{Use: "pocketbase"}
	migrate := &cobra.Command{Use: "migrate", Run: noop}
	root.AddCommand(
		&cobra.Command{Use: "serve", Run: noop},
		&cobra.Command{Use: "superuser-from-env", Run: noop},
		&cobra.Command{Use: "admin-setup", Run: noop},
		migrate,
	)

	for _, args := range [][]string{{"serve", "--http=127.0.0.1:8090"}, {"--dir=x", "superuser-from-env"}, {"admin-setup", "--status"}, {}} {
		err := refuseDowngrade(root, args, app.DataDir())
		if err == nil || err.Error() != downgradeMessage([]string{"1764800000_x.js"}) {
			t.Errorf("%v: got %v, want the downgrade message", args, err)
		}
	}
	for _, args := range [][]string{{"migrate", "down", "1"}, {"migrate", "history-sync"}, {"serve", "--help"}, {"--version"}, {"no-such-command"}} {
		if err := refuseDowngrade(root, args, app.DataDir()); err != nil {
			t.Errorf("%v: got %v, want no refusal", args, err)
		}
	}
	// The same database is fine for a build that knows the migration.
	core.AppMigrations.Register(func(core.App) error { return nil }, nil, "1764800000_x.js")
	t.Cleanup(func() { core.AppMigrations = core.MigrationsList{} })
	if err := refuseDowngrade(root, []string{"serve"}, app.DataDir()); err != nil {
		t.Errorf("a build that knows the migration: got %v", err)
	}
}

// The hook refuses on bootstrap before PocketBase opens the database: no system migration
// runs and the app is not bootstrapped; exit(1) is called.
func TestDowngradeGuardHook(t *testing.T) {
	old, _ := newDataDir(t, "1764800000_x.js")
	dbPath := filepath.Join(old.DataDir(), "data.db")
	if err := old.ResetBootstrapState(); err != nil {
		t.Fatal(err)
	}
	before, err := os.ReadFile(dbPath)
	if err != nil {
		t.Fatal(err)
	}

	exitCode := -1
	exit = func(code int) { exitCode = code }
	args := os.Args
	os.Args = []string{"pocketbase", "serve", "--http=127.0.0.1:0"}
	t.Cleanup(func() { exit = os.Exit; os.Args = args })

	root := &cobra.Command{Use: "pocketbase"}
	root.AddCommand(&cobra.Command{Use: "serve", Run: func(*cobra.Command, []string) {}})
	app := core.NewBaseApp(core.BaseAppConfig{DataDir: old.DataDir()})
	app.OnBootstrap().Bind(downgradeGuardHook(root))
	err = app.Bootstrap()
	if exitCode != 1 || err == nil || err.Error() != downgradeMessage([]string{"1764800000_x.js"}) {
		t.Fatalf("exit %d, error %v; want exit 1 with the downgrade message", exitCode, err)
	}
	if app.IsBootstrapped() {
		t.Fatal("the app was bootstrapped (its database opened) before the refusal")
	}
	after, err := os.ReadFile(dbPath)
	if err != nil {
		t.Fatal(err)
	}
	if string(before) != string(after) {
		t.Fatal("the refusal changed data.db")
	}

	// A `migrate down` of the same command line goes through to PocketBase.
	exitCode = -1
	root.AddCommand(&cobra.Command{Use: "migrate", Run: func(*cobra.Command, []string) {}})
	os.Args = []string{"pocketbase", "migrate", "down", "1"}
	if err := app.Bootstrap(); err != nil || exitCode != -1 {
		t.Fatalf("migrate down: exit %d, error %v", exitCode, err)
	}
	t.Cleanup(func() { _ = app.ResetBootstrapState() })
}
