// The developer API's contract in tests: every answer a test gets through `apiClient` is
// checked against the OpenAPI document (pocketbase/pb_hooks/lib/api/openapi.json): its
// status must be documented for the operation, and its body must match that answer's
// schema, with no field the document does not name. A route that answers outside its
// schema fails the test that called it.
//
// With API_VIA_PRISM=1 (npm run test:prism) every call also goes through Stoplight Prism's
// validation proxy (`prism proxy <document> <shop> --errors`), which refuses a request or
// an answer outside the document on its own reading of it.
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { freePort } from "../../server/free-port.ts";
import { Ajv2020, type ErrorObject } from "ajv/dist/2020.js";
import { afterAll } from "vitest";
import { requestOf, urlOf, type CallInput } from "@/lib/api-contract/client";
import type { ApiRoute, ResponseOf } from "@/lib/api-contract/define";

type Json = Record<string, unknown>;

export const OPENAPI_FILE = new URL("../../pocketbase/pb_hooks/lib/api/openapi.json", import.meta.url);

interface Operation {
  responses: Record<string, { content?: Record<string, { schema: Json }> }>;
}

const doc = JSON.parse(readFileSync(OPENAPI_FILE, "utf8")) as {
  paths: Record<string, Record<string, Operation>>;
  webhooks: Record<string, { post: { requestBody: { content: Record<string, { schema: Json }> } } }>;
  components: { schemas: Json };
};

/** Closes every object schema that does not say otherwise: an undocumented field is a failure. */
function strict(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(strict);
  if (!schema || typeof schema !== "object") return schema;
  const out: Json = {};
  for (const [k, v] of Object.entries(schema as Json))
    out[k] = k === "properties" ? Object.fromEntries(Object.entries(v as Json).map(([p, s]) => [p, strict(s)])) : strict(v);
  if (out["type"] === "object" && out["properties"] && out["additionalProperties"] === undefined) out["additionalProperties"] = false;
  return out;
}

const ajv = new Ajv2020({ allErrors: true, strict: false, validateFormats: false });
ajv.addSchema({ $id: "openapi", components: { schemas: strict(doc.components.schemas) } });

const templates = Object.keys(doc.paths).map((template) => ({
  template,
  pattern: new RegExp(`^${template.replace(/\{[^}]+\}/g, "[^/]+")}$`),
}));

/** The operation's path template of a concrete path ("/api/v1/proxies/abc" -> "/api/v1/proxies/{id}"). */
export function templateOf(path: string): string | undefined {
  const bare = path.split("?")[0] ?? path;
  const exact = templates.find((t) => t.template === bare);
  return (exact ?? templates.find((t) => t.pattern.test(bare)))?.template;
}

const validators = new Map<string, ReturnType<typeof ajv.compile>>();

/** Problems of one answer against the document: [] when it conforms. */
export function contractProblems(method: string, path: string, status: number, contentType: string, body: unknown): string[] {
  const template = templateOf(path);
  if (!template) return [`${method} ${path}: no such path in the document`];
  const operation = doc.paths[template]?.[method.toLowerCase()];
  if (!operation) return [`${method} ${template}: no such operation in the document`];
  const response = operation.responses[String(status)] ?? operation.responses[`${String(status)[0]}XX`];
  if (!response) return [`${method} ${template} answered ${status}, which the document does not list`];
  const media = contentType.split(";")[0]?.trim() ?? "";
  const content = response.content?.[media];
  if (!content) return [`${method} ${template} ${status}: media type "${media}" is not documented`];
  const id = `${method} ${template} ${status} ${media}`;
  let validate = validators.get(id);
  if (!validate) {
    validate = ajv.compile(
      JSON.parse(JSON.stringify(strict(content.schema)).replaceAll('"#/components/schemas/', '"openapi#/components/schemas/')) as Json,
    );
    validators.set(id, validate);
  }
  return validate(body)
    ? []
    : (validate.errors ?? []).map(
        (e: ErrorObject) => `${id}: ${e.instancePath || "(body)"} ${e.message ?? ""} ${JSON.stringify(e.params)}`,
      );
}

const prisms = new Map<string, Promise<string>>();
const prismChildren: ChildProcess[] = [];

/** Stops the Prism proxies this file started (registered below: after each test file that imports this one). */
async function stopPrisms(): Promise<void> {
  const running = prismChildren.splice(0);
  prisms.clear();
  await Promise.all(
    running.map(async (child) => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 5000);
      await exited;
      clearTimeout(timer);
    }),
  );
}
afterAll(stopPrisms);

/** The address to call for `baseUrl`: itself, or a Prism validation proxy in front of it (API_VIA_PRISM). */
function viaPrism(baseUrl: string): Promise<string> {
  if (!process.env["API_VIA_PRISM"]) return Promise.resolve(baseUrl);
  let started = prisms.get(baseUrl);
  if (!started) {
    started = startPrism(baseUrl);
    prisms.set(baseUrl, started);
  }
  return started;
}

async function startPrism(upstream: string): Promise<string> {
  const port = await freePort();
  const bin = fileURLToPath(new URL("../../node_modules/.bin/prism", import.meta.url));
  const child = spawn(bin, ["proxy", fileURLToPath(OPENAPI_FILE), upstream, "--errors", "-h", "127.0.0.1", "-p", String(port)], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  prismChildren.push(child);
  let output = "";
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`Prism did not start:\n${output}`)), 30_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes("Prism is listening")) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);
    child.once("exit", (code) => reject(new Error(`Prism exited with ${code}:\n${output}`)));
  });
  return `http://127.0.0.1:${port}`;
}

/** Problems of a webhook event's body against the document's `webhooks` section: [] when it conforms. */
export function eventProblems(body: unknown): string[] {
  const given = (body as { type?: unknown } | null)?.type;
  const type = typeof given === "string" ? given : "";
  const event = doc.webhooks[type];
  if (!event) return [`event ${JSON.stringify(given)} is not in the document`];
  const id = `event ${type}`;
  let validate = validators.get(id);
  if (!validate) {
    const schema = event.post.requestBody.content["application/json"]?.schema ?? {};
    validate = ajv.compile(
      JSON.parse(JSON.stringify(strict(schema)).replaceAll('"#/components/schemas/', '"openapi#/components/schemas/')) as Json,
    );
    validators.set(id, validate);
  }
  return validate(body)
    ? []
    : (validate.errors ?? []).map(
        (e: ErrorObject) => `${id}: ${e.instancePath || "(body)"} ${e.message ?? ""} ${JSON.stringify(e.params)}`,
      );
}

export interface ApiAnswer<T = unknown> {
  status: number;
  body: T;
  headers: Headers;
}

interface CallOptions {
  body?: unknown;
  key?: string | null;
  headers?: Record<string, string>;
  invalid?: boolean;
}

export interface ApiClient {
  <T = Json>(method: string, path: string, options?: CallOptions): Promise<ApiAnswer<T>>;
  /** A contract route (lib/api-contract): its method, path and query from the route object, the answer typed by it. */
  call<R extends ApiRoute>(
    route: R,
    input?: CallInput<R>,
    options?: Pick<CallOptions, "headers" | "invalid">,
  ): Promise<ApiAnswer<ResponseOf<R>>>;
}

/**
 * A client of the developer API at `baseUrl` with `auth` (an API key or a session token;
 * null: none) whose every answer must conform to the document (it throws otherwise).
 * `key`: the Idempotency-Key (default: a new one on writes). `invalid`: the request is
 * outside the document on purpose (a refusal under test), so it skips Prism, which would
 * refuse it itself; its answer is still checked against the document.
 */
export function apiClient(baseUrl: string, auth: string | null): ApiClient {
  const send = async <T = Json>(method: string, path: string, options: CallOptions = {}): Promise<ApiAnswer<T>> => {
    const headers: Record<string, string> = { ...options.headers };
    if (auth) headers["Authorization"] = `Bearer ${auth}`;
    if (options.body !== undefined) headers["Content-Type"] = "application/json";
    if (method !== "GET" && options.key !== null) headers["Idempotency-Key"] = options.key ?? crypto.randomUUID();
    const res = await fetch(`${options.invalid ? baseUrl : await viaPrism(baseUrl)}${path}`, {
      method,
      headers,
      ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
    });
    const text = await res.text();
    const body = text ? (JSON.parse(text) as unknown) : null;
    const problems = contractProblems(method, path, res.status, res.headers.get("content-type") ?? "", body);
    const violations = res.headers.get("sl-violations");
    if (violations) problems.push(`Prism: ${violations}`);
    if (problems.length) throw new Error(`Answer outside the contract:\n${problems.join("\n")}\n${text.slice(0, 500)}`);
    return { status: res.status, body: body as never, headers: res.headers };
  };
  const call = <R extends ApiRoute>(route: R, input: CallInput<R> = {}, options: Pick<CallOptions, "headers" | "invalid"> = {}) => {
    // A write gets a new Idempotency-Key unless the input names one (as `send` does).
    const key = input.idempotencyKey ?? (route.method === "GET" ? undefined : crypto.randomUUID());
    const request = requestOf(route, { ...input, ...(key ? { idempotencyKey: key } : {}) });
    return send<ResponseOf<R>>(request.method, urlOf(request), { ...options, body: request.body, key: key ?? null });
  };
  return Object.assign(send, { call });
}
