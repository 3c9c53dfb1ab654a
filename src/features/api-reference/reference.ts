// The developer API's reference as view data: the OpenAPI document the contract writes
// (pocketbase/pb_hooks/lib/api/openapi.json) turned into groups of operations with their
// parameters, request and answer fields (nested objects flattened with dots), errors and a
// curl example at the shop's own address. Pure: the page renders it to static HTML.
import { siteUrl } from "@/lib/server/seo";

type Json = Record<string, unknown>;

/** The parts of a JSON schema the reference reads. */
export interface JsonSchema {
  $ref?: string;
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  pattern?: string;
  minimum?: number;
  description?: string;
  title?: string;
  example?: unknown;
  examples?: unknown[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: JsonSchema | boolean;
}

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  description?: string;
  schema?: JsonSchema;
}

interface MediaType {
  schema?: JsonSchema;
}

interface Response {
  description?: string;
  content?: Record<string, MediaType>;
}

interface Operation {
  operationId?: string;
  tags?: string[];
  summary?: string;
  description?: string;
  "x-scope"?: string;
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, MediaType> };
  responses?: Record<string, Response>;
}

/** The parts of an OpenAPI 3.1 document the reference reads. */
export interface OpenApiDocument {
  info?: { title?: string; version?: string; description?: string };
  tags?: { name: string; description?: string }[];
  paths?: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, JsonSchema> };
}

export interface FieldView {
  /** Dotted path; `[]` marks the items of an array ("proxies[].id"). */
  name: string;
  type: string;
  required: boolean;
  description: string;
}

export interface ParameterView extends FieldView {
  in: "path" | "query" | "header";
}

export interface ErrorView {
  status: string;
  description: string;
}

export interface OperationView {
  /** Anchor on the page. */
  id: string;
  operationId: string;
  method: string;
  path: string;
  summary: string;
  description: string;
  /** x-scope: an API key scope, "session" or "public". */
  scope: string;
  /** The scope in words, as the reference shows it. */
  access: string;
  parameters: ParameterView[];
  requestFields: FieldView[];
  /** The 2xx status and its fields. */
  responseStatus: string;
  responseMediaType: string;
  responseFields: FieldView[];
  errors: ErrorView[];
  curl: string;
}

export interface TagView {
  id: string;
  name: string;
  description: string;
  operations: OperationView[];
}

export interface ProblemView {
  /** As the answers carry it (`code`): invalid_api_key. */
  code: string;
  /** The anchor the answers' `type` points at: problem-invalid-api-key. */
  anchor: string;
  status: number;
  meaning: string;
}

export interface ApiReferenceView {
  title: string;
  version: string;
  description: string;
  baseUrl: string;
  documentUrl: string;
  tags: TagView[];
  problems: ProblemView[];
}

/** Where the shop serves the document. */
export const OPENAPI_DOCUMENT_PATH = "/api/v1/openapi.json";

/** Where the problem details' `type` points (pocketbase/devapi/problem.go problemTypeBase). */
export const PROBLEM_TYPE_BASE = "/docs/api#problem-";

/**
 * The problem codes the server answers with (pocketbase/devapi: problem.go, keys.go, scopes.go and the
 * hooks); tests/unit/api-reference.test.ts fails when the server uses one not listed here.
 */
export const PROBLEM_CODES: readonly Omit<ProblemView, "anchor">[] = [
  {
    code: "invalid_api_key",
    status: 401,
    meaning: "The key is unknown (check that it was copied whole) or its account no longer exists.",
  },
  { code: "api_key_revoked", status: 401, meaning: "The key was revoked in Settings → API Access. Create a new one." },
  { code: "api_key_expired", status: 401, meaning: "The key's expiry date has passed. Create a new one." },
  { code: "ip_not_allowed", status: 403, meaning: "The request came from an address outside the key's IP allowlist." },
  { code: "insufficient_scope", status: 403, meaning: "The key lacks the scope the operation needs (read, purchase, rotate or webhooks)." },
  {
    code: "session_required",
    status: 403,
    meaning: "API keys cannot do this (managing keys): sign in to the dashboard and use Settings → API Access.",
  },
  { code: "not_for_api_keys", status: 403, meaning: "The route is not part of the developer API, so an API key cannot call it." },
  {
    code: "rate_limited",
    status: 429,
    meaning: "Too many requests for this key this minute: wait for the seconds in Retry-After, then try again.",
  },
  {
    code: "spend_cap_reached",
    status: 403,
    meaning: "The purchase would take the key past its monthly spend cap (the reason is in errors.spend_cap.code). Nothing was charged.",
  },
  { code: "account_suspended", status: 403, meaning: "The key's account is suspended. Contact support." },
];

/** "invalid_api_key" → "problem-invalid-api-key" (the server's `type` fragment). */
export const problemAnchor = (code: string): string => `problem-${code.replaceAll("_", "-")}`;

const SCOPE_TEXT: Record<string, string> = {
  session: "Signed-in session only (API keys cannot call this)",
  public: "None (public)",
};

const accessOf = (scope: string): string => SCOPE_TEXT[scope] ?? `API key with the ${scope} scope, or a session`;

export const slug = (text: string): string =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");

function resolve(doc: OpenApiDocument, schema: JsonSchema | undefined, seen: ReadonlySet<string> = new Set()): JsonSchema {
  if (!schema) return {};
  const ref = schema.$ref;
  if (!ref?.startsWith("#/components/schemas/")) return schema;
  const name = ref.slice("#/components/schemas/".length);
  if (seen.has(name)) return {};
  const target = doc.components?.schemas?.[name] ?? {};
  return { ...target, ...(schema.description ? { description: schema.description } : {}) };
}

const refName = (schema: JsonSchema): string | null => schema.$ref?.slice(schema.$ref.lastIndexOf("/") + 1) ?? null;

/** The type in words: "string", "integer | null", "string[]", one of an enum's values. */
export function typeOf(doc: OpenApiDocument, raw: JsonSchema | undefined): string {
  const schema = resolve(doc, raw);
  const variants = schema.anyOf ?? schema.oneOf;
  if (variants) return [...new Set(variants.map((s) => typeOf(doc, s)))].join(" | ");
  if (schema.enum) return schema.enum.map((v) => JSON.stringify(v)).join(" | ");
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  if (Array.isArray(schema.type)) return schema.type.join(" | ");
  if (schema.type === "array") {
    const item = typeOf(doc, schema.items);
    return item.includes(" ") ? `(${item})[]` : `${item}[]`;
  }
  if (schema.type === "object" || schema.properties) return refName(raw ?? {}) ?? "object";
  if (schema.type === "string" && schema.format) return `string (${schema.format})`;
  return schema.type ?? "any";
}

function descriptionOf(doc: OpenApiDocument, raw: JsonSchema | undefined): string {
  const schema = resolve(doc, raw);
  if (schema.description) return schema.description;
  for (const variant of schema.anyOf ?? schema.oneOf ?? []) {
    const text = descriptionOf(doc, variant);
    if (text) return text;
  }
  return "";
}

/** The object a schema describes (through refs and `X | null`), or null. */
function objectOf(doc: OpenApiDocument, raw: JsonSchema | undefined, seen: ReadonlySet<string>): JsonSchema | null {
  const schema = resolve(doc, raw, seen);
  if (schema.properties) return schema;
  for (const variant of schema.anyOf ?? schema.oneOf ?? []) {
    const found = objectOf(doc, variant, seen);
    if (found) return found;
  }
  return null;
}

function arrayItemsOf(doc: OpenApiDocument, raw: JsonSchema | undefined, seen: ReadonlySet<string>): JsonSchema | null {
  const schema = resolve(doc, raw, seen);
  if (schema.type === "array" && schema.items) return schema.items;
  for (const variant of schema.anyOf ?? schema.oneOf ?? []) {
    const found = arrayItemsOf(doc, variant, seen);
    if (found) return found;
  }
  return null;
}

/** Every field of an object schema, nested objects flattened with dots, array items with "[]". */
export function fieldsOf(
  doc: OpenApiDocument,
  raw: JsonSchema | undefined,
  prefix = "",
  seen: ReadonlySet<string> = new Set(),
): FieldView[] {
  const name = refName(raw ?? {});
  const inner = name ? new Set([...seen, name]) : seen;
  const object = objectOf(doc, raw, seen);
  if (!object) {
    const items = arrayItemsOf(doc, raw, seen);
    return items && !prefix ? fieldsOf(doc, items, "[].", inner) : [];
  }
  const required = new Set(object.required ?? []);
  const out: FieldView[] = [];
  for (const [key, property] of Object.entries(object.properties ?? {})) {
    const path = `${prefix}${key}`;
    out.push({ name: path, type: typeOf(doc, property), required: required.has(key), description: descriptionOf(doc, property) });
    const propertyRef = refName(property);
    if (propertyRef && inner.has(propertyRef)) continue;
    if (objectOf(doc, property, inner)) out.push(...fieldsOf(doc, property, `${path}.`, inner));
    else {
      const items = arrayItemsOf(doc, property, inner);
      if (items && objectOf(doc, items, inner)) out.push(...fieldsOf(doc, items, `${path}[].`, inner));
    }
  }
  return out;
}

/** Example values by field name, where the schema alone says too little. */
const NAMED_EXAMPLES: Record<string, unknown> = {
  country: "US",
  name: "My script",
  email: "you@example.com",
  entries: ["203.0.113.0/24"],
  ip_allowlist: ["203.0.113.0/24"],
};

const EXAMPLE_ID = "a1b2c3d4e5f6g7h";

/** An example value made from a schema: an enum's first value, sensible numbers, required fields only. */
export function exampleOf(doc: OpenApiDocument, raw: JsonSchema | undefined, name = "", seen: ReadonlySet<string> = new Set()): unknown {
  const schema = resolve(doc, raw, seen);
  if (schema.example !== undefined) return schema.example;
  if (schema.examples?.length) return schema.examples[0];
  if (name in NAMED_EXAMPLES) return NAMED_EXAMPLES[name];
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

const METHODS = ["get", "post", "put", "patch", "delete"] as const;

function operationView(doc: OpenApiDocument, method: string, path: string, op: Operation, baseUrl: string): OperationView {
  const statuses = Object.keys(op.responses ?? {});
  const success = statuses.find((s) => s.startsWith("2")) ?? "200";
  const [mediaType, media] = Object.entries(op.responses?.[success]?.content ?? {})[0] ?? ["", {}];
  const requestSchema = op.requestBody?.content?.["application/json"]?.schema;
  const operationId = op.operationId ?? slug(`${method} ${path}`);
  return {
    id: `op-${slug(operationId)}`,
    operationId,
    method: method.toUpperCase(),
    path,
    summary: op.summary ?? `${method.toUpperCase()} ${path}`,
    description: op.description ?? "",
    scope: op["x-scope"] ?? "read",
    access: accessOf(op["x-scope"] ?? "read"),
    parameters: (op.parameters ?? [])
      .filter((p): p is Parameter & { in: ParameterView["in"] } => p.in === "path" || p.in === "query" || p.in === "header")
      .map((p) => ({
        in: p.in,
        name: p.name,
        type: typeOf(doc, p.schema),
        required: p.required ?? false,
        description: p.description ?? descriptionOf(doc, p.schema),
      })),
    requestFields: fieldsOf(doc, requestSchema),
    responseStatus: success,
    responseMediaType: mediaType,
    responseFields: fieldsOf(doc, media.schema),
    errors: statuses
      .filter((s) => !s.startsWith("2"))
      .map((status) => ({ status, description: op.responses?.[status]?.description ?? "" })),
    curl: curlOf(doc, method.toUpperCase(), path, op, baseUrl),
  };
}

/** The reference of `doc` with curl examples at `baseUrl` (the shop's public address). */
export function apiReference(doc: OpenApiDocument, baseUrl: string): ApiReferenceView {
  const base = baseUrl.replace(/\/+$/, "");
  const byTag = new Map<string, OperationView[]>();
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      const tag = op.tags?.[0] ?? "Other";
      byTag.set(tag, [...(byTag.get(tag) ?? []), operationView(doc, method, path, op, base)]);
    }
  }
  const declared = (doc.tags ?? []).map((t) => t.name);
  const names = [...declared.filter((n) => byTag.has(n)), ...[...byTag.keys()].filter((n) => !declared.includes(n))];
  return {
    title: doc.info?.title ?? "API reference",
    version: doc.info?.version ?? "",
    description: doc.info?.description ?? "",
    baseUrl: base,
    documentUrl: OPENAPI_DOCUMENT_PATH,
    tags: names.map((name) => ({
      id: `tag-${slug(name)}`,
      name,
      description: doc.tags?.find((t) => t.name === name)?.description ?? "",
      operations: byTag.get(name) ?? [],
    })),
    problems: PROBLEM_CODES.map((p) => ({ ...p, anchor: problemAnchor(p.code) })),
  };
}

/**
 * The shop's public address for the examples: the one the mails and the sitemap use
 * (SHOP_APP_URL, else APP_URL), else the page's own origin.
 */
export function apiBaseUrl(env: Record<string, string | undefined>, pageOrigin: string): string {
  const configured = [env["SHOP_APP_URL"], env["APP_URL"]].some((v) => v?.trim());
  return (configured ? siteUrl(env) : pageOrigin).replace(/\/+$/, "");
}
