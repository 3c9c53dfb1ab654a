// A throwaway copy of pb_hooks with bench-only routes added (seeding tens of thousands of
// rows in one SQL transaction: through the records API that would take minutes, and every
// user created there costs a bcrypt hash). Shared by the benchmarks that seed.
import { cpSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { HOOKS_DIR } from "../../server/pocketbase-process.ts";

export interface BenchHooks {
  /** The hooks directory to start PocketBase with (startPocketBase's hooksDir). */
  dir: string;
  remove(): void;
}

/** pb_hooks plus `source` (JSVM code, e.g. a routerAdd) as zz-bench-seed.pb.js. */
export function benchHooks(source: string): BenchHooks {
  const dir = mkdtempSync(path.join(os.tmpdir(), "proxyshop-bench-hooks-"));
  cpSync(HOOKS_DIR, dir, { recursive: true });
  writeFileSync(path.join(dir, "zz-bench-seed.pb.js"), source);
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
