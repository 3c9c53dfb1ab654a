// A shop installed before a migration, for the migration tests: temporary directories
// removed after the file's tests, and a copy of the migrations without the ones from
// `first` on (a data dir started on it, then on every migration, is the upgrade).
import { cpSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll } from "vitest";
import { MIGRATIONS_DIR } from "../../server/pocketbase-process.ts";

/** Call at the top of a describe: answers a maker of temporary directories, removed afterwards. */
export function useTempDirs(): (name: string) => string {
  const dirs: string[] = [];
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });
  return (name) => {
    const dir = mkdtempSync(path.join(os.tmpdir(), `proxyshop-${name}-`));
    dirs.push(dir);
    return dir;
  };
}

/** A copy of the migrations in `dir` without those named `first` or later. */
export function migrationsBefore(dir: string, first: string): string {
  cpSync(MIGRATIONS_DIR, dir, { recursive: true });
  for (const file of readdirSync(dir)) if (file >= first) rmSync(path.join(dir, file));
  return dir;
}
