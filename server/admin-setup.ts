// The first administrator on a real host (issue #17): a one-time link to /console/setup,
// valid for 30 minutes, that creates a shop admin with their own e-mail and password.
// `pocketbase admin-setup` (pocketbase/admin_setup.go) makes the token and stores only its
// SHA-256; the page spends it (pb_hooks/lib/accounts/admin-setup.js). One call for the
// start banner and for `admin create <email>`:
//
//   const link = await setupLink({ dataDir, appUrl, ifNoAdmin: true }); // null: an admin exists
//   if (link) console.log(setupBannerLine(link));
//   console.log(await setupLink({ dataDir, appUrl, email })); // admin create <email>
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { HOOKS_DIR, MIGRATIONS_DIR, POCKETBASE_BIN, readCredentialsKeyFile } from "./pocketbase-process.ts";

export interface SetupLinkOptions {
  /** PocketBase's data dir (migrations are applied first, as `serve` does). */
  dataDir: string;
  /** The shop's public URL (APP_URL): the link is `${appUrl}/console/setup?token=...`. */
  appUrl: string;
  /** The only e-mail the new admin may use (the page pre-fills and locks it). */
  email?: string;
  /** Make no link (null) when a shop administrator exists already. */
  ifNoAdmin?: boolean;
  /**
   * SHOP_CREDENTIALS_KEY for the migrations of a data dir never started yet. Default: the
   * environment's, else the key file `npm start` keeps beside the data dir
   * (.secrets/<data dir name>.credentials-key), when there is one.
   */
  credentialsKey?: string;
  /** The PocketBase binary and its hooks and migrations dirs (default: this checkout's). */
  pocketbaseBin?: string;
  hooksDir?: string;
  migrationsDir?: string;
}

/** The start banner's line for a link from setupLink. */
export function setupBannerLine(link: string): string {
  return `No administrator yet: open ${link} within 30 minutes to create one.`;
}

/** Where `npm start` keeps the credentials key it made: .secrets/<data dir name>.credentials-key beside the data dir. */
export function credentialsKeyFile(dataDir: string): string {
  const data = path.resolve(dataDir);
  return path.join(path.dirname(data), ".secrets", `${path.basename(data)}.credentials-key`);
}

function defaultCredentialsKey(dataDir: string): string | undefined {
  return process.env["SHOP_CREDENTIALS_KEY"] || readCredentialsKeyFile(credentialsKeyFile(dataDir));
}

function runAdminSetup(
  options: Pick<SetupLinkOptions, "dataDir" | "hooksDir" | "migrationsDir" | "pocketbaseBin">,
  extra: string[],
  env: NodeJS.ProcessEnv,
): Promise<string> {
  const args = [
    "admin-setup",
    `--dir=${path.resolve(options.dataDir)}`,
    `--hooksDir=${options.hooksDir ?? HOOKS_DIR}`,
    `--migrationsDir=${options.migrationsDir ?? MIGRATIONS_DIR}`,
    ...extra,
  ];
  return new Promise((resolve, reject) => {
    execFile(options.pocketbaseBin ?? POCKETBASE_BIN, args, { env, timeout: 60_000 }, (err, stdout, stderr) => {
      if (err) reject(new Error((stderr || err.message).trim()));
      else resolve(stdout.trim());
    });
  });
}

/**
 * Whether a shop administrator exists in `dataDir` (false when it holds no database yet).
 * Changes nothing: no token, no migration.
 */
export async function adminExists(
  options: Pick<SetupLinkOptions, "dataDir" | "hooksDir" | "migrationsDir" | "pocketbaseBin">,
): Promise<boolean> {
  if (!existsSync(path.join(options.dataDir, "data.db"))) return false;
  return (await runAdminSetup(options, ["--status"], process.env)) === "admin";
}

/**
 * A new one-time setup link, or null with `ifNoAdmin` when an administrator exists.
 * Rejects with the command's message (an invalid or taken e-mail, a missing key ...).
 */
export async function setupLink(options: SetupLinkOptions): Promise<string | null> {
  const extra: string[] = [];
  if (options.email) extra.push(`--email=${options.email}`);
  if (options.ifNoAdmin) extra.push("--if-no-admin");
  const env: NodeJS.ProcessEnv = { ...process.env };
  const key = options.credentialsKey ?? defaultCredentialsKey(options.dataDir);
  if (key) env["SHOP_CREDENTIALS_KEY"] = key;
  let token: string;
  try {
    token = await runAdminSetup(options, extra, env);
  } catch (err) {
    throw new Error(`Could not make a setup link: ${(err as Error).message}`);
  }
  if (!token) return null;
  if (!/^[A-Za-z0-9]{20,200}$/.test(token)) throw new Error("Could not make a setup link: unexpected output from admin-setup.");
  return `${options.appUrl.replace(/\/+$/, "")}/console/setup?token=${token}`;
}
