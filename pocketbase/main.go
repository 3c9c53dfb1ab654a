// Thin PocketBase build for the proxy shop: the official examples/base setup
// (JS VM hooks, JS migrations, static pb_public) minus the self-updater, so the
// binary can never replace itself with a download.
package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"strings"

	"github.com/pocketbase/dbx"
	"github.com/pocketbase/pocketbase"
	"github.com/pocketbase/pocketbase/apis"
	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/plugins/jsvm"
	"github.com/pocketbase/pocketbase/plugins/migratecmd"
	"github.com/pocketbase/pocketbase/tools/hook"
	"github.com/spf13/cobra"

	"proxyshop/pocketbase/devapi"
	"proxyshop/pocketbase/gatewayapi"
)

func main() {
	// A gateway alone (on another machine) opens no data dir: it is not a PocketBase.
	if len(os.Args) > 1 && os.Args[1] == "gateway" {
		if err := runStandaloneGateway(os.Args[2:]); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		return
	}

	app := pocketbase.NewWithConfig(pocketbase.Config{DBConnect: dbConnect})

	var hooksDir, migrationsDir, publicDir string
	var hooksWatch, automigrate, indexFallback bool
	var hooksPool int

	flags := app.RootCmd.PersistentFlags()
	flags.StringVar(&hooksDir, "hooksDir", "", "the directory with the JS app hooks")
	flags.BoolVar(&hooksWatch, "hooksWatch", true, "auto restart the app on pb_hooks file change (no effect on Windows)")
	flags.IntVar(&hooksPool, "hooksPool", 15, "the total prewarm goja.Runtime instances for the JS app hooks execution")
	flags.StringVar(&migrationsDir, "migrationsDir", "", "the directory with the user defined migrations")
	flags.BoolVar(&automigrate, "automigrate", false, "enable/disable auto migrations")
	flags.StringVar(&publicDir, "publicDir", defaultPublicDir(), "the directory to serve static files")
	flags.BoolVar(&indexFallback, "indexFallback", true, "fallback the request to index.html on missing static path")

	app.RootCmd.ParseFlags(os.Args[1:])

	hooksPattern := "" // jsvm's default: every pb_hooks/*.pb.js
	if args := app.RootCmd.Flags().Args(); len(args) > 0 && (args[0] == "collections" || args[0] == "admin-setup") {
		hooksPattern = "^$" // the schema is the migrations' alone (and a token row needs no hook): no hook runs
	}

	jsvm.MustRegister(app, jsvm.Config{
		MigrationsDir:     migrationsDir,
		HooksDir:          hooksDir,
		HooksWatch:        hooksWatch,
		HooksPoolSize:     hooksPool,
		HooksFilesPattern: hooksPattern,
	})

	migratecmd.MustRegister(app, app.RootCmd, migratecmd.Config{
		TemplateLang: migratecmd.TemplateLangJS,
		Automigrate:  automigrate,
		Dir:          migrationsDir,
	})

	app.RootCmd.AddCommand(superuserFromEnvCommand(app), collectionsCommand(app), gatewayTokenCommand(app), adminSetupCommand(app))

	// Start check: a newer shop's database is not this build's to run (downgrade_guard.go).
	app.OnBootstrap().Bind(downgradeGuardHook(app.RootCmd))

	app.OnServe().Bind(&hook.Handler[*core.ServeEvent]{
		Func: func(e *core.ServeEvent) error {
			if !e.Router.HasRoute("GET", "/{path...}") {
				e.Router.GET("/{path...}", apis.Static(os.DirFS(publicDir), indexFallback))
			}
			return e.Next()
		},
		Priority: 999,
	})

	// The proxy gateway (pocketbase/gateway) when GATEWAY_HTTP_PORT or GATEWAY_SOCKS_PORT
	// is set: started with the web server, stopped with the app.
	app.OnServe().BindFunc(func(e *core.ServeEvent) error {
		if err := registerForwardedGuard(e); err != nil {
			return err
		}
		gatewayapi.Register(e)
		devapi.Register(e, hooksDir)
		if err := startWebhooks(e); err != nil {
			return err
		}
		gw, err := startEmbeddedGateway(e.App)
		if err != nil {
			return err
		}
		if gw != nil {
			e.App.OnTerminate().BindFunc(func(te *core.TerminateEvent) error {
				gw.Close()
				return te.Next()
			})
		}
		return e.Next()
	})

	if err := app.Start(); err != nil {
		log.Fatal(err)
	}
}

func defaultPublicDir() string {
	if strings.HasPrefix(os.Args[0], os.TempDir()) {
		return "./pb_public"
	}
	return filepath.Join(os.Args[0], "../../pb_public")
}

// dbConnect is PocketBase's DefaultDBConnect (core/db_connect.go) plus _txlock=immediate:
// a transaction takes SQLite's write lock when it begins (BEGIN IMMEDIATE, waiting up to
// busy_timeout), so a commit by another process between its first read and its first
// write (Litestream's bookkeeping writes to data.db) makes it wait instead of failing
// with SQLITE_BUSY_SNAPSHOT ("database is locked (517)"). PocketBase runs its
// transactions on its single write connection, so nothing that ran concurrently before
// is serialized now.
func dbConnect(dbPath string) (*dbx.DB, error) {
	// busy_timeout first: the connection must block on busy before WAL mode is set.
	pragmas := "?_txlock=immediate&_pragma=busy_timeout(10000)&_pragma=journal_mode(WAL)&_pragma=journal_size_limit(200000000)&_pragma=synchronous(NORMAL)&_pragma=foreign_keys(ON)&_pragma=temp_store(MEMORY)&_pragma=cache_size(-32000)"
	return dbx.Open("sqlite", dbPath+pragmas)
}

// shopCommand is a command of this build: it prints its error and exits non-zero on
// failure (PocketBase v0.39's own commands exit 0 whatever happens).
func shopCommand(use, short string, run func() error) *cobra.Command {
	return &cobra.Command{
		Use:          use,
		Short:        short,
		SilenceUsage: true,
		Run: func(command *cobra.Command, args []string) {
			if err := run(); err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(1)
			}
		},
	}
}

// superuserFromEnvCommand is `superuser upsert` without arguments: the e-mail comes from
// SHOP_SUPERUSER_EMAIL and the password from SHOP_SUPERUSER_PASSWORD or the file named by
// SHOP_SUPERUSER_PASSWORD_FILE, so the password never appears in a process's arguments
// (visible to every user in ps).
func superuserFromEnvCommand(app core.App) *cobra.Command {
	short := "Creates, or updates if the e-mail exists, the superuser named by SHOP_SUPERUSER_EMAIL and SHOP_SUPERUSER_PASSWORD(_FILE)"
	return shopCommand("superuser-from-env", short, func() error {
		if err := upsertSuperuserFromEnv(app); err != nil {
			return err
		}
		fmt.Println("Superuser saved.")
		return nil
	})
}

func upsertSuperuserFromEnv(app core.App) error {
	email := strings.TrimSpace(os.Getenv("SHOP_SUPERUSER_EMAIL"))
	if email == "" {
		return errors.New("SHOP_SUPERUSER_EMAIL is not set: it names the superuser to create or update")
	}
	password := os.Getenv("SHOP_SUPERUSER_PASSWORD")
	if file := os.Getenv("SHOP_SUPERUSER_PASSWORD_FILE"); password == "" && file != "" {
		content, err := os.ReadFile(file)
		if err != nil {
			return fmt.Errorf("cannot read SHOP_SUPERUSER_PASSWORD_FILE: %w", err)
		}
		password = strings.TrimSpace(string(content))
	}
	if password == "" {
		return errors.New("set SHOP_SUPERUSER_PASSWORD or SHOP_SUPERUSER_PASSWORD_FILE: the superuser needs a password")
	}

	superusers, err := app.FindCachedCollectionByNameOrId(core.CollectionNameSuperusers)
	if err != nil {
		return fmt.Errorf("failed to fetch the superusers collection: %w", err)
	}
	superuser, err := app.FindAuthRecordByEmail(superusers, email)
	if err != nil {
		superuser = core.NewRecord(superusers)
	}
	superuser.SetEmail(email)
	superuser.SetPassword(password)
	if err := app.Save(superuser); err != nil {
		return fmt.Errorf("failed to save the superuser %q: %w", email, err)
	}
	return nil
}

// collectionsCommand prints the app's collections (system ones left out) as JSON after
// applying every migration to the data dir: scripts/generate-record-types.ts reads it from
// a throwaway --dir to write the browser's record types.
func collectionsCommand(app core.App) *cobra.Command {
	return shopCommand("collections", "Applies the migrations and prints the non-system collections as JSON", func() error {
		return printCollections(app)
	})
}

func printCollections(app core.App) error {
	if err := app.RunAllMigrations(); err != nil {
		return fmt.Errorf("failed to apply the migrations: %w", err)
	}
	all, err := app.FindAllCollections()
	if err != nil {
		return err
	}
	collections := []*core.Collection{}
	for _, c := range all {
		if !c.System {
			collections = append(collections, c)
		}
	}
	return json.NewEncoder(os.Stdout).Encode(collections)
}
