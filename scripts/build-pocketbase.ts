// `npm install` (postinstall): builds what every run needs, with the machine's Go
// (scripts/go-build.ts):
// - pocketbase/bin/pocketbase from pocketbase/ (the pinned PocketBase module, main.go and the gateway package),
//   skipped when go.mod, go.sum and the Go files have not changed since the last build; then
//   the JS VM declarations it embeds are written to pocketbase/types/pocketbase.d.ts (not
//   committed: `tsc -p pocketbase/jsconfig.json` type-checks the hooks against them).
// Litestream is not built here: only replication needs it, so `ensureLitestream()` builds it
// on demand (`npm start` with LITESTREAM_REPLICA set, `npm run build:test-tools`).
// A failed build says why, and fails the install.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { ROOT, POCKETBASE_BIN } from "../server/pocketbase-process.ts";
import { buildPocketBase, pocketBaseSourceStamp, pocketBaseVersion, POCKETBASE_DIR } from "./go-build.ts";
import { readPocketBaseSchema } from "./pocketbase-schema.ts";

const dir = POCKETBASE_DIR;
const stampFile = path.join(dir, "bin", ".build-stamp");
const declarationsFile = path.join(dir, "types", "pocketbase.d.ts");

async function buildPocketBaseIfChanged(): Promise<void> {
  const stamp = pocketBaseSourceStamp();
  if (existsSync(POCKETBASE_BIN) && existsSync(stampFile) && readFileSync(stampFile, "utf8") === stamp) {
    console.log("PocketBase binary is up to date.");
    return;
  }
  console.log(`Building PocketBase ${pocketBaseVersion()} (first build takes a minute or two) ...`);
  await buildPocketBase(POCKETBASE_BIN);
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

try {
  await buildPocketBaseIfChanged();
  writeDeclarations();
} catch (err) {
  console.error(`\nBuild failed:\n- ${(err as Error).message}`);
  process.exit(1);
}
