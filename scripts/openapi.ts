// Writes the developer API's OpenAPI document from the route definitions in
// src/lib/api-contract/ to pocketbase/pb_hooks/lib/api/openapi.json (the hooks serve it, the
// Go middleware reads its scopes and checks every request against it, the docs page renders
// it). --check: fail when the committed file is not what the definitions make (npm run check).
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { openApiDocument } from "../src/lib/api-contract/openapi.ts";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
export const OPENAPI_FILE = join(ROOT, "pocketbase/pb_hooks/lib/api/openapi.json");

const text = `${JSON.stringify(openApiDocument(), null, 2)}\n`;
if (process.argv.includes("--check")) {
  let current = "";
  try {
    current = readFileSync(OPENAPI_FILE, "utf8");
  } catch {
    current = "";
  }
  if (current !== text) {
    console.error(`${OPENAPI_FILE} is out of date: run npm run openapi and commit it.`);
    process.exit(1);
  }
} else {
  mkdirSync(dirname(OPENAPI_FILE), { recursive: true });
  writeFileSync(OPENAPI_FILE, text);
  console.log(`Wrote ${OPENAPI_FILE}.`);
}
