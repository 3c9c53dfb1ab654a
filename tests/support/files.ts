// What a directory holds, for tests that must show it untouched: every file under `dir` (by
// its path relative to it) with the SHA-256 of its content.
import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

export function fileDigests(dir: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    files[path.relative(dir, file)] = createHash("sha256").update(readFileSync(file)).digest("hex");
  }
  return files;
}
