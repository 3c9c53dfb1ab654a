// What a real shop still lacks (issue #17): APP_URL, SMTP, payments, the credentials key's
// location, Litestream, and an administrator, each "ok" or "missing" with how to set it.
// `npm run doctor` (scripts/doctor.ts) prints it any time; the first start prints it too.
// The payment decisions are server/start-checks.ts's, the same the start banner uses.
import { existsSync } from "node:fs";
import path from "node:path";
import { isLoopbackName } from "./canonical-host.ts";
import { adminExists, credentialsKeyFile } from "./admin-setup.ts";
import { parseReplica } from "./litestream.ts";
import { isLoopbackHost, paymentProvider, paymentsTestMode, startupProblems } from "./start-checks.ts";

type Env = Readonly<Record<string, string | undefined>>;

export interface DoctorItem {
  name: string;
  ok: boolean;
  /** What is set (ok), or what is missing and how to set it. */
  detail: string;
}

export interface DoctorOptions {
  /** HOST the web server listens on. */
  host: string;
  /** PocketBase's data dir. */
  dataDir: string;
  /** Where the credentials key comes from (SHOP_CREDENTIALS_KEY, or its file); undefined: nowhere yet. */
  credentialsKeySource: string | undefined;
  /** The shop's public URL as the start computes it (APP_URL or its default). */
  appUrl: string;
  /** Whether an administrator exists, when the caller knows; else the data dir is asked (server/admin-setup.ts). */
  adminExists?: boolean;
}

const ADMIN_CREATE = "`proxy-shop admin create <email>` (in a checkout: `npm run admin:create -- <email>`)";

function appUrlItem(env: Env, options: DoctorOptions): DoctorItem {
  const name = "APP_URL";
  let hostname = "";
  try {
    hostname = new URL(options.appUrl).hostname;
  } catch {
    return {
      name,
      ok: false,
      detail: `"${options.appUrl}" is not a URL: set APP_URL=https://shop.example.com (the address customers open).`,
    };
  }
  if (isLoopbackHost(options.host)) {
    return { name, ok: true, detail: `${options.appUrl} (HOST=${options.host}: this machine only)` };
  }
  if (!env["APP_URL"] || isLoopbackName(hostname)) {
    return {
      name,
      ok: false,
      detail: `${env["APP_URL"] ? `is ${options.appUrl}` : "is not set"}, but HOST=${options.host} is public: the links in mails would point at this machine. Set APP_URL=https://shop.example.com (the address customers open).`,
    };
  }
  return { name, ok: true, detail: options.appUrl };
}

function smtpItem(env: Env): DoctorItem {
  const host = env["SMTP_HOST"];
  if (host) return { name: "SMTP", ok: true, detail: `mails go through ${host}${env["SMTP_PORT"] ? `:${env["SMTP_PORT"]}` : ""}` };
  return {
    name: "SMTP",
    ok: false,
    detail:
      "SMTP_HOST is not set: sign-in codes and verification and password mails reach no one (on a loopback HOST the start prints them). Set SMTP_HOST, SMTP_PORT, SMTP_USERNAME, SMTP_PASSWORD, SMTP_TLS and MAIL_FROM.",
  };
}

function paymentsItem(env: Env, host: string): DoctorItem {
  const name = "Payments";
  const half = startupProblems(env, host).find((p) => p.startsWith("STRIPE_"));
  if (half) return { name, ok: false, detail: half };
  switch (paymentProvider(env, paymentsTestMode(env, host))) {
    case "stripe":
      return { name, ok: true, detail: "Stripe Checkout (STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET)" };
    case "test":
      return {
        name,
        ok: false,
        detail:
          "the labelled TEST provider (PAYMENTS_TEST_MODE=true): no money moves. Set STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET to take real payments.",
      };
    case "none":
      return {
        name,
        ok: false,
        detail: "none: Buy Credits says buying is not set up yet. Set STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET for Stripe Checkout.",
      };
  }
}

function credentialsKeyItem(source: string | undefined): DoctorItem {
  const name = "Credentials key";
  if (source) {
    return {
      name,
      ok: true,
      detail: `from ${source}. Back it up apart from the data dir: without it the stored proxy passwords cannot be read.`,
    };
  }
  return {
    name,
    ok: false,
    detail:
      "none yet: set SHOP_CREDENTIALS_KEY (32 characters of A-Z a-z 0-9 - _), or the first start makes one beside the data dir. Back it up apart from the data dir.",
  };
}

function litestreamItem(env: Env, dataDir: string): DoctorItem {
  const name = "Litestream";
  const given = env["LITESTREAM_REPLICA"]?.trim();
  if (!given) {
    return {
      name,
      ok: false,
      detail:
        "no continuous replica: set LITESTREAM_REPLICA to a directory off this disk or s3://bucket/path, so losing the machine loses nothing.",
    };
  }
  try {
    return { name, ok: true, detail: `replicates to ${parseReplica(given, dataDir).where}` };
  } catch (err) {
    return { name, ok: false, detail: (err as Error).message };
  }
}

async function adminItem(options: DoctorOptions): Promise<DoctorItem> {
  const name = "Administrator";
  let exists = options.adminExists;
  if (exists === undefined) {
    try {
      exists = await adminExists({ dataDir: options.dataDir });
    } catch (err) {
      return { name, ok: false, detail: `could not be checked: ${(err as Error).message}` };
    }
  }
  if (exists) return { name, ok: true, detail: "at least one shop administrator exists" };
  return { name, ok: false, detail: `none yet: run ${ADMIN_CREATE} and open the link it prints within 30 minutes.` };
}

/**
 * The options as `npm start` (server/run-shop.ts) reads its settings, for a command that
 * runs beside it (`npm run doctor`, `npm run admin:create`): PB_DATA_DIR (else
 * `defaultDataDir`) from `baseDir`, HOST, PORT, APP_URL, and where the credentials key is.
 * Nothing is made: a key file that does not exist yet is not named.
 */
export function doctorOptionsFromEnv(env: Env, baseDir: string, defaultDataDir = "pb_data"): DoctorOptions {
  const dataDir = path.resolve(baseDir, env["PB_DATA_DIR"] || defaultDataDir);
  const keyFile = credentialsKeyFile(dataDir);
  return {
    host: env["HOST"] || "127.0.0.1",
    dataDir,
    appUrl: env["APP_URL"] || `http://localhost:${env["PORT"] || "4321"}`,
    credentialsKeySource: env["SHOP_CREDENTIALS_KEY"] ? "SHOP_CREDENTIALS_KEY" : existsSync(keyFile) ? keyFile : undefined,
  };
}

/** The checklist, in a fixed order. */
export async function doctorReport(env: Env, options: DoctorOptions): Promise<DoctorItem[]> {
  return [
    appUrlItem(env, options),
    smtpItem(env),
    paymentsItem(env, options.host),
    credentialsKeyItem(options.credentialsKeySource),
    litestreamItem(env, options.dataDir),
    await adminItem(options),
  ];
}

/** One line per item: "ok" or "missing", its name, and the detail (how to set it when missing). */
export function formatDoctor(items: readonly DoctorItem[]): string {
  const width = Math.max(...items.map((i) => i.name.length));
  return items.map((i) => `  ${i.ok ? "ok     " : "missing"}  ${i.name.padEnd(width)}  ${i.detail}`).join("\n");
}
