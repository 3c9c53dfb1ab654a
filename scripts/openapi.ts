// Writes the developer API's OpenAPI document from the route definitions in
// src/lib/api-contract/ to pocketbase/pb_hooks/lib/api/openapi.json (the hooks serve it, the
// Go middleware reads its scopes and checks every request against it, the docs page renders
// it), beside it admin-openapi.json, the console's routes (/api/admin, /api/shop: not served;
// the Go middleware checks their requests against it too), and facts.json, the contract's
// facts the hooks read (events, kinds, scopes, limits, ports: facts.ts). --check: fail when a
// committed file is not what the definitions make (npm run check).
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { adminOpenApiDocument } from "../src/lib/api-contract/admin/openapi.ts";
import { contractFacts } from "../src/lib/api-contract/facts.ts";
import { openApiDocument } from "../src/lib/api-contract/openapi.ts";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
export const OPENAPI_FILE = join(ROOT, "pocketbase/pb_hooks/lib/api/openapi.json");
export const ADMIN_OPENAPI_FILE = join(ROOT, "pocketbase/pb_hooks/lib/api/admin-openapi.json");
export const FACTS_FILE = join(ROOT, "pocketbase/pb_hooks/lib/facts.json");

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;
const outputs: [file: string, text: string][] = [
  [OPENAPI_FILE, json(openApiDocument())],
  [ADMIN_OPENAPI_FILE, json(adminOpenApiDocument())],
  [FACTS_FILE, json(contractFacts())],
];

for (const [file, text] of outputs) {
  if (process.argv.includes("--check")) {
    let current = "";
    try {
      current = readFileSync(file, "utf8");
    } catch {
      current = "";
    }
    if (current !== text) {
      console.error(`${file} is out of date: run npm run openapi and commit it.`);
      process.exitCode = 1;
    }
  } else {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, text);
    console.log(`Wrote ${file}.`);
  }
}
