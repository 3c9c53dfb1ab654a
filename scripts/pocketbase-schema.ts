// What the built PocketBase binary says about itself, read from a throwaway data dir: the
// collections the repo's migrations make (its `collections` command, pocketbase/main.go)
// and the JS VM declarations its jsvm plugin writes there on bootstrap (types.d.ts).
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { HOOKS_DIR, MIGRATIONS_DIR, POCKETBASE_BIN, newCredentialsKey } from "../server/pocketbase-process.ts";

export interface CollectionField {
  name: string;
  type: string;
  system: boolean;
  hidden: boolean;
  required?: boolean;
  /** select: the allowed values. */
  values?: string[];
  /** select, relation, file: above 1 the value is a list. */
  maxSelect?: number;
}

export interface Collection {
  name: string;
  type: "base" | "auth" | "view";
  system: boolean;
  fields: CollectionField[];
}

export interface PocketBaseSchema {
  /** The non-system collections, in PocketBase's order. */
  collections: Collection[];
  /** The JS VM's TypeScript declarations (types.d.ts) this binary embeds. */
  declarations: string;
}

/**
 * Bootstraps the binary on an empty data dir, applying the migrations in `migrationsDir`
 * (the repo's by default; an empty dir applies none). The data dir is removed afterwards.
 */
export function readPocketBaseSchema(migrationsDir = MIGRATIONS_DIR): PocketBaseSchema {
  const dataDir = mkdtempSync(path.join(tmpdir(), "pb-schema-"));
  try {
    const output = execFileSync(
      POCKETBASE_BIN,
      ["collections", `--dir=${dataDir}`, `--hooksDir=${HOOKS_DIR}`, `--migrationsDir=${migrationsDir}`, "--hooksWatch=false"],
      // A migration encrypts with this key; the data it encrypts is thrown away with the dir.
      { env: { ...process.env, SHOP_CREDENTIALS_KEY: newCredentialsKey() }, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] },
    );
    // PocketBase v0.39 exits 0 even for an unknown command: an older binary prints its error.
    if (!output.startsWith("[")) throw new Error(`${POCKETBASE_BIN} collections: ${output.trim()} (rebuild it: npm run postinstall)`);
    return {
      collections: JSON.parse(output) as Collection[],
      declarations: readFileSync(path.join(dataDir, "types.d.ts"), "utf8"),
    };
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}
