// Starting the shop from its settings, for a person at a terminal: `npm start`
// (scripts/start.ts) and the release file's `serve` (server/release/app.ts) both call
// runShop. PocketBase with demo data on a local data dir (on a loopback HOST), the web
// server in front of it, the URL and the demo logins printed; with LITESTREAM_REPLICA set,
// Litestream replicating data.db beside them. Ctrl-C stops all.
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parseReplica, type Replica } from "./litestream.ts";
import { CREDENTIALS_KEY_PATTERN, credentialsKeyFromFile } from "./pocketbase-process.ts";
import { mailSummary, startMailSink, type MailSink } from "./mail-sink.ts";
import type { TrustedProxies } from "./client-address.ts";
import { isLoopbackName } from "./canonical-host.ts";
import { credentialsKeyFile, setupBannerLine, setupLink } from "./admin-setup.ts";
import { doctorReport, formatDoctor } from "./doctor.ts";
import { httpsPortLine } from "./gateway-tls.ts";
import { startShop } from "./shop.ts";
import { contractFacts } from "../src/lib/shared-data.ts";
import { isLoopbackHost, paymentProvider, paymentsBannerLine, paymentsTestMode, startupProblems } from "./start-checks.ts";

export interface RunShopOptions {
  /** A .env file to read first (variables already in the environment win). */
  envFile?: string;
  /** Relative paths (PB_DATA_DIR, the default data dir) resolve from here, and the banner shows paths relative to it. */
  baseDir: string;
  /** The data dir when PB_DATA_DIR is not set (relative to baseDir). */
  defaultDataDir: string;
  /** A data dir given on the command line: wins over PB_DATA_DIR. */
  dataDir?: string;
  /** An address given on the command line (`--http host:port`): wins over HOST and PORT. */
  http?: { host: string; port: number };
  /**
   * Called after the refusals, before anything starts (`npm start` builds the web app
   * and, with a replica, Litestream here; a release carries both).
   */
  prepare?: (settings: { replica: Replica | null }) => Promise<void> | void;
}

/** `--http host:port` (or `:port`, or `port`): the web server's address. */
export function parseHttpAddress(value: string): { host: string; port: number } {
  const match = /^(?:\[?([^\]]*?)\]?:)?(\d{1,5})$/.exec(value.trim());
  const port = Number(match?.[2]);
  if (!match || !Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error(`--http takes host:port (e.g. 0.0.0.0:8080 or 127.0.0.1:4321), not "${value}".`);
  }
  return { host: match[1] || "127.0.0.1", port };
}

/** Starts the shop as its settings say, prints its banner, and stops it on Ctrl-C (SIGINT) or SIGTERM. */
export async function runShop(options: RunShopOptions): Promise<void> {
  // A stop asked for while the shop starts (Ctrl-C, a service manager's SIGTERM) is kept: the
  // shop does not start, or once up it stops it all, so PocketBase is never left running on
  // its own. Set before anything is awaited.
  let stopAsked = false;
  let stop: (() => void) | null = null;
  const onSignal = () => (stop ? stop() : (stopAsked = true));
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);

  if (options.envFile && existsSync(options.envFile)) process.loadEnvFile(options.envFile);
  const env = (name: string, fallback: string): string => process.env[name] || fallback;
  const shown = (p: string): string => path.relative(options.baseDir, p) || ".";

  const dataDir = path.resolve(options.baseDir, options.dataDir ?? env("PB_DATA_DIR", options.defaultDataDir));
  const webPort = options.http?.port ?? Number(env("PORT", "4321"));
  const webHost = options.http?.host ?? env("HOST", "127.0.0.1");
  const appUrl = env("APP_URL", `http://localhost:${webPort}`);

  // Refusals first, before anything is built or started: a public HOST without SMTP_HOST (the
  // mail sink would print sign-in codes and links), one Stripe variable without the other.
  const problems = startupProblems(process.env, webHost);
  if (problems.length > 0) {
    console.error(`The shop did not start:\n${problems.map((p) => `- ${p}`).join("\n")}`);
    process.exit(1);
  }
  // The test payment provider runs only when PAYMENTS_TEST_MODE=true: on by default on a
  // loopback host (the embedded default), off on a public one unless set.
  const testMode = paymentsTestMode(process.env, webHost);
  const payments = paymentProvider(process.env, testMode);

  /** Without PB_SUPERUSER_PASSWORD, a random one is made on first start and kept in the data dir. */
  function superuserPassword(): string {
    const given = process.env["PB_SUPERUSER_PASSWORD"];
    if (given) return given;
    const file = path.join(dataDir, ".superuser-password");
    if (existsSync(file)) return readFileSync(file, "utf8").trim();
    const generated = randomBytes(18).toString("base64url");
    writeFileSync(file, generated, { mode: 0o600, flag: "wx" });
    return generated;
  }

  /**
   * The key that encrypts proxy passwords: SHOP_CREDENTIALS_KEY, else a random one made on
   * first start and kept in .secrets/<data dir name>.credentials-key BESIDE the data dir,
   * never inside it (PocketBase's backups zip the whole data dir).
   */
  function credentialsKey(): { key: string; source: string } {
    const given = process.env["SHOP_CREDENTIALS_KEY"];
    if (given) {
      if (!CREDENTIALS_KEY_PATTERN.test(given)) {
        console.error("SHOP_CREDENTIALS_KEY must be exactly 32 characters of A-Z a-z 0-9 - _.");
        process.exit(1);
      }
      return { key: given, source: "SHOP_CREDENTIALS_KEY" };
    }
    const file = credentialsKeyFile(dataDir);
    try {
      const { key, created } = credentialsKeyFromFile(file);
      return { key, source: created ? `${shown(file)} (new; back it up apart from the data dir)` : shown(file) };
    } catch (err) {
      console.error(`The shop did not start: ${(err as Error).message}`);
      process.exit(1);
    }
  }

  /** TRUST_PROXY: "true" (a proxy on this machine or a private network), "false", or a list of addresses/CIDRs. */
  function trustedProxies(value: string): TrustedProxies {
    if (value === "true") return true;
    if (value === "false" || value === "") return false;
    return value
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean);
  }

  // Demo accounts have published passwords, so they are seeded by default only while the
  // shop listens on loopback alone.
  const loopbackOnly = isLoopbackHost(webHost);
  const demo = {
    seed: env("DEMO_SEED", loopbackOnly ? "true" : "false") === "true",
    adminEmail: env("DEMO_ADMIN_EMAIL", "admin@proxyshop.local"),
    adminPassword: env("DEMO_ADMIN_PASSWORD", "DemoAdmin#2026"),
    customerEmail: env("DEMO_CUSTOMER_EMAIL", "customer@proxyshop.local"),
    customerPassword: env("DEMO_CUSTOMER_PASSWORD", "DemoCustomer#2026"),
  };

  /** LITESTREAM_REPLICA: where Litestream replicates data.db (server/litestream.ts); unset: nowhere. */
  function litestreamReplica(): Replica | null {
    const given = process.env["LITESTREAM_REPLICA"]?.trim();
    if (!given) return null;
    try {
      return parseReplica(given, dataDir);
    } catch (err) {
      console.error((err as Error).message);
      process.exit(1);
    }
  }

  const replica = litestreamReplica();
  await options.prepare?.({ replica });
  mkdirSync(dataDir, { recursive: true });
  const credentials = credentialsKey();
  const superuserEmail = env("PB_SUPERUSER_EMAIL", "superuser@proxyshop.local");

  // Mail: a real SMTP server from the environment, or else (on a loopback HOST only: see the
  // refusals above) a local sink that prints every message (sign-in codes, password links)
  // to this console. PocketBase inherits this process's environment (and so .env); smtpEnv
  // only adds the sink.
  let mailSink: MailSink | null = null;
  const smtpEnv: Record<string, string> = {};
  if (!process.env["SMTP_HOST"]) {
    mailSink = await startMailSink({
      port: Number(env("MAIL_SINK_PORT", "0")),
      onMail: (mail) => console.log(mailSummary(mail)),
    });
    Object.assign(smtpEnv, { SMTP_HOST: mailSink.host, SMTP_PORT: String(mailSink.port), SMTP_TLS: "false" });
  }

  // The proxy gateway (in the PocketBase process): customers' proxies connect here. On a
  // loopback HOST it listens on loopback too and may reach this machine's own services, so
  // a proxy can be tried end to end on one machine. Its default ports are the contract's
  // (facts.json, which the hooks read to tell customers where to connect).
  const ports = contractFacts.gateway_ports.defaults;
  const gateway = {
    host: env("GATEWAY_HOST", webHost),
    httpPort: env("GATEWAY_HTTP_PORT", String(ports.http)),
    socksPort: env("GATEWAY_SOCKS_PORT", String(ports.socks5)),
    // The HTTPS proxy port (TLS to the gateway): GATEWAY_TLS_CERT and GATEWAY_TLS_KEY, else
    // a self-signed certificate the gateway makes in the data dir on first start.
    httpsPort: env("GATEWAY_HTTPS_PORT", String(ports.https)),
  };

  if (stopAsked) {
    await mailSink?.stop();
    process.exit(0);
  }
  const shop = await startShop({
    webPort,
    webHost,
    pocketbasePort: Number(env("PB_PORT", "8090")),
    dataDir,
    superuserEmail,
    superuserPassword: superuserPassword(),
    credentialsKey: credentials.key,
    trustForwardedFor: trustedProxies(env("TRUST_PROXY", "false")),
    exposeDashboard: env("EXPOSE_PB_DASHBOARD", "false") === "true",
    hooksEnv: {
      ...smtpEnv,
      SHOP_APP_URL: appUrl,
      GATEWAY_HOST: gateway.host,
      GATEWAY_HTTP_PORT: gateway.httpPort,
      GATEWAY_SOCKS_PORT: gateway.socksPort,
      GATEWAY_HTTPS_PORT: gateway.httpsPort,
      SHOP_DEMO_SEED: String(demo.seed),
      SHOP_DEMO_ADMIN_EMAIL: demo.adminEmail,
      SHOP_DEMO_ADMIN_PASSWORD: demo.adminPassword,
      SHOP_DEMO_CUSTOMER_EMAIL: demo.customerEmail,
      SHOP_DEMO_CUSTOMER_PASSWORD: demo.customerPassword,
      ...(testMode === undefined ? {} : { PAYMENTS_TEST_MODE: testMode }),
    },
    verbose: env("VERBOSE", "false") === "true",
    ...(replica ? { litestream: { replica } } : {}),
  });

  // One URL to open: APP_URL, the address the shop's mails link to. On this machine the web
  // server sends its other loopback names there (server/canonical-host.ts), so a session
  // and a mailed link share one origin; a public APP_URL is reached through its proxy.
  const listening = isLoopbackName(new URL(appUrl).hostname) ? "" : ` (listening on ${shop.url})`;

  // On a real host (a non-loopback HOST): a one-time setup link while no administrator
  // exists, and what a real shop still lacks (the doctor's list, missing items only).
  let production = "";
  if (!loopbackOnly) {
    let link: string | null = null;
    let linkProblem = "";
    try {
      link = await setupLink({ dataDir, appUrl, ifNoAdmin: true, credentialsKey: credentials.key });
    } catch (err) {
      linkProblem = (err as Error).message;
    }
    const missing = (
      await doctorReport(process.env, {
        host: webHost,
        dataDir,
        appUrl,
        credentialsKeySource: credentials.source,
        ...(linkProblem ? {} : { adminExists: link === null }),
      })
    ).filter((item) => !item.ok);
    if (missing.length > 0)
      production += `\n  Missing for a real shop (the doctor command checks again any time):\n${formatDoctor(missing)}\n`;
    if (linkProblem) production += `\n  ${linkProblem}\n`;
    if (link) production += `\n  ${setupBannerLine(link)}\n`;
  }
  console.log(`
  Proxy shop is running at ${appUrl}${listening}
  ${
    demo.seed
      ? `Demo admin:     ${demo.adminEmail} / ${demo.adminPassword}
  Demo customer:  ${demo.customerEmail} / ${demo.customerPassword}`
      : "Demo data is off (DEMO_SEED=false, the default when HOST is not loopback)."
  }${demo.seed && !loopbackOnly ? "\n  WARNING: demo accounts with published passwords on a non-loopback HOST." : ""}
  Proxy gateway: HTTP proxy ${gateway.host}:${gateway.httpPort}, SOCKS5 ${gateway.host}:${gateway.socksPort} (GATEWAY_HOST, GATEWAY_HTTP_PORT, GATEWAY_SOCKS_PORT)${
    gateway.httpsPort
      ? `
  Proxy gateway: ${httpsPortLine(process.env, dataDir, `${gateway.host}:${gateway.httpsPort}`)} (GATEWAY_HTTPS_PORT)`
      : ""
  }
  PocketBase dashboard: ${shop.url}/_/  (from this machine only; superuser ${superuserEmail}; password in PB_SUPERUSER_PASSWORD or ${shown(path.join(dataDir, ".superuser-password"))})
  Mail: ${mailSink ? `no SMTP_HOST set, so mails (sign-in codes, password links) are caught on smtp://${mailSink.host}:${mailSink.port} and printed here` : `sent through ${process.env["SMTP_HOST"]}`}
  ${paymentsBannerLine(payments, appUrl)}
  Proxy passwords are encrypted with the key in ${credentials.source}: without it they cannot be read.
  Data dir: ${shown(dataDir)}   Press Ctrl-C to stop.
  Backups: PocketBase's own on its schedule (dashboard > Settings > Backups, or SHOP_BACKUP_*); ${
    replica
      ? `Litestream replicates data.db to ${replica.where} (about a second behind).`
      : "no continuous replica (set LITESTREAM_REPLICA to a directory or s3://bucket/path)."
  }
${production}`);

  let stopping = false;
  async function shutdown(code: number): Promise<void> {
    if (stopping) return;
    stopping = true;
    await shop.stop();
    await mailSink?.stop();
    process.exit(code);
  }
  stop = () => void shutdown(0);
  if (stopAsked) stop();
  shop.pocketbase.child.once("exit", (code) => {
    if (!stopping) {
      console.error(`PocketBase exited unexpectedly (code ${code}).`);
      void shutdown(1);
    }
  });
  // Without Litestream the shop would run on with no replica while it promises one: stop
  // and say so, as for PocketBase (a process manager brings both back).
  shop.litestream?.child.once("exit", (code, signal) => {
    if (!stopping) {
      console.error(
        `Litestream exited unexpectedly (${signal ?? `code ${code}`}): data.db is no longer replicated.\n${shop.litestream?.output() ?? ""}`,
      );
      void shutdown(1);
    }
  });
}
