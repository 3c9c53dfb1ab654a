// Runs `astro build` when dist/ is missing or older than any source file, so
// `npm start` always serves what is in the tree.
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { ROOT } from "../server/pocketbase-process.ts";

// server/precompress.ts runs inside the build (astro.config.mjs); compression.ts is its helper.
const SOURCES = [
  "src",
  "public",
  "astro.config.mjs",
  "package-lock.json",
  "server/precompress.ts",
  "server/compression.ts",
  "server/lean-contract.ts",
];
const BUILT = path.join(ROOT, "dist", "server", "entry.mjs");

function newestMtime(p: string): number {
  const stat = statSync(p);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(p)) newest = Math.max(newest, newestMtime(path.join(p, entry)));
  return newest;
}

export function ensureBuilt(): void {
  const sourcesTime = Math.max(
    ...SOURCES.map((s) => path.join(ROOT, s))
      .filter(existsSync)
      .map(newestMtime),
  );
  if (existsSync(BUILT) && statSync(BUILT).mtimeMs >= sourcesTime) return;
  console.log("Building the web app (astro build) ...");
  execFileSync(process.execPath, [path.join(ROOT, "node_modules", "astro", "astro.js"), "build"], {
    cwd: ROOT,
    stdio: "inherit",
  });
}

if (import.meta.url === `file://${process.argv[1]}`) ensureBuilt();
