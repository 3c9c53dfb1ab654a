// Cached public pages answered before Astro's handler.
//
// The Astro bundle renders each public page once per site-snapshot version and keeps it in
// the registry of src/lib/server/page-cache.ts (on globalThis, shared with this module
// instance). Here a request for such a page, without a query string, is answered from
// that registry when the page's version is the snapshot's current one: no Astro request
// object, no middleware, no rendering, and each page compressed once (brotli and gzip at
// their highest levels) and kept in all three forms. Anything else (a query string such
// as ?ref=, a page not yet rendered, a newer snapshot) goes to Astro as before, which
// renders and publishes the page for the next request.
//
// Cookies do not matter on public pages: they are the same bytes for everyone (the
// middleware's cache already served them so), and the one thing a public page sets, the
// ?ref= cookie, needs a query string. One exception: /login with a session cookie goes to
// Astro, whose middleware sends a signed-in visitor on to the dashboard (issue #28); the
// page itself stays the same static bytes.
import type { IncomingMessage, ServerResponse } from "node:http";
import { etagForCoding, etagMatches, type Coding } from "../src/lib/server/http-cache.ts";
import { PUBLIC_DOCUMENTS, PUBLIC_PATHS, publicPageRegistry, type PublishedPage } from "../src/lib/server/page-cache.ts";
import { compressOnce, negotiate, type Encoding } from "./compression.ts";
import { AUTH_COOKIE } from "../src/lib/cookies.ts";

type Handler = (req: IncomingMessage, res: ServerResponse) => void;
type Headers = Record<string, string | number>;

interface Representation {
  headers: Headers;
  body: Uint8Array;
  /** The headers of a 304 for this coding. */
  notModified: Headers;
}

type Prepared = Record<Encoding, Representation>;

/** Exact request targets served here: no trailing-slash variants, no query strings. */
const FAST_PATHS: ReadonlySet<string> = new Set([...PUBLIC_PATHS, ...PUBLIC_DOCUMENTS]);

/** A session cookie with a value: the middleware checks it (PocketBase decides). */
const SESSION_COOKIE = new RegExp(`(?:^|;)\\s*${AUTH_COOKIE}=[^;\\s]`);

/** Pages a signed-in visitor is sent away from (src/middleware.ts). */
const SIGNED_OUT_PAGES: ReadonlySet<string> = new Set(["/login"]);

/** Headers of the rendered page that are per response, or that each coding sets itself. */
const NOT_REPLAYED = new Set([
  "content-length",
  "content-encoding",
  "transfer-encoding",
  "connection",
  "keep-alive",
  "date",
  "set-cookie",
  "etag",
  "vary",
]);

const prepared = new WeakMap<PublishedPage, Prepared | Promise<Prepared>>();

async function compressPage(page: PublishedPage): Promise<Prepared> {
  const base: Headers = {};
  for (const [name, value] of page.headers) if (!NOT_REPLAYED.has(name.toLowerCase())) base[name] = value;
  base["Vary"] = "Accept-Encoding";
  const representation = (coding: Encoding, body: Uint8Array): Representation => {
    const etag = etagForCoding(page.etag, coding);
    const coded: Headers = coding === "identity" ? {} : { "Content-Encoding": coding };
    return {
      body,
      headers: { ...base, ...coded, ETag: etag, "Content-Length": body.byteLength },
      notModified: { "Cache-Control": base["cache-control"] ?? "no-cache", ETag: etag, Vary: "Accept-Encoding" },
    };
  };
  const identity = representation("identity", page.body);
  const compressed = async (coding: Coding): Promise<Representation> => {
    try {
      const body = await compressOnce(page.body, coding);
      return body.byteLength < page.body.byteLength ? representation(coding, body) : identity;
    } catch {
      return identity;
    }
  };
  const [br, gzip] = await Promise.all([compressed("br"), compressed("gzip")]);
  return { identity, br, gzip };
}

/** The page in all its codings: compressed once, on first use, then kept with the page. */
function prepare(page: PublishedPage): Prepared | Promise<Prepared> {
  let known = prepared.get(page);
  if (!known) {
    const pending = compressPage(page).then((p) => {
      prepared.set(page, p);
      return p;
    });
    prepared.set(page, pending);
    known = pending;
  }
  return known;
}

function send(req: IncomingMessage, res: ServerResponse, ready: Prepared): void {
  const chosen = ready[negotiate(req.headers["accept-encoding"])];
  if (etagMatches(req.headers["if-none-match"], chosen.headers["ETag"] as string)) {
    res.writeHead(304, chosen.notModified).end();
  } else {
    res.writeHead(200, chosen.headers).end(req.method === "HEAD" ? undefined : chosen.body);
  }
}

async function answer(
  req: IncomingMessage,
  res: ServerResponse,
  page: PublishedPage,
  currentVersion: () => Promise<number>,
  miss: Handler,
) {
  let ready: Prepared;
  try {
    if ((await currentVersion()) !== page.version) return miss(req, res);
    const known = prepare(page);
    ready = known instanceof Promise ? await known : known;
  } catch {
    return miss(req, res);
  }
  send(req, res, ready);
}

/** Compresses every page as soon as the bundle renders it, not on its first request. */
export function compressPublishedPages(): void {
  publicPageRegistry().onPublish = (page) => void prepare(page);
}

/**
 * Answers `req` when it asks for a cached public page that is current, else hands it to
 * `miss` (Astro). Returns false, without touching the request, when it is not a public
 * page request at all.
 */
export function servePublicPage(req: IncomingMessage, res: ServerResponse, miss: Handler): boolean {
  const method = req.method;
  const url = req.url ?? "";
  if ((method !== "GET" && method !== "HEAD") || !FAST_PATHS.has(url)) return false;
  if (SIGNED_OUT_PAGES.has(url) && SESSION_COOKIE.test(req.headers.cookie ?? "")) return false;
  const registry = publicPageRegistry();
  const page = registry.pages.get(url);
  const currentVersion = registry.currentVersion;
  if (!page || !currentVersion) return false;
  void answer(req, res, page, currentVersion, miss);
  return true;
}
