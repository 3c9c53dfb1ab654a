// The shop inside the release file: launcher.ts extracts this module (bundled with the
// server code and its npm packages by scripts/release.ts) into the runtime folder, sets
// SHOP_RUNTIME_DIR to that folder (server/pocketbase-process.ts: ROOT), and calls run().
import path from "node:path";
import { setupLink } from "../admin-setup.ts";
import { backupDataDir, backupMessage, restoreDataDir, restoreMessage } from "../backup-restore.ts";
import { doctorOptionsFromEnv, doctorReport, formatDoctor } from "../doctor.ts";
import { parseHttpAddress, runShop } from "../run-shop.ts";
import type { LaunchContext } from "./launcher.ts";
import { PRODUCT } from "./commands.ts";

type Command = (context: LaunchContext) => Promise<void>;

/** `serve` (the default): the shop, as `npm start` runs it, from the working directory. */
const serve: Command = async ({ line, version, dataDir, runtimeDir }) => {
  let http: { host: string; port: number } | undefined;
  try {
    http = line.http === undefined ? undefined : parseHttpAddress(line.http);
  } catch (err) {
    console.error((err as Error).message);
    process.exit(2);
  }
  // A stop (SIGTERM, Ctrl-C) sent as soon as this line shows must not kill the process
  // outright (no handler yet: the default action): a handler is set before it is printed and
  // removed once runShop has set its own, in its first statements. A signal is handled from
  // the event loop, so one that came in between reaches runShop's handler.
  const hold = () => {};
  process.on("SIGINT", hold);
  process.on("SIGTERM", hold);
  console.log(`${PRODUCT} ${version}, runtime files in ${runtimeDir}`);
  const running = runShop({
    // .env beside the release file was read by the launcher.
    baseDir: process.cwd(),
    defaultDataDir: "shop-data",
    dataDir,
    ...(http ? { http } : {}),
  });
  process.off("SIGINT", hold);
  process.off("SIGTERM", hold);
  await running;
};

/** A wrong command line: the message and the usage, exit 2. */
function usage(message: string, usageLine: string): never {
  console.error(`${message}\nUsage: ${PRODUCT} ${usageLine}`);
  process.exit(2);
}

/** The settings `serve` reads (the environment and .env), for the data dir the command line chose. */
const settings = (dataDir: string) => doctorOptionsFromEnv({ ...process.env, PB_DATA_DIR: dataDir }, process.cwd());

/** `admin create <email>`: a one-time link (30 minutes) that creates the administrator with that e-mail. */
const admin: Command = async ({ line, dataDir }) => {
  const [sub, email, ...rest] = line.args;
  const usageLine = "admin create <email> [--data ./shop-data]";
  if (sub !== "create") usage(sub ? `Unknown admin command "${sub}".` : "Say what to do: admin create <email>.", usageLine);
  if (!email || rest.length > 0) usage("admin create takes one e-mail address.", usageLine);
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) usage(`"${email}" is not an e-mail address.`, usageLine);
  try {
    const link = await setupLink({ dataDir, appUrl: settings(dataDir).appUrl, email });
    console.log(`Open this link within 30 minutes to create the administrator ${email} (it works once):\n${link}`);
  } catch (err) {
    console.error((err as Error).message);
    process.exit(1);
  }
};

/** `doctor`: what a real shop still lacks, each item ok or missing; exits 0 whatever it finds. */
const doctor: Command = async ({ dataDir }) => {
  const options = settings(dataDir);
  const items = await doctorReport(process.env, options);
  const missing = items.filter((i) => !i.ok).length;
  console.log(`Shop check (HOST=${options.host}, data in ${path.relative(process.cwd(), dataDir) || "."}):`);
  console.log(formatDoctor(items));
  console.log(missing === 0 ? "Everything a real shop needs is set." : `${missing} of ${items.length} missing for a real shop.`);
};

/** `backup`: a zip of the data dir made by PocketBase, written to the working directory (server/backup-restore.ts). */
const backup: Command = async ({ line, dataDir }) => {
  if (line.args.length > 0) usage("backup takes no arguments.", "backup [--data ./shop-data]");
  try {
    const made = await backupDataDir({ dataDir, outDir: process.cwd(), log: (l) => console.log(l) });
    console.log(backupMessage(made));
  } catch (err) {
    console.error(`Backup failed: ${(err as Error).message}`);
    process.exit(1);
  }
};

/** `restore <zip|replica-url>`: into an empty or missing data dir only (server/backup-restore.ts). */
const restore: Command = async ({ line, dataDir }) => {
  const [source, ...rest] = line.args;
  const usageLine = "restore <zip|replica-url> [--data ./shop-data]";
  if (!source || rest.length > 0) usage("restore takes one backup zip or Litestream replica URL.", usageLine);
  try {
    const done = await restoreDataDir({ source, dataDir });
    console.log(restoreMessage(done, source));
    console.log(`Then start the shop on it: ${PRODUCT} serve --data ${path.relative(process.cwd(), done.dataDir) || "."}`);
  } catch (err) {
    console.error(`Restore failed: ${(err as Error).message}`);
    process.exit(1);
  }
};

/** Every command of commands.ts but version and help (the launcher answers those). */
const COMMANDS: Record<string, Command> = {
  serve,
  backup,
  restore,
  admin,
  doctor,
};

export async function run(context: LaunchContext): Promise<void> {
  const command = COMMANDS[context.line.command];
  if (!command) throw new Error(`Unknown command "${context.line.command}".`);
  await command(context);
}
