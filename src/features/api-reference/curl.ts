// The curl example of an operation at the shop's address: the headers it needs and the
// document's own examples of its body, path and required query parameters (which the server
// accepts: pocketbase/devapi/examples_test.go sends each through its request validation, and
// tests/api/contract-examples.test.ts sends every operation to a running shop). The
// Idempotency-Key is a fresh $(uuidgen): a copied fixed key would replay the first request.
import type { JsonSchema, OpenApiDocument, Operation } from "@/features/api-reference/openapi-types";
import { refName, resolve } from "@/features/api-reference/schema-fields";

type Json = Record<string, unknown>;

const EXAMPLE_ID = "a1b2c3d4e5f6g7h";

/**
 * The document's example of a schema (the contract's v.examples: every request body and path
 * parameter has one), else one made from it: an enum's first value, sensible numbers,
 * required fields only.
 */
export function exampleOf(doc: OpenApiDocument, raw: JsonSchema | undefined, name = "", seen: ReadonlySet<string> = new Set()): unknown {
  const schema = resolve(doc, raw, seen);
  if (schema.example !== undefined) return schema.example;
  if (schema.examples?.length) return schema.examples[0];
  if (schema.enum?.length) return schema.enum[0];
  if (schema.const !== undefined) return schema.const;
  const variants = schema.anyOf ?? schema.oneOf;
  if (variants) {
    const first = variants.find((s) => resolve(doc, s).type !== "null") ?? variants[0];
    return exampleOf(doc, first, name, seen);
  }
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== "null") : schema.type;
  const ref = refName(raw ?? {});
  const inner = ref ? new Set([...seen, ref]) : seen;
  switch (type) {
    case "integer":
    case "number":
      if (name.endsWith("_cents")) return Math.max(schema.minimum ?? 0, 5000);
      return Math.max(schema.minimum ?? 1, 1);
    case "boolean":
      return true;
    case "array": {
      const singular = name.endsWith("_ids") ? "id" : name.replace(/s$/, "");
      return [exampleOf(doc, schema.items, singular, inner)];
    }
    case "object": {
      const out: Json = {};
      const required = new Set(schema.required ?? []);
      for (const [key, property] of Object.entries(schema.properties ?? {})) {
        if (required.has(key)) out[key] = exampleOf(doc, property, key, inner);
      }
      return out;
    }
    case "string":
      if (schema.format === "email") return "you@example.com";
      if (schema.format === "date-time") return "2027-01-01T00:00:00Z";
      if (schema.pattern === "^[A-Za-z]{2}$") return "US";
      if (schema.pattern === "^[a-z0-9]{15}$" || name === "id") return EXAMPLE_ID;
      return "example";
    default:
      return null;
  }
}

const shellQuote = (text: string): string => `'${text.replaceAll("'", `'\\''`)}'`;

/** A curl command for an operation at `baseUrl`, with the headers it needs and an example body. */
export function curlOf(doc: OpenApiDocument, method: string, path: string, op: Operation, baseUrl: string): string {
  const url = `${baseUrl}${path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const param = op.parameters?.find((p) => p.in === "path" && p.name === name);
    return encodeURIComponent(String(exampleOf(doc, param?.schema, name)));
  })}`;
  const query = (op.parameters ?? [])
    .filter((p) => p.in === "query" && p.required)
    .map((p) => `${encodeURIComponent(p.name)}=${encodeURIComponent(String(exampleOf(doc, p.schema, p.name)))}`);
  const lines = [`curl ${method === "GET" ? "" : `-X ${method} `}"${url}${query.length ? `?${query.join("&")}` : ""}"`];
  const scope = op["x-scope"] ?? "read";
  if (scope === "session") lines.push(`-H "Authorization: Bearer $PROXY_SHOP_SESSION"`);
  else if (scope !== "public") lines.push(`-H "Authorization: Bearer $PROXY_SHOP_KEY"`);
  for (const p of op.parameters ?? []) {
    if (p.in !== "header") continue;
    // A change always gets a fresh Idempotency-Key (retrying it is then safe); other headers when required.
    if (p.name.toLowerCase() === "idempotency-key") lines.push(`-H "${p.name}: $(uuidgen)"`);
    else if (p.required) lines.push(`-H "${p.name}: ${String(exampleOf(doc, p.schema, p.name))}"`);
  }
  const body = op.requestBody?.content?.["application/json"]?.schema;
  if (body) {
    lines.push(`-H "Content-Type: application/json"`);
    lines.push(`-d ${shellQuote(JSON.stringify(exampleOf(doc, body)))}`);
  }
  return lines.join(" \\\n  ");
}
