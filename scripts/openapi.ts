// Writes the OpenAPI documents from the route definitions in src/lib/api-contract/: the
// developer API's to pocketbase/pb_hooks/lib/api/openapi.json (the hooks serve it, the API key
// middleware reads its scopes, the docs page renders it) and the console's to
// admin-openapi.json beside it (not served; the request validation reads it). --check: fail
// when a committed file is not what the definitions make (npm run check).
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { openApiDocument } from "../src/lib/api-contract/openapi.ts";
import { adminOpenApiDocument } from "../src/lib/api-contract/admin/openapi.ts";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
export const OPENAPI_FILE = join(ROOT, "pocketbase/pb_hooks/lib/api/openapi.json");
export const ADMIN_OPENAPI_FILE = join(ROOT, "pocketbase/pb_hooks/lib/api/admin-openapi.json");

const outputs: [file: string, document: unknown][] = [
  [OPENAPI_FILE, openApiDocument()],
  [ADMIN_OPENAPI_FILE, adminOpenApiDocument()],
];

for (const [file, document] of outputs) {
  const text = `${JSON.stringify(document, null, 2)}\n`;
  if (process.argv.includes("--check")) {
    let current = "";
    try {
      current = readFileSync(file, "utf8");
    } catch {
      current = "";
    }
    if (current !== text) {
      console.error(`${file} is out of date: run npm run openapi and commit it.`);
      process.exit(1);
    }
  } else {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, text);
    console.log(`Wrote ${file}.`);
  }
}
