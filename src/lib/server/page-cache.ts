// Public pages depend only on the site snapshot, so each is rendered once per snapshot
// version and then served from memory.
//
// The cache lives in a registry on globalThis because two module instances read it: this
// one inside the Astro bundle (dist/server, through src/middleware.ts) and the web server
// (server/public-pages.ts, run by tsx), which answers a cached page itself, before
// Astro's handler, while the page's version is the snapshot's current one.
import { createHash } from "node:crypto";
import { etagMatches, PUBLIC_PAGE_CACHE_CONTROL } from "./http-cache";

/** One rendered public page, as both the bundle and the web server serve it. */
export interface PublishedPage {
  /** The normalised path ("/pricing"). */
  path: string;
  /** The site snapshot version it was rendered from. */
  version: number;
  status: number;
  /** The rendered response's headers, with Cache-Control and ETag set. */
  headers: [string, string][];
  /** Encoded once, so a hit costs no UTF-8 encoding of the page. */
  body: Uint8Array<ArrayBuffer>;
  /** A strong validator of the body: changes exactly when the page's bytes do. */
  etag: string;
}

export interface PublicPageRegistry {
  pages: Map<string, PublishedPage>;
  /**
   * The snapshot version pages are rendered from right now; installed by the bundle's
   * middleware when it loads (until then the web server sends every request to Astro).
   */
  currentVersion: (() => Promise<number>) | null;
  /** Told about every newly rendered page (the web server compresses it once, here). */
  onPublish: ((page: PublishedPage) => void) | null;
}

const REGISTRY = Symbol.for("proxy-shop.public-pages");

/** The one registry of this process, whichever module instance asks first. */
export function publicPageRegistry(): PublicPageRegistry {
  const holder = globalThis as { [REGISTRY]?: PublicPageRegistry };
  return (holder[REGISTRY] ??= { pages: new Map(), currentVersion: null, onPublish: null });
}

/** Called once by the middleware: where the current snapshot version comes from. */
export function publishSnapshotVersion(currentVersion: () => Promise<number>): void {
  publicPageRegistry().currentVersion = currentVersion;
}

/** The public HTML pages; everything else is rendered per request. */
export const PUBLIC_PATHS: ReadonlySet<string> = new Set([
  "/",
  "/use-cases",
  "/pricing",
  "/docs",
  "/docs/api",
  "/contact",
  "/program",
  "/terms",
  "/privacy",
  "/login",
  "/signup",
]);

/** Public documents for crawlers, cached like the pages. */
export const PUBLIC_DOCUMENTS: ReadonlySet<string> = new Set(["/robots.txt", "/sitemap.xml"]);

/** The pages a search engine is invited to index (sign-in has nothing to find). */
export const SITEMAP_PATHS: readonly string[] = [...PUBLIC_PATHS].filter((p) => p !== "/login");

/** "/pricing/" and "/pricing" are one page. */
export function normalisePath(pathname: string): string {
  return pathname.length > 1 ? pathname.replace(/\/$/, "") : pathname;
}

export function isCacheablePath(pathname: string): boolean {
  const key = normalisePath(pathname);
  return PUBLIC_PATHS.has(key) || PUBLIC_DOCUMENTS.has(key);
}

function etagOf(body: Uint8Array): string {
  return `"${createHash("sha256").update(body).digest("base64url").slice(0, 22)}"`;
}

// One render per page and version, however many requests miss at once (a settings change
// sends every visitor of a page to the renderer at the same moment).
const rendering = new Map<string, Promise<PublishedPage | Response>>();

async function render(key: string, version: number, renderPage: () => Promise<Response>): Promise<PublishedPage | Response> {
  const response = await renderPage();
  if (response.status !== 200) return response;
  const body = new Uint8Array(await response.arrayBuffer());
  const etag = etagOf(body);
  const headers = new Headers(response.headers);
  headers.delete("content-length");
  headers.set("Cache-Control", PUBLIC_PAGE_CACHE_CONTROL);
  headers.set("ETag", etag);
  const page: PublishedPage = { path: key, version, status: response.status, headers: [...headers], body, etag };
  const registry = publicPageRegistry();
  const current = registry.pages.get(key);
  // A slower render of an older version never replaces a newer page.
  if (!current || current.version <= version) {
    registry.pages.set(key, page);
    registry.onPublish?.(page);
  }
  return page;
}

/**
 * The cached page for `pathname` at snapshot `version`, rendering it with `renderPage` when
 * missing or older; a 304 when `ifNoneMatch` names the page's current ETag.
 */
export async function servePublicPage(
  pathname: string,
  version: number,
  renderPage: () => Promise<Response>,
  ifNoneMatch?: string | null,
): Promise<Response> {
  const key = normalisePath(pathname);
  let page: PublishedPage | Response | undefined = publicPageRegistry().pages.get(key);
  if (!page || page.version !== version) {
    const flight = `${version} ${key}`;
    let pending = rendering.get(flight);
    if (!pending) {
      pending = render(key, version, renderPage).finally(() => rendering.delete(flight));
      rendering.set(flight, pending);
      page = await pending;
    } else {
      page = await pending;
      // A response that is not a page (an error, a redirect) answered one request only.
      if (page instanceof Response) return renderPage();
    }
    if (page instanceof Response) return page;
  }
  if (etagMatches(ifNoneMatch, page.etag)) {
    return new Response(null, { status: 304, headers: { "Cache-Control": PUBLIC_PAGE_CACHE_CONTROL, ETag: page.etag } });
  }
  return new Response(page.body, { status: page.status, headers: page.headers });
}
