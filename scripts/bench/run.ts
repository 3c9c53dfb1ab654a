// Running a benchmark section on its own (`npm run bench:chat` and friends): the guard
// that tells "run as a script" from "imported by scripts/bench.ts", and the printing of
// the section's rows as a table with its summary line.
import { realpathSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { formatTable, summaryLine, tally, type BenchSection } from "./table.ts";

/** True when the module at `moduleUrl` (its import.meta.url) is the script node was started with. */
export function isMain(moduleUrl: string): boolean {
  const script = process.argv[1];
  if (!script) return false;
  try {
    return moduleUrl === pathToFileURL(realpathSync(path.resolve(script))).href;
  } catch {
    return false;
  }
}

/**
 * Runs one section and prints its table. The exit code is non-zero only when a "stable"
 * row (a byte budget, a Lighthouse score) missed its goal or the section itself failed:
 * timings on a shared machine never fail a run.
 */
export async function runAlone(section: BenchSection): Promise<void> {
  try {
    const rows = await section.run();
    console.log(`\n${section.title}\n${formatTable(rows)}\n${summaryLine(rows)}`);
    if (tally(rows).stableNotMet > 0) process.exitCode = 1;
  } catch (err) {
    console.error(`${section.title} failed:`, err);
    process.exitCode = 1;
  }
  exitWhenDone();
}

/**
 * Ends the process once a run is over. The web app loaded in-process (server/web-server.ts
 * imports Astro's handler) keeps a realtime subscription to PocketBase that retries forever
 * after the shop stops, which would otherwise keep node alive.
 */
export function exitWhenDone(): never {
  process.exit(process.exitCode ?? 0);
}
