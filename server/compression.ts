// Content coding for the web server's answers: which coding a client accepts, which answers
// are worth compressing, and the three ways the server compresses:
//   - whole buffers once at the highest level (cached public pages, build assets),
//   - the stream PocketBase answers with (JSON), piped through a fast compressor,
//   - Astro's rendered pages, by wrapping the response Astro writes to.
// Never compressed: realtime streams (text/event-stream must flow as it is written), bodies
// that already carry a coding, HEAD, 204/206/304, `Cache-Control: no-transform`, bodies
// under MIN_COMPRESS_BYTES, and personalised answers to a cookie-bearing request (BREACH:
// a secret in a page compressed beside reflected input leaks through the length).
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from "node:http";
import { pipeline, type Readable } from "node:stream";
import { promisify } from "node:util";
import zlib from "node:zlib";
import Negotiator from "negotiator";
import { addToList, etagForCoding, type Coding } from "../src/lib/server/http-cache.ts";

export type Encoding = Coding | "identity";

/** Below this a body fits a packet or two; compressing it saves less than it costs. */
export const MIN_COMPRESS_BYTES = 1024;

/** Compressible media types: text (not event streams), JSON, JS, XML and SVG. */
const COMPRESSIBLE =
  /^\s*(?:text\/(?!event-stream\b)[\w.+-]+|application\/(?:json|javascript|ecmascript|xml|xhtml\+xml|manifest\+json|wasm|x-javascript|[\w.-]+\+(?:json|xml))|image\/svg\+xml)\s*(?:;|$)/i;

export function isCompressibleType(contentType: string | undefined): boolean {
  return contentType !== undefined && COMPRESSIBLE.test(contentType);
}

const SERVER_PREFERENCE: readonly Coding[] = ["br", "gzip"];
const negotiated = new Map<string, Encoding>();

/** negotiator 1.x takes the server's order for ties (@types/negotiator predates the option). */
type EncodingNegotiator = { encoding(available: string[], options: { preferred: string[] }): string | undefined };

/**
 * Weights as RFC 9110 12.4.2 writes them, which negotiator reads loosely ("q=2" as 2,
 * "Q = 0.5" as 1): a malformed weight accepts nothing. x-gzip is gzip (RFC 9110 8.4.1.3).
 */
function strictWeights(header: string): string {
  return header
    .replace(/;\s*q\s*=\s*([^,;]*)/gi, (_, q: string) => `;q=${/^[01](?:\.\d{0,3})?$/.test(q.trim()) ? Math.min(1, Number(q)) : 0}`)
    .replace(/(^|[\s,])x-gzip\b/gi, "$1gzip");
}

/**
 * The coding to answer with for an Accept-Encoding header (RFC 9110 12.5.3, negotiator):
 * the offered coding with the highest q-value (br before gzip on a tie), unless the client
 * explicitly prefers identity. No header, or nothing acceptable: identity.
 */
export function negotiate(header: string | undefined, offered: readonly Coding[] = SERVER_PREFERENCE): Encoding {
  if (!header) return "identity";
  const memo = offered === SERVER_PREFERENCE ? header : `${offered.join(",")}|${header}`;
  const known = negotiated.get(memo);
  if (known) return known;
  const available = [...offered, "identity"];
  const negotiator = new Negotiator({ headers: { "accept-encoding": strictWeights(header) } }) as unknown as EncodingNegotiator;
  const result = (negotiator.encoding(available, { preferred: available }) ?? "identity") as Encoding;
  // Clients send a handful of distinct headers; the memo stays small and hits almost always.
  if (negotiated.size < 512) negotiated.set(memo, result);
  return result;
}

// --- whole buffers, once ------------------------------------------------------------------

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/** The smallest forms, for bytes compressed once and served many times. */
export function compressOnce(body: Uint8Array, coding: Coding): Promise<Buffer> {
  if (coding === "br") {
    return brotli(body, {
      params: {
        [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
        [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.byteLength,
        [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
      },
    });
  }
  return gzip(body, { level: zlib.constants.Z_BEST_COMPRESSION });
}

// --- streams, on the fly ------------------------------------------------------------------

/** Fast settings for answers compressed per request (brotli 4 is about gzip 6's speed, smaller). */
function streamCompressor(coding: Coding): zlib.BrotliCompress | zlib.Gzip {
  return coding === "br"
    ? zlib.createBrotliCompress({ params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } })
    : zlib.createGzip({ level: 6 });
}

/** The ETag of a body compressed per request: weak, as its bytes depend on the compressor. */
function onTheFlyEtag(etag: string, coding: Coding): string {
  const coded = etagForCoding(etag, coding);
  return coded.startsWith("W/") ? coded : `W/${coded}`;
}

type HeaderValue = number | string | readonly string[] | undefined;
const text = (v: HeaderValue): string | undefined => (v === undefined ? undefined : Array.isArray(v) ? v.join(", ") : String(v));

interface Outgoing {
  get(name: string): string | undefined;
}

/**
 * How an answer goes out: `coding` is the one to compress it with on the fly (identity
 * when it must go out as it is, or the client accepts no coding we make); `vary` says
 * whether answers of this kind depend on Accept-Encoding at all (caches must know).
 */
export function onTheFlyCoding(
  req: IncomingMessage,
  status: number,
  headers: Outgoing,
  knownLength?: number,
): { coding: Encoding; vary: boolean } {
  const contentType = headers.get("content-type");
  if (!isCompressibleType(contentType)) return { coding: "identity", vary: false };
  const encoded = headers.get("content-encoding");
  if (encoded && encoded.trim().toLowerCase() !== "identity") return { coding: "identity", vary: false };
  if (/\bno-transform\b/i.test(headers.get("cache-control") ?? "")) return { coding: "identity", vary: false };
  if (req.method === "HEAD" || status < 200 || status === 204 || status === 206 || status === 304)
    return { coding: "identity", vary: true };
  const length = knownLength ?? (headers.get("content-length") !== undefined ? Number(headers.get("content-length")) : undefined);
  if (length !== undefined && length < MIN_COMPRESS_BYTES) return { coding: "identity", vary: true };
  if (req.headers.cookie && /\b(?:private|no-store)\b/i.test(headers.get("cache-control") ?? "")) return { coding: "identity", vary: true };
  return { coding: negotiate(req.headers["accept-encoding"]), vary: true };
}

/**
 * Sends an upstream answer (PocketBase's) to the client, compressed when it pays. A stream
 * that is not compressed is piped as it arrives, headers flushed first (realtime).
 */
export function sendUpstream(
  req: IncomingMessage,
  res: ServerResponse,
  status: number,
  headers: OutgoingHttpHeaders,
  body: Readable,
): void {
  const { coding, vary } = onTheFlyCoding(req, status, { get: (name) => text(headers[name]) });
  if (vary) headers["vary"] = addToList(text(headers["vary"]), "Accept-Encoding");
  if (coding === "identity") {
    res.writeHead(status, headers);
    res.flushHeaders();
    body.pipe(res);
    return;
  }
  delete headers["content-length"];
  headers["content-encoding"] = coding;
  const etag = text(headers["etag"]);
  if (etag) headers["etag"] = onTheFlyEtag(etag, coding);
  res.writeHead(status, headers);
  pipeline(body, streamCompressor(coding), res, () => {});
}

type WriteHeadArgs = [reason?: string | OutgoingHttpHeaders | string[], headers?: OutgoingHttpHeaders | string[]];
type Callback = (error?: Error | null) => void;

/**
 * Makes `res` compress what a handler writes to it (Astro's writeResponse: writeHead, write
 * per chunk, end) when the answer qualifies. The decision is taken when the headers go out.
 */
export function compressWrites(req: IncomingMessage, res: ServerResponse): void {
  const writeHead = res.writeHead.bind(res) as (status: number, ...args: WriteHeadArgs) => ServerResponse;
  const write = res.write.bind(res) as (chunk: unknown, encoding?: BufferEncoding, cb?: Callback) => boolean;
  const end = res.end.bind(res) as (chunk?: unknown, encoding?: BufferEncoding, cb?: () => void) => ServerResponse;
  let decided = false;
  let zip: zlib.BrotliCompress | zlib.Gzip | null = null;

  const decide = (status: number, args: WriteHeadArgs, knownLength?: number): ServerResponse => {
    decided = true;
    const reason = typeof args[0] === "string" ? args[0] : undefined;
    const given = typeof args[0] === "string" ? args[1] : args[0];
    if (Array.isArray(given)) {
      for (let i = 0; i + 1 < given.length; i += 2) res.setHeader(given[i]!, given[i + 1]!);
    } else if (given) {
      for (const [name, value] of Object.entries(given)) if (value !== undefined) res.setHeader(name, value);
    }
    const { coding, vary } = onTheFlyCoding(req, status, { get: (name) => text(res.getHeader(name)) }, knownLength);
    if (vary) res.setHeader("Vary", addToList(text(res.getHeader("vary")), "Accept-Encoding"));
    if (coding !== "identity") {
      res.removeHeader("Content-Length");
      res.setHeader("Content-Encoding", coding);
      const etag = text(res.getHeader("etag"));
      if (etag) res.setHeader("ETag", onTheFlyEtag(etag, coding));
      const z = streamCompressor(coding);
      z.on("data", (chunk: Buffer) => {
        if (!write(chunk)) z.pause();
      });
      res.on("drain", () => z.resume());
      z.on("end", () => end());
      z.on("error", (err) => res.destroy(err));
      res.on("close", () => z.destroy());
      zip = z;
    }
    return reason === undefined ? writeHead(status) : writeHead(status, reason);
  };

  res.writeHead = ((status: number, ...args: WriteHeadArgs) =>
    decided ? writeHead(status, ...args) : decide(status, args)) as typeof res.writeHead;

  res.write = ((chunk: unknown, encoding?: BufferEncoding | Callback, cb?: Callback) => {
    if (!decided && !res.headersSent) decide(res.statusCode, []);
    if (!zip) return typeof encoding === "function" ? write(chunk, undefined, encoding) : write(chunk, encoding, cb);
    return typeof encoding === "function" ? zip.write(chunk, encoding) : zip.write(chunk, encoding ?? "utf8", cb);
  }) as typeof res.write;

  res.end = ((chunk?: unknown, encoding?: BufferEncoding | (() => void), cb?: () => void) => {
    const callback = typeof chunk === "function" ? chunk : typeof encoding === "function" ? encoding : cb;
    const data = typeof chunk === "function" ? undefined : chunk;
    const enc = typeof encoding === "string" ? encoding : undefined;
    if (!decided && !res.headersSent) {
      const length =
        data === undefined || data === null ? 0 : typeof data === "string" ? Buffer.byteLength(data, enc) : (data as Uint8Array).byteLength;
      decide(res.statusCode, [], length);
    }
    if (!zip) return end(data, enc, callback as (() => void) | undefined);
    if (callback) res.once("finish", callback as () => void);
    if (data === undefined || data === null) zip.end();
    else zip.end(data, enc ?? "utf8");
    return res;
  }) as typeof res.end;
}
