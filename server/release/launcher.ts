// The release file's entry point (Node's single executable application: scripts/release.ts
// bundles this file alone, builtins only, as the blob's main script). It answers `version`
// and `help` itself; for every other command it loads .env beside the file, makes sure the
// runtime folder of this build is extracted beside the data dir (runtime-folder.ts: refused
// when another user owns it or may write to it), and hands over to the shop (app.ts, an ES
// module in that folder, with the server code and npm packages bundled). Nothing is
// downloaded at run time. The data dir and the key beside it are never touched here.
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { getAsset, getRawAsset, isSea } from "node:sea";
import { unpack } from "./archive.ts";
import { helpText, parseCommandLine, PRODUCT, resolveDataDir, runtimeParent, type CommandLine } from "./commands.ts";
import { ensureRuntime } from "./runtime-folder.ts";

/** What scripts/release.ts embeds beside the archive. */
interface BuildInfo {
  version: string;
  /** SHA-256 of the archive: a rebuilt file with other contents gets a folder of its own. */
  digest: string;
  platform: string;
}

/** What app.ts is handed. */
export interface LaunchContext {
  line: CommandLine;
  version: string;
  dataDir: string;
  runtimeDir: string;
}

/** This build's runtime folder beside the data dir, extracted from the file's archive when missing. */
function runtimeFolder(info: BuildInfo, dataDir: string): string {
  const name = `${info.version}-${info.digest.slice(0, 12)}`;
  const { dir, extractedMs } = ensureRuntime(runtimeParent(dataDir), name, (temp) => unpack(getRawAsset("runtime") as ArrayBuffer, temp));
  if (extractedMs !== null) console.log(`Extracted ${PRODUCT} ${info.version} into ${dir} (${(extractedMs / 1000).toFixed(1)} s).`);
  return dir;
}

async function main(): Promise<void> {
  if (!isSea()) throw new Error("launcher.ts runs inside the release file only (npm run release).");
  const info = JSON.parse(getAsset("build-info", "utf8")) as BuildInfo;
  // In a single executable, argv[1] is the executable again.
  let line: CommandLine;
  try {
    line = parseCommandLine(process.argv.slice(2));
  } catch (err) {
    console.error(`${(err as Error).message}\nRun \`${PRODUCT} help\` for the commands.`);
    process.exit(2);
  }
  if (line.command === "version") {
    console.log(`${PRODUCT} ${info.version} (${info.platform}, Node ${process.version})`);
    return;
  }
  if (line.command === "help") {
    console.log(helpText(info.version));
    return;
  }

  const envFile = path.join(path.dirname(process.execPath), ".env");
  if (existsSync(envFile)) process.loadEnvFile(envFile);
  const dataDir = resolveDataDir(line);
  const runtimeDir = runtimeFolder(info, dataDir);
  process.env["SHOP_RUNTIME_DIR"] = runtimeDir;
  // `require` here sees builtins only, and `import()` of a file is not wired up in a
  // single executable on Node 20: a real CommonJS module in the runtime folder imports the app.
  const boot = createRequire(path.join(runtimeDir, "boot.cjs"))("./boot.cjs") as (url: string) => Promise<unknown>;
  const app = (await boot(pathToFileURL(path.join(runtimeDir, "app.mjs")).href)) as {
    run(context: LaunchContext): Promise<void>;
  };
  await app.run({ line, version: info.version, dataDir, runtimeDir });
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
