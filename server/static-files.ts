// The build's client files (dist/client: /_astro/* bundles, favicon ...) answered before
// Astro's handler, each in the coding the client accepts: the .br and .gz files written
// beside it at build (server/precompress.ts), else as it is. Fingerprinted /_astro/ files
// are immutable for a year; the rest revalidate after an hour. Bytes under 1 MB are kept
// in memory after their first read.
//
// Why not sirv: measured side by side on a copy of dist/client (16 connections, server on
// one core, two rounds), sirv answered a 51-byte bundle at 1.3-2.7k req/s against 6-13k
// here, and favicon.svg at 1.4-4.3k against 8-19k: it opens a read stream per request
// where this answers small files from memory. It also picks a coding by substring ("br;q=0"
// still gets br) and matches If-None-Match only as one exact tag.
import { createReadStream, readdirSync, statSync, type Stats } from "node:fs";
import { readFile } from "node:fs/promises";
import type { IncomingMessage, ServerResponse } from "node:http";
import path from "node:path";
import { etagForCoding, etagMatches, IMMUTABLE_CACHE_CONTROL, type Coding } from "../src/lib/server/http-cache.ts";
import { negotiate, type Encoding } from "./compression.ts";
import { PRECOMPRESSED_EXTENSION } from "./precompress.ts";

const MIME: Record<string, string> = {
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".html": "text/html; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".map": "application/json; charset=utf-8",
  ".webmanifest": "application/manifest+json; charset=utf-8",
  ".txt": "text/plain; charset=utf-8",
  ".xml": "application/xml; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".gif": "image/gif",
  ".webp": "image/webp",
  ".avif": "image/avif",
  ".ico": "image/x-icon",
  ".woff": "font/woff",
  ".woff2": "font/woff2",
  ".ttf": "font/ttf",
  ".otf": "font/otf",
  ".wasm": "application/wasm",
  ".pdf": "application/pdf",
  ".gz": "application/gzip",
  ".br": "application/octet-stream",
};

/** Files not fingerprinted by the build (favicon.svg ...): a changed one shows within an hour. */
const PLAIN_CACHE_CONTROL = "public, max-age=3600";
const MEMORY_LIMIT_BYTES = 1024 * 1024;

interface Variant {
  file: string;
  size: number;
  bytes?: Buffer;
}

interface StaticFile {
  type: string;
  etag: string;
  cacheControl: string;
  variants: Partial<Record<Encoding, Variant>> & { identity: Variant };
  /** The codings beside identity, best first (what negotiate may choose). */
  codings: Coding[];
}

function walk(dir: string, prefix: string, out: Map<string, { file: string; stat: Stats }>): void {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return; // no build yet: nothing to serve
  }
  for (const entry of entries) {
    if (entry.name.startsWith(".") && !(prefix === "" && entry.name === ".well-known")) continue;
    const file = path.join(dir, entry.name);
    const url = `${prefix}/${entry.name}`;
    if (entry.isDirectory()) walk(file, url, out);
    else if (entry.isFile()) out.set(url, { file, stat: statSync(file) });
  }
}

/** Every file under `root`, keyed by URL path; .br/.gz files beside an original become its codings. */
export function indexStaticFiles(root: string): Map<string, StaticFile> {
  const found = new Map<string, { file: string; stat: Stats }>();
  walk(root, "", found);
  const index = new Map<string, StaticFile>();
  const isVariant = (url: string) =>
    Object.values(PRECOMPRESSED_EXTENSION).some((ext) => url.endsWith(ext) && found.has(url.slice(0, -ext.length)));
  for (const [url, { file, stat }] of found) {
    if (isVariant(url)) continue;
    const variants: StaticFile["variants"] = { identity: { file, size: stat.size } };
    const codings: Coding[] = [];
    for (const [coding, ext] of Object.entries(PRECOMPRESSED_EXTENSION) as [Coding, string][]) {
      const coded = found.get(url + ext);
      if (coded && coded.stat.size < stat.size) {
        variants[coding] = { file: coded.file, size: coded.stat.size };
        codings.push(coding);
      }
    }
    index.set(url, {
      type: MIME[path.extname(url).toLowerCase()] ?? "application/octet-stream",
      etag: `"${stat.size.toString(36)}-${Math.floor(stat.mtimeMs).toString(36)}"`,
      cacheControl: url.startsWith("/_astro/") ? IMMUTABLE_CACHE_CONTROL : PLAIN_CACHE_CONTROL,
      variants,
      codings,
    });
  }
  return index;
}

function sendBody(res: ServerResponse, variant: Variant): void {
  if (variant.bytes) {
    res.end(variant.bytes);
    return;
  }
  if (variant.size <= MEMORY_LIMIT_BYTES) {
    readFile(variant.file).then(
      (bytes) => {
        variant.bytes = bytes;
        res.end(bytes);
      },
      () => res.destroy(),
    );
    return;
  }
  const stream = createReadStream(variant.file);
  stream.on("error", () => res.destroy());
  stream.pipe(res);
}

/**
 * A handler for the files under `root`, indexed once (the build does not change under a
 * running server). It returns false, touching nothing, for any other request.
 */
export function staticFiles(root: string): (req: IncomingMessage, res: ServerResponse) => boolean {
  const index = indexStaticFiles(root);
  return (req, res) => {
    if (req.method !== "GET" && req.method !== "HEAD") return false;
    const url = req.url ?? "";
    const q = url.indexOf("?");
    let pathname = q === -1 ? url : url.slice(0, q);
    if (pathname.includes("%")) {
      try {
        pathname = decodeURIComponent(pathname);
      } catch {
        return false;
      }
    }
    const file = index.get(pathname);
    if (!file) return false;

    const coding = file.codings.length ? negotiate(req.headers["accept-encoding"], file.codings) : "identity";
    const variant = file.variants[coding] ?? file.variants.identity;
    const etag = etagForCoding(file.etag, coding);
    const headers: Record<string, string | number> = { "Cache-Control": file.cacheControl, ETag: etag };
    if (file.codings.length) headers["Vary"] = "Accept-Encoding";
    if (etagMatches(req.headers["if-none-match"], etag)) {
      res.writeHead(304, headers).end();
      return true;
    }
    headers["Content-Type"] = file.type;
    headers["Content-Length"] = variant.size;
    if (coding !== "identity") headers["Content-Encoding"] = coding;
    res.writeHead(200, headers);
    if (req.method === "HEAD") res.end();
    else sendBody(res, variant);
    return true;
  };
}
