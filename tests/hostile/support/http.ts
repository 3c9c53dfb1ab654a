// Raw HTTP for hostile requests (the SDK would normalise what these tests mean to break),
// and the checks every refusal must pass: a 4xx with a JSON body whose `message` a person
// can read, never a 5xx, an empty body or a stack trace.

export interface HostileRequest {
  method: string;
  /** Path and query, already encoded. */
  url: string;
  headers: Record<string, string>;
  body?: string;
  /** What the request is about, for failure reports (route template or collection op). */
  target: string;
}

export interface HostileResponse {
  status: number;
  text: string;
  json: unknown;
  contentType: string;
}

/**
 * A header value as the bytes a raw client would send: UTF-8 text travels as its bytes
 * (fetch takes only Latin-1 strings); CR, LF and NUL, which no HTTP client can send in a
 * header, become spaces.
 */
function headerBytes(value: string): string {
  return Buffer.from(value.toWellFormed(), "utf8")
    .toString("latin1")
    .replace(/[\r\n\0]/g, " ");
}

export async function sendRaw(base: string, req: HostileRequest): Promise<HostileResponse> {
  const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, headerBytes(v)]));
  const res = await fetch(base + req.url, {
    method: req.method,
    headers,
    ...(req.body !== undefined ? { body: req.body } : {}),
    redirect: "manual",
    signal: AbortSignal.timeout(60_000),
  });
  const text = await res.text();
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: res.status, text, json, contentType: res.headers.get("content-type") ?? "" };
}

/** PocketBase's fallback when a handler fails with an error that is not an API error. */
export const GENERIC_MESSAGE = "Something went wrong while processing your request.";

/** What a stack trace, an internal error or a leaked query looks like in an answer. */
const INTERNALS =
  /goroutine|panic:|runtime error|\.go:\d+|\bat \S+ \(|[\w/.-]+\.js:\d+|TypeError|ReferenceError|SyntaxError|RangeError|GoError|sql: |SQL logic|sqlite|no such (table|column)|near "|Cannot read propert|undefined is not|is not a function|invalid memory address|Traceback|Exception/i;

/**
 * What is wrong with an answer to a request that must be refused (empty: nothing).
 * `custom` routes (ours) also may not answer PocketBase's generic fallback message: our
 * routes promise a specific text, and the fallback is what an unhandled hook error becomes.
 */
export function refusalProblems(res: HostileResponse, options: { custom: boolean }): string[] {
  const problems: string[] = [];
  if (res.status >= 500) problems.push(`a ${res.status}`);
  else if (res.status < 400) problems.push(`accepted with ${res.status} (the request was meant to be invalid)`);
  problems.push(...errorBodyProblems(res, options));
  return problems;
}

/**
 * Go's net/http answers a few requests itself, before PocketBase sees them, with its own
 * short text: a request line or headers over its limits (414, 431) or a request it cannot
 * parse (400). Readable, and not ours to word.
 */
export function isHttpLayerRefusal(res: HostileResponse): boolean {
  return (
    /^(400 Bad Request|414 URI Too Long|431 Request Header Fields Too Large)$/.test(res.text.trim()) &&
    res.text.trim().startsWith(String(res.status))
  );
}

/**
 * Problems of a 4xx body: JSON {status, message, data}, or the developer API's problem
 * details (application/problem+json, with message and errors), a readable message, no internals.
 */
export function errorBodyProblems(res: HostileResponse, options: { custom: boolean }): string[] {
  if (res.status < 400 || isHttpLayerRefusal(res)) return [];
  const problems: string[] = [];
  const body = res.json as { status?: unknown; message?: unknown; data?: unknown; errors?: unknown } | undefined;
  if (!body || typeof body !== "object" || Array.isArray(body)) {
    problems.push(`the ${res.status} body is not a JSON object: ${JSON.stringify(res.text.slice(0, 200))}`);
    return problems;
  }
  if (!/application\/(problem\+)?json/.test(res.contentType))
    problems.push(`the ${res.status} answer is ${res.contentType || "untyped"}, not JSON`);
  const message = body.message;
  if (typeof message !== "string" || message.trim().length < 5) problems.push(`no readable message: ${JSON.stringify(message)}`);
  else {
    if (message.length > 400) problems.push(`a message of ${message.length} characters`);
    if (INTERNALS.test(message)) problems.push(`the message shows internals: ${JSON.stringify(message.slice(0, 300))}`);
    if (options.custom && message === GENERIC_MESSAGE) problems.push("only PocketBase's generic fallback message (an unhandled error?)");
  }
  if (body.status !== res.status) problems.push(`body status ${JSON.stringify(body.status)} is not the HTTP status ${res.status}`);
  const data = body.errors ?? body.data;
  if (INTERNALS.test(JSON.stringify(data ?? {}))) problems.push(`the error data shows internals: ${JSON.stringify(data).slice(0, 300)}`);
  return problems;
}

/** A short, replayable description of a request for failure messages. */
export function describeRequest(req: HostileRequest): string {
  const body =
    req.body === undefined ? "" : req.body.length > 300 ? `${req.body.slice(0, 300)}... (${req.body.length} characters)` : req.body;
  const headers = Object.entries(req.headers)
    .filter(([k]) => k !== "Authorization")
    .map(([k, v]) => `${k}: ${v.slice(0, 80)}`)
    .join("; ");
  return `${req.method} ${req.url.slice(0, 300)} [${req.target}] {${headers}} ${body}`;
}

/** Runs `tasks` with at most `width` in flight, keeping their order in the answer. */
export async function pool<T>(tasks: (() => Promise<T>)[], width: number): Promise<T[]> {
  const out: T[] = new Array(tasks.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < tasks.length) {
        const i = next++;
        out[i] = await tasks[i]!();
      }
    }),
  );
  return out;
}
