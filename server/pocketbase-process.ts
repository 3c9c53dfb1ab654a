// Starts and stops the PocketBase binary built from pocketbase/ (scripts/go-build.ts).
import { spawn, execFileSync, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { FORWARDING_SECRET_ENV } from "../src/lib/server/config.ts";
import { assertTrusted } from "./trusted-path.ts";

/**
 * Where the shop's files are: this checkout (`npm start`, the tests), or, when
 * SHOP_RUNTIME_DIR is set, the runtime folder a release file extracted them into
 * (server/release/launcher.ts), laid out the same way (pocketbase/bin, pocketbase/pb_hooks,
 * pocketbase/pb_migrations, dist/). Read here only: everything else takes paths from ROOT.
 */
export const ROOT = process.env["SHOP_RUNTIME_DIR"]
  ? path.resolve(process.env["SHOP_RUNTIME_DIR"])
  : path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const POCKETBASE_BIN = path.join(ROOT, "pocketbase", "bin", "pocketbase");
export const HOOKS_DIR = path.join(ROOT, "pocketbase", "pb_hooks");
export const MIGRATIONS_DIR = path.join(ROOT, "pocketbase", "pb_migrations");

/**
 * SHOP_CREDENTIALS_KEY, the key that encrypts proxy passwords at rest
 * (pocketbase/pb_hooks/lib/core/sealing.js): exactly 32 characters of A-Z a-z 0-9 - _,
 * used as the AES-256 key. PocketBase refuses to start without a valid one.
 */
export const CREDENTIALS_KEY_PATTERN = /^[A-Za-z0-9_-]{32}$/;

/** A new random credentials key (24 random bytes in base64url: 32 characters). */
export function newCredentialsKey(): string {
  return randomBytes(24).toString("base64url");
}

/**
 * The credentials key kept in `file`, or undefined when there is no such file. Refused (an
 * error saying how to fix it) when the file or its folder (`.secrets/`) belongs to another
 * user or others may write to it (server/trusted-path.ts), or when it holds no valid key.
 * Every reader of the key file goes through here: `npm start` and `serve`
 * (credentialsKeyFromFile), `backup`, `admin create`.
 */
export function readCredentialsKeyFile(file: string): string | undefined {
  if (!existsSync(file)) return undefined;
  assertTrusted("The credentials key's folder", path.dirname(file));
  assertTrusted("The credentials key file", file);
  const key = readFileSync(file, "utf8").trim();
  if (!CREDENTIALS_KEY_PATTERN.test(key)) {
    throw new Error(`${file} does not hold a valid SHOP_CREDENTIALS_KEY (32 characters of A-Z a-z 0-9 - _).`);
  }
  return key;
}

/**
 * The credentials key kept in `file` (readCredentialsKeyFile), made (mode 0600, its folder
 * 0700) on first use. Keep the file outside the PocketBase data dir: PocketBase's backups
 * zip the whole data dir.
 */
export function credentialsKeyFromFile(file: string): { key: string; created: boolean } {
  const kept = readCredentialsKeyFile(file);
  if (kept !== undefined) return { key: kept, created: false };
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  assertTrusted("The credentials key's folder", path.dirname(file));
  const key = newCredentialsKey();
  writeFileSync(file, `${key}\n`, { mode: 0o600, flag: "wx" });
  return { key, created: true };
}

export interface PocketBaseOptions {
  dataDir: string;
  port: number;
  superuserEmail: string;
  superuserPassword: string;
  /** Extra environment for the hooks (SMTP, demo seed, app URL, SHOP_CREDENTIALS_KEY ...). */
  env?: Record<string, string>;
  /** Print PocketBase's own output. */
  verbose?: boolean;
  /** Another hooks directory (benchmarks add a seeding route to a copy of pb_hooks). */
  hooksDir?: string;
  /** Another migrations directory (tests of a migration start from the ones before it). */
  migrationsDir?: string;
}

export interface PocketBaseProcess {
  url: string;
  child: ChildProcess;
  /**
   * The secret of this start that makes PocketBase believe a forwarded client address
   * (pocketbase/forwarded.go): whoever sends X-Forwarded-For to it on a visitor's behalf (the
   * web server: startWebServer's forwardingSecret) sends this in X-Shop-Forwarding-Secret.
   * Without it every request counts as its TCP peer.
   */
  forwardingSecret: string;
  stop(): Promise<void>;
}

export async function startPocketBase(options: PocketBaseOptions): Promise<PocketBaseProcess> {
  mkdirSync(options.dataDir, { recursive: true });
  const common = [
    `--dir=${options.dataDir}`,
    `--hooksDir=${options.hooksDir ?? HOOKS_DIR}`,
    `--migrationsDir=${options.migrationsDir ?? MIGRATIONS_DIR}`,
  ];
  // PocketBase and its hooks never see a superuser password: not in the serve process's
  // environment (a hook could read it), and never in any command line (ps shows those to
  // every user of the machine).
  const env: NodeJS.ProcessEnv = { ...process.env, ...options.env };
  for (const name of [
    FORWARDING_SECRET_ENV,
    "PB_SUPERUSER_PASSWORD",
    "SHOP_SUPERUSER_EMAIL",
    "SHOP_SUPERUSER_PASSWORD",
    "SHOP_SUPERUSER_PASSWORD_FILE",
  ]) {
    delete env[name];
  }

  // Creates (or resets) the superuser before serving, with the start hooks' checks (a
  // missing SHOP_CREDENTIALS_KEY, half-configured Stripe ...): `superuser-from-env`
  // (pocketbase/main.go) reads the password from its environment.
  try {
    execFileSync(POCKETBASE_BIN, ["superuser-from-env", ...common], {
      env: { ...env, SHOP_SUPERUSER_EMAIL: options.superuserEmail, SHOP_SUPERUSER_PASSWORD: options.superuserPassword },
      stdio: options.verbose ? "inherit" : "pipe",
    });
  } catch (err) {
    // PocketBase's own words (a missing SHOP_CREDENTIALS_KEY, a failed start check).
    const output = (err as { stderr?: Buffer | string | null }).stderr;
    const stderr = (typeof output === "string" ? output : (output?.toString("utf8") ?? "")).trim();
    throw new Error(`PocketBase could not start: ${stderr || "see its output above"}`);
  }

  // A new secret each start (issue #26 finding 6): PocketBase believes X-Forwarded-For only
  // beside it. In the serve process's environment only, like the credentials key: a command
  // line would show it to every user of the machine.
  const forwardingSecret = randomBytes(32).toString("base64url");
  const serveEnv: NodeJS.ProcessEnv = { ...env, [FORWARDING_SECRET_ENV]: forwardingSecret };

  const url = `http://127.0.0.1:${options.port}`;
  const child = spawn(
    POCKETBASE_BIN,
    // 50 prewarmed JS VMs (PocketBase's default is 15): a request beyond the pool builds a VM
    // of its own, which costs more than the request, so bursts of purchases would slow down.
    ["serve", `--http=127.0.0.1:${options.port}`, "--hooksWatch=false", "--automigrate=false", "--hooksPool=50", ...common],
    { env: serveEnv, stdio: options.verbose ? "inherit" : ["ignore", "pipe", "pipe"] },
  );
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));

  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  try {
    await waitForHealth(url, child);
  } catch (err) {
    child.kill("SIGKILL");
    throw new Error(`${(err as Error).message}\n--- PocketBase output ---\n${output}`);
  }

  return {
    url,
    child,
    forwardingSecret,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 5000);
      await exited;
      clearTimeout(timer);
    },
  };
}

async function waitForHealth(url: string, child: ChildProcess, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`PocketBase exited with code ${child.exitCode}`);
    try {
      const res = await fetch(`${url}/api/health`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`PocketBase did not answer on ${url} within ${timeoutMs / 1000} s`);
}
