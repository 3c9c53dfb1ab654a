// The release file's `backup` and `restore` (issue #17), kept here so any other caller
// (a script) uses the same code.
//
// backup: PocketBase makes the zip itself (POST /api/backups), so it is consistent (made
// inside PocketBase's own backup lock, the database read through its connection) and leaves
// out what the hooks exclude (pb_hooks/lib/settings/backups.js: .superuser-password) and
// PocketBase's own backups folder. When a shop already runs on the data dir, its PocketBase
// makes the backup (found by its command line in /proc: `serve --dir=<data dir>`); else a
// PocketBase is started for the backup alone, on a free loopback port, with no gateway and
// no demo data, and stopped after. Either way it signs in as the shop's superuser (the one
// `serve` keeps: PB_SUPERUSER_EMAIL, PB_SUPERUSER_PASSWORD or .superuser-password), so no
// account is added to the data. The zip is downloaded to `<dir>/<data dir name>-backup-<UTC
// time to the ms>-<random>.zip` (backupFileName: never the name of another backup) and
// removed from the data dir's backups folder.
//
// restore: into an empty or missing data dir only, never over data. A zip is PocketBase's
// backup (the data dir's files); a Litestream replica URL (file://, s3://) is rebuilt with
// `litestream restore`. The result is written beside the data dir and renamed into place.
import { randomBytes } from "node:crypto";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  rmdirSync,
  statSync,
  writeFileSync,
} from "node:fs";
import path from "node:path";
import { credentialsKeyFile } from "./admin-setup.ts";
import { parseReplica, restoreFromReplica } from "./litestream.ts";
import { readCredentialsKeyFile, startPocketBase, type PocketBaseProcess } from "./pocketbase-process.ts";
import { freePort } from "./free-port.ts";
import { readZip, writeEntries } from "./zip.ts";

export const DEFAULT_SUPERUSER_EMAIL = "superuser@proxyshop.local";

/** The running PocketBase `serve` on `dataDir` (its --http address), from /proc; null when none. */
export function runningPocketBaseUrl(dataDir: string): string | null {
  const dir = path.resolve(dataDir);
  let pids: string[];
  try {
    pids = readdirSync("/proc").filter((p) => /^\d+$/.test(p));
  } catch {
    return null; // no /proc: not Linux
  }
  for (const pid of pids) {
    let args: string[];
    try {
      args = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
    } catch {
      continue; // gone, or not ours to read
    }
    if (!args.includes("serve") || !args.includes(`--dir=${dir}`)) continue;
    if (!path.basename(args[0] ?? "").startsWith("pocketbase")) continue;
    const http = args.find((a) => a.startsWith("--http="))?.slice("--http=".length);
    if (http) return `http://${http}`;
  }
  return null;
}

/** The superuser `serve` keeps (server/run-shop.ts): PB_SUPERUSER_EMAIL, and PB_SUPERUSER_PASSWORD or the data dir's .superuser-password. */
function superuser(dataDir: string, env: NodeJS.ProcessEnv, makeIfMissing: boolean): { email: string; password: string } {
  const email = env["PB_SUPERUSER_EMAIL"] || DEFAULT_SUPERUSER_EMAIL;
  const given = env["PB_SUPERUSER_PASSWORD"];
  if (given) return { email, password: given };
  const file = path.join(dataDir, ".superuser-password");
  if (existsSync(file)) return { email, password: readFileSync(file, "utf8").trim() };
  if (!makeIfMissing) {
    throw new Error(`No superuser password for the running shop: set PB_SUPERUSER_PASSWORD as the shop has it (${file} does not exist).`);
  }
  // As `serve` does on a first start: the next start uses the same one.
  const generated = randomBytes(18).toString("base64url");
  writeFileSync(file, generated, { mode: 0o600, flag: "wx" });
  return { email, password: generated };
}

/** SHOP_CREDENTIALS_KEY, else the key file `serve` keeps beside the data dir; undefined when neither. */
function credentialsKey(dataDir: string, env: NodeJS.ProcessEnv): string | undefined {
  return env["SHOP_CREDENTIALS_KEY"] || readCredentialsKeyFile(credentialsKeyFile(dataDir));
}

async function api<T>(url: string, init: RequestInit & { token?: string } = {}): Promise<T> {
  const headers = new Headers(init.headers);
  if (init.token) headers.set("authorization", init.token);
  if (init.body && !headers.has("content-type")) headers.set("content-type", "application/json");
  const res = await fetch(url, { ...init, headers });
  const text = await res.text();
  if (!res.ok) {
    let message = text;
    try {
      message = (JSON.parse(text) as { message?: string }).message ?? text;
    } catch {
      // not JSON
    }
    throw new Error(`${init.method ?? "GET"} ${new URL(url).pathname} answered ${res.status}: ${message}`);
  }
  return (text ? JSON.parse(text) : undefined) as T;
}

/** `20261127T095400.123Z`: a UTC time to the millisecond, usable in a file name. */
export function utcStamp(date = new Date()): string {
  return date.toISOString().replace(/[-:]/g, "");
}

/**
 * `<data dir name>-backup-<UTC time>-<6 random hex>.zip`
 * (`shop-data-backup-20261127T095400.123Z-3f9a0c.zip`): the random part keeps two backups
 * made in the same millisecond apart (#26 finding 13: a cron beside a manual one).
 */
export function backupFileName(dataDir: string, date = new Date(), random = randomBytes(3).toString("hex")): string {
  return `${path.basename(dataDir)}-backup-${utcStamp(date)}-${random}.zip`;
}

/**
 * Writes `data` (mode 0600) as a new file in `dir` named by `name()`, never over a file: a
 * name someone took meanwhile is drawn again, so a backup never fails on a name clash.
 * Returns the file written.
 */
export function writeNewFile(dir: string, name: () => string, data: Buffer): string {
  for (let attempt = 1; ; attempt++) {
    const file = path.resolve(dir, name());
    try {
      writeFileSync(file, data, { mode: 0o600, flag: "wx" });
      return file;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST" || attempt >= 10) throw err;
    }
  }
}

/** How long a backup waits for one PocketBase is making already (its cron's, or another `backup`'s). */
const BACKUP_WAIT_MS = 10 * 60_000;

/**
 * POST /api/backups. PocketBase makes one backup at a time and answers "Try again later" to
 * a second (#26 finding 13: a cron beside a manual one): wait for the first, then make it.
 */
async function createBackup(url: string, token: string, name: string, log: (line: string) => void): Promise<void> {
  const deadline = Date.now() + BACKUP_WAIT_MS;
  for (let waiting = false; ; waiting = true) {
    try {
      await api(`${url}/api/backups`, { method: "POST", token, body: JSON.stringify({ name }) });
      return;
    } catch (err) {
      if (!/try again later/i.test((err as Error).message) || Date.now() > deadline) throw err;
      if (!waiting) log("PocketBase is making another backup: this one waits for it.");
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}

export interface BackupOptions {
  dataDir: string;
  /** Where the zip is written (default: the working directory). */
  outDir?: string;
  env?: NodeJS.ProcessEnv;
  /** Progress for a person (default: nothing). */
  log?: (line: string) => void;
}

export interface BackupResult {
  /** The zip written. */
  file: string;
  bytes: number;
  /** Whether a shop running on the data dir made it. */
  running: boolean;
}

/** A backup zip of `dataDir`, made by PocketBase (see the top of this file). */
export async function backupDataDir(options: BackupOptions): Promise<BackupResult> {
  const env = options.env ?? process.env;
  const log = options.log ?? (() => {});
  const dataDir = path.resolve(options.dataDir);
  if (!existsSync(path.join(dataDir, "data.db"))) throw new Error(`${dataDir} holds no shop data (no data.db): nothing to back up.`);

  let url = runningPocketBaseUrl(dataDir);
  const running = url !== null;
  let own: PocketBaseProcess | null = null;
  const user = superuser(dataDir, env, !running);
  if (url) {
    log(`The shop is running on ${dataDir}: its PocketBase makes the backup while it serves.`);
  } else {
    const key = credentialsKey(dataDir, env);
    if (!key) {
      throw new Error(
        `No credentials key for ${dataDir}: set SHOP_CREDENTIALS_KEY or put it in ${credentialsKeyFile(dataDir)}, as the shop runs with it.`,
      );
    }
    own = await startPocketBase({
      dataDir,
      port: await freePort(),
      superuserEmail: user.email,
      superuserPassword: user.password,
      // No gateway listeners, no demo data: this PocketBase only makes the backup.
      env: { SHOP_CREDENTIALS_KEY: key, SHOP_DEMO_SEED: "false", GATEWAY_HTTP_PORT: "", GATEWAY_SOCKS_PORT: "", GATEWAY_HTTPS_PORT: "" },
    });
    url = own.url;
  }
  const key = `cli-backup-${randomBytes(6).toString("hex")}.zip`;
  let created = false;
  let token = "";
  try {
    token = (
      await api<{ token: string }>(`${url}/api/collections/_superusers/auth-with-password`, {
        method: "POST",
        body: JSON.stringify({ identity: user.email, password: user.password }),
      })
    ).token;
    await createBackup(url, token, key, log);
    created = true;
    const fileToken = (await api<{ token: string }>(`${url}/api/files/token`, { method: "POST", token })).token;
    const res = await fetch(`${url}/api/backups/${key}?token=${encodeURIComponent(fileToken)}`);
    if (!res.ok) throw new Error(`Downloading the backup answered ${res.status}.`);
    const zip = Buffer.from(await res.arrayBuffer());
    if (!readZip(zip).some((e) => e.name === "data.db")) throw new Error("The backup PocketBase made holds no data.db.");
    const file = writeNewFile(options.outDir ?? process.cwd(), () => backupFileName(dataDir), zip);
    return { file, bytes: zip.length, running };
  } finally {
    // Not left in the data dir's backups folder (the zip is where it was asked for).
    if (created) await api(`${url}/api/backups/${key}`, { method: "DELETE", token }).catch(() => {});
    await own?.stop();
  }
}

export interface RestoreOptions {
  /** A backup zip (a file), or a Litestream replica URL (file:///dir, s3://bucket/path). */
  source: string;
  dataDir: string;
  env?: NodeJS.ProcessEnv;
}

export interface RestoreResult {
  dataDir: string;
  kind: "zip" | "replica";
  /** The files written into the data dir. */
  files: string[];
  /** What to say about the credentials key the restored data needs. */
  keyNote: string;
}

/** Restores into an empty or missing data dir only (see the top of this file). */
export async function restoreDataDir(options: RestoreOptions): Promise<RestoreResult> {
  const env = options.env ?? process.env;
  const dataDir = path.resolve(options.dataDir);
  if (existsSync(dataDir)) {
    if (!statSync(dataDir).isDirectory()) throw new Error(`${dataDir} is a file, not a data dir.`);
    if (readdirSync(dataDir).length > 0) {
      throw new Error(
        `${dataDir} is not empty: restore writes only into an empty or missing data dir and never overwrites data. Stop the shop and move that folder aside, or restore with --data into a new folder.`,
      );
    }
  }
  const source = options.source.trim();
  const isFile = existsSync(source) && statSync(source).isFile();
  let kind: RestoreResult["kind"];
  mkdirSync(path.dirname(dataDir), { recursive: true });
  const temp = mkdtempSync(path.join(path.dirname(dataDir), `.restoring-${path.basename(dataDir)}-`));
  let files: string[];
  try {
    if (isFile) {
      kind = "zip";
      const entries = readZip(readFileSync(source));
      if (!entries.some((e) => e.name === "data.db")) throw new Error(`${source} is not a shop backup: it holds no data.db.`);
      files = writeEntries(entries, temp, 0o600);
    } else if (/^(file|s3):\/\//.test(source)) {
      kind = "replica";
      const replica = parseReplica(source, dataDir);
      await restoreFromReplica(replica, path.join(temp, "data.db"), env);
      files = readdirSync(temp);
    } else {
      throw new Error(`"${source}" is neither a backup zip (no such file) nor a Litestream replica URL (file:///dir or s3://bucket/path).`);
    }
    if (existsSync(dataDir)) rmdirSync(dataDir); // empty, checked above
    renameSync(temp, dataDir);
  } catch (err) {
    rmSync(temp, { recursive: true, force: true });
    throw err;
  }
  const keyFile = credentialsKeyFile(dataDir);
  const keyNote = env["SHOP_CREDENTIALS_KEY"]
    ? "The shop must start with the same credentials key the backed-up shop used (SHOP_CREDENTIALS_KEY is set: check it is that one): without it the proxy passwords cannot be read."
    : `The shop must start with the same credentials key the backed-up shop used: put it in ${keyFile}${existsSync(keyFile) ? " (a key is there: check it is that one)" : " (not there yet: a start would make a new key)"} or set SHOP_CREDENTIALS_KEY. Without it the proxy passwords cannot be read.`;
  return { dataDir, kind, files: files.sort(), keyNote };
}

/** What `backup` prints once the zip is written. */
export function backupMessage(made: BackupResult): string {
  return `Backup written: ${made.file} (${(made.bytes / 1024 / 1024).toFixed(1)} MB)
It holds no credentials key (kept beside the data dir, or SHOP_CREDENTIALS_KEY) and no superuser password: back the key up apart from it.`;
}

/** What `restore` prints once the data dir is in place. */
export function restoreMessage(done: RestoreResult, source: string): string {
  const shown = done.files.length > 6 ? `${done.files.slice(0, 6).join(", ")} and ${done.files.length - 6} more` : done.files.join(", ");
  return `Restored ${done.files.length} file(s) (${shown}) from ${done.kind === "zip" ? "the backup" : "the Litestream replica"} ${source} into ${done.dataDir}.
${done.keyNote}`;
}
