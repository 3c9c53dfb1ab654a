// `npm install` (postinstall): builds the two Go programs the shop runs, side by side, with
// the machine's Go:
// - pocketbase/bin/pocketbase from pocketbase/ (the pinned PocketBase module, main.go and the gateway package),
//   skipped when go.mod, go.sum and the Go files have not changed since the last build; then
//   the JS VM declarations it embeds are written to pocketbase/types/pocketbase.d.ts (not
//   committed: `tsc -p pocketbase/jsconfig.json` type-checks the hooks against them);
// - pocketbase/bin/litestream from the pinned Litestream module (continuous replication,
//   server/litestream.ts), skipped when that version is already there.
// A failed build says which one failed and why, and fails the install.
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { ROOT, POCKETBASE_BIN } from "../server/pocketbase-process.ts";
import { LITESTREAM_BIN, LITESTREAM_MODULE } from "../server/litestream.ts";
import { readPocketBaseSchema } from "./pocketbase-schema.ts";

const dir = path.join(ROOT, "pocketbase");
const stampFile = path.join(dir, "bin", ".build-stamp");
const declarationsFile = path.join(dir, "types", "pocketbase.d.ts");
const litestreamStamp = `${LITESTREAM_BIN}.version`;

function findGo(): string {
  for (const candidate of [process.env["GO"], "/usr/local/go/bin/go"]) {
    if (candidate && existsSync(candidate)) return candidate;
  }
  return "go"; // from PATH
}

/** Runs `go args` in `cwd`, its output prefixed with `[name]`; rejects with that output. */
function goRun(name: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<void> {
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
      if (code === 0) resolve();
      else
        reject(
          new Error(`${name}: \`${go} ${args.join(" ")}\` failed (${signal ?? `exit code ${code}`})${output ? `:\n${output.trim()}` : ""}`),
        );
    });
  });
}

/** The module's Go files (main package and its packages, e.g. gateway/), relative to `root`, in a stable order. */
function goSources(root: string, sub = ""): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(path.join(root, sub), { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const rel = path.join(sub, entry.name);
    if (entry.isDirectory() && !/^(bin|types|pb_\w+|node_modules)$/.test(entry.name)) files.push(...goSources(root, rel));
    else if (entry.isFile() && entry.name.endsWith(".go")) files.push(rel);
  }
  return files;
}

async function buildPocketBase(): Promise<void> {
  const inputs = ["go.mod", "go.sum", ...goSources(dir)].map((f) => readFileSync(path.join(dir, f)));
  const stamp = createHash("sha256").update(Buffer.concat(inputs)).digest("hex");
  if (existsSync(POCKETBASE_BIN) && existsSync(stampFile) && readFileSync(stampFile, "utf8") === stamp) {
    console.log("PocketBase binary is up to date.");
    return;
  }
  const version = /github\.com\/pocketbase\/pocketbase (v\S+)/.exec(inputs[0]!.toString())?.[1] ?? "dev";
  console.log(`Building PocketBase ${version} (first build takes a minute or two) ...`);
  await goRun(
    "pocketbase",
    ["build", "-trimpath", "-ldflags", `-s -w -X github.com/pocketbase/pocketbase.Version=${version}`, "-o", POCKETBASE_BIN, "."],
    dir,
    {},
  );
  writeFileSync(stampFile, stamp);
  console.log(`Built ${path.relative(ROOT, POCKETBASE_BIN)}.`);
}

/** The declarations the binary writes on bootstrap (no migration applied: an empty dir). */
function writeDeclarations(): void {
  const noMigrations = mkdtempSync(path.join(tmpdir(), "pb-no-migrations-"));
  try {
    writeFileSync(declarationsFile, readPocketBaseSchema(noMigrations).declarations);
  } finally {
    rmSync(noMigrations, { recursive: true, force: true });
  }
  console.log(`Wrote ${path.relative(ROOT, declarationsFile)}.`);
}

async function buildLitestream(): Promise<void> {
  if (existsSync(LITESTREAM_BIN) && existsSync(litestreamStamp) && readFileSync(litestreamStamp, "utf8") === LITESTREAM_MODULE) {
    console.log("Litestream binary is up to date.");
    return;
  }
  console.log(`Building ${LITESTREAM_MODULE} (first build takes about three minutes) ...`);
  // `go install` from the module proxy puts it in GOBIN under its own name: litestream.
  await goRun("litestream", ["install", LITESTREAM_MODULE], ROOT, { GOBIN: path.dirname(LITESTREAM_BIN) });
  writeFileSync(litestreamStamp, LITESTREAM_MODULE);
  console.log(`Built ${path.relative(ROOT, LITESTREAM_BIN)}.`);
}

const results = await Promise.allSettled([buildPocketBase().then(writeDeclarations), buildLitestream()]);
const failures = results.flatMap((r) => (r.status === "rejected" ? [(r.reason as Error).message] : []));
if (failures.length > 0) {
  console.error(`\nBuild failed:\n${failures.map((f) => `- ${f}`).join("\n")}`);
  process.exit(1);
}
