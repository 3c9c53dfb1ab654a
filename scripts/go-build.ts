// Builds the Go programs the shop runs, with the machine's Go (GO=/path/to/go, else
// /usr/local/go/bin/go, else `go` from PATH):
// - PocketBase from pocketbase/ (the pinned PocketBase module, main.go and the gateway package);
// - Litestream from its pinned module (server/litestream.ts), only when something needs it:
//   `ensureLitestream()` is called by `npm run build:test-tools` (the backup and restore
//   tests) and by `npm start` when LITESTREAM_REPLICA is set, never by `npm install`.
// Both take an output file and an optional GOOS/GOARCH, so a release can cross-compile them.
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import {
  copyFileSync,
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { ROOT } from "../server/pocketbase-process.ts";
import { LITESTREAM_BIN, LITESTREAM_MODULE } from "../server/litestream.ts";

export const POCKETBASE_DIR = path.join(ROOT, "pocketbase");

export interface Target {
  /** GOOS, e.g. "linux". Default: this machine's. */
  goos?: string;
  /** GOARCH, e.g. "amd64" or "arm64". Default: this machine's. */
  goarch?: string;
}

/** The Go command: $GO, else /usr/local/go/bin/go, else `go` from PATH. */
export function findGo(): string {
  for (const candidate of [process.env["GO"], "/usr/local/go/bin/go"]) {
    if (candidate && existsSync(candidate)) return candidate;
  }
  return "go"; // from PATH
}

/**
 * Runs `go args` in `cwd` (CGO_ENABLED=0 unless `env` says otherwise), its output prefixed
 * with `[name]`; resolves with that output, rejects with it.
 */
export function goRun(name: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = {}): Promise<string> {
  const go = findGo();
  return new Promise((resolve, reject) => {
    const child = spawn(go, args, { cwd, env: { ...process.env, CGO_ENABLED: "0", ...env }, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    const relay = (chunk: Buffer) => {
      output += chunk.toString();
      for (const line of chunk.toString().split("\n")) if (line.trim()) console.log(`[${name}] ${line}`);
    };
    child.stdout.on("data", relay);
    child.stderr.on("data", relay);
    child.once("error", (err) =>
      reject(new Error(`${name}: could not run Go (${go}): ${err.message}. Install Go 1.26 or set GO=/path/to/go.`)),
    );
    child.once("exit", (code, signal) => {
      if (code === 0) resolve(output);
      else
        reject(
          new Error(`${name}: \`${go} ${args.join(" ")}\` failed (${signal ?? `exit code ${code}`})${output ? `:\n${output.trim()}` : ""}`),
        );
    });
  });
}

function targetEnv(target: Target): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  if (target.goos) env["GOOS"] = target.goos;
  if (target.goarch) env["GOARCH"] = target.goarch;
  return env;
}

/** The module's Go files (main package and its packages, e.g. gateway/), relative to `sub`'s root, in a stable order. */
function goSources(sub = ""): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(path.join(POCKETBASE_DIR, sub), { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const rel = path.join(sub, entry.name);
    if (entry.isDirectory() && !/^(bin|types|pb_\w+|node_modules)$/.test(entry.name)) files.push(...goSources(rel));
    else if (entry.isFile() && entry.name.endsWith(".go")) files.push(rel);
  }
  return files;
}

/**
 * What a PocketBase build is made from: the SHA-256 of go.mod, go.sum and every Go file of
 * the module. A build stamped with it is up to date (npm install's, the release's).
 */
export function pocketBaseSourceStamp(): string {
  const inputs = ["go.mod", "go.sum", ...goSources()].map((f) => readFileSync(path.join(POCKETBASE_DIR, f)));
  return createHash("sha256").update(Buffer.concat(inputs)).digest("hex");
}

/** The PocketBase module version pinned in pocketbase/go.mod ("dev" when it cannot be read). */
export function pocketBaseVersion(): string {
  const goMod = readFileSync(path.join(POCKETBASE_DIR, "go.mod"), "utf8");
  return /github\.com\/pocketbase\/pocketbase (v\S+)/.exec(goMod)?.[1] ?? "dev";
}

/**
 * Builds PocketBase (pocketbase/: main.go, the gateway package, the pinned module) into
 * `outFile`: static (CGO_ENABLED=0), -trimpath, stripped (-s -w), with its Version set.
 */
export async function buildPocketBase(outFile: string, target: Target = {}): Promise<void> {
  const version = pocketBaseVersion();
  mkdirSync(path.dirname(outFile), { recursive: true });
  await goRun(
    "pocketbase",
    ["build", "-trimpath", "-ldflags", `-s -w -X github.com/pocketbase/pocketbase.Version=${version}`, "-o", path.resolve(outFile), "."],
    POCKETBASE_DIR,
    targetEnv(target),
  );
}

/**
 * Builds the pinned Litestream (LITESTREAM_MODULE) into `outFile`: `go install` of the
 * module at its version (its own go.mod, as upstream builds it), static and stripped.
 * `go install` refuses a cross-compiled binary into GOBIN, so it installs into a
 * temporary GOPATH (bin/ or bin/<goos>_<goarch>/), with the usual module cache, and the
 * binary is copied from there.
 */
export async function buildLitestream(outFile: string, target: Target = {}): Promise<void> {
  const gomodcache = (await goRun("litestream", ["env", "GOMODCACHE"], ROOT, {}).catch(() => "")).trim();
  const gopath = mkdtempSync(path.join(tmpdir(), "proxyshop-litestream-build-"));
  try {
    const env: NodeJS.ProcessEnv = { ...targetEnv(target), GOPATH: gopath, GOBIN: "" };
    if (gomodcache) env["GOMODCACHE"] = gomodcache;
    await goRun("litestream", ["install", "-trimpath", "-ldflags", "-s -w", LITESTREAM_MODULE], ROOT, env);
    const goos = target.goos ?? (await goRun("litestream", ["env", "GOOS"], ROOT, {})).trim();
    const goarch = target.goarch ?? (await goRun("litestream", ["env", "GOARCH"], ROOT, {})).trim();
    const native = (await goRun("litestream", ["env", "GOHOSTOS", "GOHOSTARCH"], ROOT, {})).trim().split(/\s+/);
    const sub = native[0] === goos && native[1] === goarch ? "" : `${goos}_${goarch}`;
    const built = path.join(gopath, "bin", sub, goos === "windows" ? "litestream.exe" : "litestream");
    if (!existsSync(built)) throw new Error(`litestream: \`go install\` left no binary at ${built}`);
    mkdirSync(path.dirname(outFile), { recursive: true });
    // Copy to a temporary name, then rename: a running Litestream keeps its old inode.
    const tmp = `${outFile}.tmp-${process.pid}`;
    copyFileSync(built, tmp);
    chmodSync(tmp, 0o755);
    renameSync(tmp, outFile);
  } finally {
    // The module cache marks its files read-only; the temporary GOPATH holds only bin/.
    rmSync(gopath, { recursive: true, force: true });
  }
}

/** Where the version of pocketbase/bin/litestream is stamped. */
export const LITESTREAM_STAMP = `${LITESTREAM_BIN}.version`;

/** True when pocketbase/bin/litestream is there and of the pinned version. */
export function litestreamUpToDate(): boolean {
  return existsSync(LITESTREAM_BIN) && existsSync(LITESTREAM_STAMP) && readFileSync(LITESTREAM_STAMP, "utf8") === LITESTREAM_MODULE;
}

/**
 * pocketbase/bin/litestream at the pinned version: built (about three minutes the first
 * time, with a cold Go build cache) unless it is already there. For `npm start` with
 * LITESTREAM_REPLICA set, and the tests that replicate (`npm run build:test-tools`).
 */
export async function ensureLitestream(): Promise<string> {
  if (litestreamUpToDate()) return LITESTREAM_BIN;
  console.log(`Building ${LITESTREAM_MODULE} for replication (first build takes about three minutes) ...`);
  await buildLitestream(LITESTREAM_BIN);
  writeFileSync(LITESTREAM_STAMP, LITESTREAM_MODULE);
  console.log(`Built ${path.relative(ROOT, LITESTREAM_BIN)}.`);
  return LITESTREAM_BIN;
}
