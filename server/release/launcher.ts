// The release file's entry point (Node's single executable application: scripts/release.ts
// bundles this file alone, builtins only, as the blob's main script). It answers `version`
// and `help` itself; for every other command it loads .env beside the file, makes sure the
// runtime folder of this build is extracted beside the data dir, and hands over to the
// shop (app.ts, an ES module in that folder, with the server code and npm packages bundled).
//
// The runtime folder: <data dir>/../.proxy-shop-runtime/<version>-<digest of the files>/.
// Extracted once, into a temporary folder renamed into place (so a half-extracted folder is
// never used, and two starts at once do not clash), skipped when it is there; once this
// build's folder is in place, the folders of other builds are removed. Nothing is
// downloaded at run time. The data dir and the key beside it are never touched here.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { getAsset, getRawAsset, isSea } from "node:sea";
import { unpack } from "./archive.ts";
import { helpText, parseCommandLine, PRODUCT, resolveDataDir, runtimeParent, type CommandLine } from "./commands.ts";

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

const STALE_EXTRACTION_MS = 10 * 60_000;

function ensureRuntime(info: BuildInfo, dataDir: string): string {
  const parent = runtimeParent(dataDir);
  const name = `${info.version}-${info.digest.slice(0, 12)}`;
  const dir = path.join(parent, name);
  if (!existsSync(dir)) {
    mkdirSync(parent, { recursive: true, mode: 0o700 });
    const started = Date.now();
    const temp = mkdtempSync(path.join(parent, `.extracting-${name}-`));
    try {
      unpack(getRawAsset("runtime") as ArrayBuffer, temp);
      renameSync(temp, dir);
      console.log(`Extracted ${PRODUCT} ${info.version} into ${dir} (${((Date.now() - started) / 1000).toFixed(1)} s).`);
    } catch (err) {
      rmSync(temp, { recursive: true, force: true });
      // Another start of the same build put it in place first: use that one.
      if (!existsSync(dir)) throw err;
    }
  }
  // Other builds' folders (an upgrade or a downgrade), and extractions abandoned long ago.
  for (const entry of readdirSync(parent)) {
    if (entry === name) continue;
    const other = path.join(parent, entry);
    if (entry.startsWith(".extracting-") && Date.now() - statSync(other).mtimeMs < STALE_EXTRACTION_MS) continue;
    rmSync(other, { recursive: true, force: true });
  }
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
  const runtimeDir = ensureRuntime(info, dataDir);
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
