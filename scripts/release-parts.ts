// The pieces `npm run release` (release.ts) puts into each file: PocketBase, Litestream and
// the Node binary for the target, built or fetched once and cached in
// node_modules/.cache/proxy-shop-release/, the files of a folder as archive entries, and the
// bundles (the launcher, Astro's server entry and the shop's server code).
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { build } from "esbuild";
import { LITESTREAM_MODULE } from "../server/litestream.ts";
import { POCKETBASE_BIN, ROOT } from "../server/pocketbase-process.ts";
import type { ArchiveFile } from "../server/release/archive.ts";
import { buildLitestream, buildPocketBase, ensureLitestream, POCKETBASE_DIR } from "./go-build.ts";

export const CACHE_DIR = path.join(ROOT, "node_modules", ".cache", "proxy-shop-release");

export interface Platform {
  /** Node's name (node-linux-<arch>), and the file's suffix. */
  arch: "x64" | "arm64";
  goarch: "amd64" | "arm64";
}
export const PLATFORMS: Platform[] = [
  { arch: "x64", goarch: "amd64" },
  { arch: "arm64", goarch: "arm64" },
];

/** `file` built by `make` unless its stamp (file.stamp) says `stamp` already. */
async function cached(file: string, stamp: string, make: (out: string) => Promise<void>): Promise<string> {
  const stampFile = `${file}.stamp`;
  if (existsSync(file) && existsSync(stampFile) && readFileSync(stampFile, "utf8") === stamp) return file;
  mkdirSync(path.dirname(file), { recursive: true });
  await make(file);
  writeFileSync(stampFile, stamp);
  return file;
}

export async function pocketBaseFor(platform: Platform, stamp: string): Promise<string> {
  const local = path.join(POCKETBASE_DIR, "bin", ".build-stamp");
  if (platform.arch === "x64" && process.arch === "x64" && existsSync(POCKETBASE_BIN) && existsSync(local)) {
    if (readFileSync(local, "utf8") === stamp) return POCKETBASE_BIN; // npm install's build
  }
  return cached(path.join(CACHE_DIR, `pocketbase-linux-${platform.arch}`), stamp, async (out) => {
    console.log(`Building PocketBase for linux-${platform.arch} ...`);
    await buildPocketBase(out, { goos: "linux", goarch: platform.goarch });
  });
}

export async function litestreamFor(platform: Platform): Promise<string> {
  // This machine's build, which the backup tests use too.
  if (platform.arch === "x64" && process.arch === "x64") return ensureLitestream();
  return cached(path.join(CACHE_DIR, `litestream-linux-${platform.arch}`), LITESTREAM_MODULE, async (out) => {
    console.log(`Building ${LITESTREAM_MODULE} for linux-${platform.arch} (a few minutes the first time) ...`);
    await buildLitestream(out, { goos: "linux", goarch: platform.goarch });
  });
}

/** The official Node binary of this Node version for `arch` (the blob's format is tied to the version). */
export function nodeBinary(arch: Platform["arch"]): string {
  const version = process.version.slice(1);
  const out = path.join(CACHE_DIR, `node-v${version}-linux-${arch}`);
  if (existsSync(out)) return out;
  mkdirSync(CACHE_DIR, { recursive: true });
  console.log(`Fetching node-linux-${arch}@${version} from the npm registry ...`);
  const packed = execFileSync("npm", ["pack", `node-linux-${arch}@${version}`, "--pack-destination", CACHE_DIR, "--silent"], {
    cwd: CACHE_DIR,
    encoding: "utf8",
  })
    .trim()
    .split("\n")
    .pop()!;
  const tarball = path.join(CACHE_DIR, packed);
  const unpacked = path.join(CACHE_DIR, `node-linux-${arch}-unpacked`);
  rmSync(unpacked, { recursive: true, force: true });
  mkdirSync(unpacked);
  execFileSync("tar", ["-xzf", tarball, "-C", unpacked, "package/bin/node"]);
  renameSync(path.join(unpacked, "package", "bin", "node"), out);
  rmSync(unpacked, { recursive: true, force: true });
  rmSync(tarball, { force: true });
  return out;
}

/** Every file under `dir`, as archive entries under `prefix`. */
export function filesUnder(dir: string, prefix: string): ArchiveFile[] {
  const out: ArchiveFile[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...filesUnder(full, `${prefix}/${entry.name}`));
    else if (entry.isFile()) out.push({ path: `${prefix}/${entry.name}`, mode: statSync(full).mode & 0o777, data: readFileSync(full) });
  }
  return out;
}

// CommonJS packages bundled into an ES module call `require` for Node's builtins.
const ESM_REQUIRE_BANNER =
  'import { createRequire as __shopCreateRequire } from "node:module"; const require = __shopCreateRequire(import.meta.url);';

/** One ES module: `entry` with everything it imports (npm packages included). */
export async function bundleEsm(entry: string): Promise<Buffer> {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    write: false,
    logLevel: "error",
    banner: { js: ESM_REQUIRE_BANNER },
    legalComments: "none",
  });
  return Buffer.from(result.outputFiles[0]!.contents);
}

export async function bundleLauncher(): Promise<Buffer> {
  const result = await build({
    entryPoints: [path.join(ROOT, "server", "release", "launcher.ts")],
    bundle: true,
    platform: "node",
    format: "cjs",
    target: "node20",
    write: false,
    logLevel: "error",
  });
  return Buffer.from(result.outputFiles[0]!.contents);
}
