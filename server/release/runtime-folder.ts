// The release's runtime folder (launcher.ts): <data dir>/../.proxy-shop-runtime/<version>-<digest>/.
// Extracted once, into a temporary folder renamed into place (so a half-extracted folder is
// never used, and two starts at once do not clash), skipped when it is there; once this
// build's folder is in place, the folders of other builds are removed. The parent and the
// folder are refused when another user owns them or may write to them (trusted-path.ts): the
// shop runs the programs in there. Builtins only: the launcher bundles this file.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, statSync } from "node:fs";
import path from "node:path";
import { assertTrusted } from "../trusted-path.ts";

const STALE_EXTRACTION_MS = 10 * 60_000;

export interface RuntimeFolder {
  dir: string;
  /** How long this call's extraction took; null when the folder was there already. */
  extractedMs: number | null;
}

/** The folder `name` in `parent`, made by `extract(dir)` (which fills an empty folder) unless it is there. */
export function ensureRuntime(parent: string, name: string, extract: (dir: string) => void): RuntimeFolder {
  const dir = path.join(parent, name);
  mkdirSync(parent, { recursive: true, mode: 0o700 });
  assertTrusted("The runtime folder's parent", parent);
  let extractedMs: number | null = null;
  if (!existsSync(dir)) {
    const started = Date.now();
    const temp = mkdtempSync(path.join(parent, `.extracting-${name}-`));
    try {
      extract(temp);
      renameSync(temp, dir);
      extractedMs = Date.now() - started;
    } catch (err) {
      rmSync(temp, { recursive: true, force: true });
      // Another start of the same build put it in place first: use that one.
      if (!existsSync(dir)) throw err;
    }
  }
  assertTrusted("The runtime folder", dir);
  // Other builds' folders (an upgrade or a downgrade), and extractions abandoned long ago.
  for (const entry of readdirSync(parent)) {
    if (entry === name) continue;
    const other = path.join(parent, entry);
    if (entry.startsWith(".extracting-") && Date.now() - statSync(other).mtimeMs < STALE_EXTRACTION_MS) continue;
    rmSync(other, { recursive: true, force: true });
  }
  return { dir, extractedMs };
}
