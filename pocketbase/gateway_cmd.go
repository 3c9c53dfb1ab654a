package main

import (
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/pocketbase/pocketbase/core"
	"github.com/spf13/cobra"

	"proxyshop/pocketbase/gateway"
	"proxyshop/pocketbase/gatewayapi"
)

// runStandaloneGateway is `pocketbase gateway --pb-url URL (--token-file FILE | --token T)
// [--host H] [--http-port P] [--socks-port P] [--https-port P --tls-cert F --tls-key F]`: a gateway alone, on another machine,
// following the shop's PocketBase over its API. It opens no data dir. Ports and host
// default to GATEWAY_HTTP_PORT, GATEWAY_SOCKS_PORT and GATEWAY_HOST; the token to
// GATEWAY_TOKEN (a token in the arguments is visible to every user in ps). It fails closed:
// a shop that refuses its token stops it (exit 1), and without an update from the shop for
// GATEWAY_MAX_STALE_SECONDS (default 60) it refuses new connections until the shop answers.
func runStandaloneGateway(args []string) error {
	flags := flag.NewFlagSet("gateway", flag.ContinueOnError)
	pbURL := flags.String("pb-url", os.Getenv("GATEWAY_PB_URL"), "the shop's PocketBase URL (GATEWAY_PB_URL)")
	token := flags.String("token", "", "a gateway token (prefer --token-file or GATEWAY_TOKEN)")
	tokenFile := flags.String("token-file", "", "a file holding the gateway token")
	host := flags.String("host", "", "address to listen on (GATEWAY_HOST; default 127.0.0.1)")
	httpPort := flags.String("http-port", "", "HTTP proxy port (GATEWAY_HTTP_PORT)")
	socksPort := flags.String("socks-port", "", "SOCKS5 port (GATEWAY_SOCKS_PORT)")
	httpsPort := flags.String("https-port", "", "HTTPS proxy port (GATEWAY_HTTPS_PORT; needs --tls-cert and --tls-key)")
	tlsCert := flags.String("tls-cert", "", "the HTTPS port's certificate, PEM (GATEWAY_TLS_CERT)")
	tlsKey := flags.String("tls-key", "", "its private key, PEM (GATEWAY_TLS_KEY)")
	if err := flags.Parse(args); err != nil {
		return err
	}
	for name, value := range map[string]string{"GATEWAY_HOST": *host, "GATEWAY_HTTP_PORT": *httpPort, "GATEWAY_SOCKS_PORT": *socksPort,
		"GATEWAY_HTTPS_PORT": *httpsPort, "GATEWAY_TLS_CERT": *tlsCert, "GATEWAY_TLS_KEY": *tlsKey} {
		if value != "" {
			os.Setenv(name, value)
		}
	}
	secret := strings.TrimSpace(*token)
	if secret == "" && *tokenFile != "" {
		content, err := os.ReadFile(*tokenFile)
		if err != nil {
			return fmt.Errorf("cannot read --token-file: %w", err)
		}
		secret = strings.TrimSpace(string(content))
	}
	if secret == "" {
		secret = strings.TrimSpace(os.Getenv("GATEWAY_TOKEN"))
	}
	if *pbURL == "" || secret == "" {
		return errors.New("usage: pocketbase gateway --pb-url https://shop.example.com (--token-file FILE | GATEWAY_TOKEN=...) [--host 0.0.0.0] [--http-port 3128] [--socks-port 1080]\nMake a token on the shop's machine with: pocketbase gateway-token <name>")
	}
	cfg, ok, err := gatewayConfigFromEnv()
	if err != nil {
		return err
	}
	if !ok {
		return errors.New("set --http-port, --socks-port and/or --https-port (or GATEWAY_HTTP_PORT, GATEWAY_SOCKS_PORT, GATEWAY_HTTPS_PORT)")
	}
	fingerprint, err := gatewayTLS(&cfg, "")
	if err != nil {
		return err
	}
	logger := slog.New(slog.NewTextHandler(os.Stderr, nil))
	cfg.Logger = logger
	cfg.CatchUpEvery = 100 * time.Millisecond // each catch-up is a call to the shop
	gw := gateway.New(cfg, &gateway.HTTPSource{BaseURL: *pbURL, Token: secret})
	if err := gw.Start(); err != nil {
		return fmt.Errorf("the gateway cannot start: %w", err)
	}
	for _, a := range gw.Addrs() {
		logger.Info("proxy gateway listening", "address", a.String(), "following", *pbURL)
	}
	if fingerprint != "" {
		logger.Info("proxy gateway HTTPS port certificate", "sha256", fingerprint)
	}
	stop := make(chan os.Signal, 1)
	signal.Notify(stop, syscall.SIGINT, syscall.SIGTERM)
	select {
	case <-stop:
		gw.Close()
		return nil
	case err := <-gw.Refused():
		gw.Close()
		return fmt.Errorf("the shop refused this gateway's token (revoked?); it stopped serving: %w", err)
	}
}

// gatewayTokenCommand is `pocketbase gateway-token <name>`: prints a new gateway token once.
func gatewayTokenCommand(app core.App) *cobra.Command {
	cmd := shopCommand("gateway-token <name>", "Makes a token for a gateway on another machine (printed once, stored as a hash)", nil)
	cmd.Args = cobra.ExactArgs(1)
	cmd.Run = func(command *cobra.Command, args []string) {
		token, err := gatewayapi.NewToken(app, args[0])
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		fmt.Println(token)
	}
	return cmd
}
