// The shop inside the release file: launcher.ts extracts this module (bundled with the
// server code and its npm packages by scripts/release.ts) into the runtime folder, sets
// SHOP_RUNTIME_DIR to that folder (server/pocketbase-process.ts: ROOT), and calls run().
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
  console.log(`${PRODUCT} ${version}, runtime files in ${runtimeDir}`);
  await runShop({
    // .env beside the release file was read by the launcher.
    baseDir: process.cwd(),
    defaultDataDir: "shop-data",
    dataDir,
    ...(http ? { http } : {}),
  });
};

const notYet: Command = ({ line }) => {
  console.error(`\`${PRODUCT} ${line.command}\` is not in this build yet.`);
  process.exit(2);
};

/** Every command of commands.ts but version and help (the launcher answers those). */
const COMMANDS: Record<string, Command> = {
  serve,
  backup: notYet,
  restore: notYet,
  admin: notYet,
  doctor: notYet,
};

export async function run(context: LaunchContext): Promise<void> {
  const command = COMMANDS[context.line.command];
  if (!command) throw new Error(`Unknown command "${context.line.command}".`);
  await command(context);
}
