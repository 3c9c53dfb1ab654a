// Validators and freshness rules shared by the Astro bundle (src/middleware.ts, page-cache.ts)
// and the web server in front of it (server/*.ts). Dependency-free: both load it.

/**
 * Public pages: any cache may store them, but a browser revalidates on every use
 * (max-age=0, answered by a 304 while the ETag matches) and a shared cache (CDN) after
 * 10 seconds. must-revalidate forbids serving them stale past that, so a settings change
 * reaches every visitor within ~10 s plus the moment the server takes to reload its
 * snapshot, inside the 15-second promise, while a CDN still absorbs all but one request
 * per page per 10 seconds.
 */
export const PUBLIC_PAGE_CACHE_CONTROL = "public, max-age=0, s-maxage=10, must-revalidate";

/** Fingerprinted build assets (/_astro/*): their name changes when their bytes do. */
export const IMMUTABLE_CACHE_CONTROL = "public, max-age=31536000, immutable";

/** The content codings the server produces, with the suffix their ETags carry. */
export const CODING_ETAG_SUFFIX = { br: "br", gzip: "gz" } as const;
export type Coding = keyof typeof CODING_ETAG_SUFFIX;

const SUFFIX = new RegExp(`-(?:${Object.values(CODING_ETAG_SUFFIX).join("|")})$`);

/** The opaque part of an entity tag: no W/ prefix, no quotes, no coding suffix. */
function opaque(tag: string): string {
  let t = tag.trim();
  if (t.startsWith("W/")) t = t.slice(2);
  if (t.startsWith('"') && t.endsWith('"') && t.length >= 2) t = t.slice(1, -1);
  return t.replace(SUFFIX, "");
}

/**
 * The ETag of one coding of a representation: `"abc"` becomes `"abc-br"` / `"abc-gz"`, so
 * each coding has its own strong validator (RFC 9110 8.8.3) while a 304 check still
 * recognises any of them (etagMatches).
 */
export function etagForCoding(etag: string, coding: Coding | "identity"): string {
  if (coding === "identity") return etag;
  const m = /^(W\/)?"([^"]*)"$/.exec(etag);
  if (!m) return etag;
  return `${m[1] ?? ""}"${m[2]}-${CODING_ETAG_SUFFIX[coding]}"`;
}

/**
 * If-None-Match against a representation's ETag, weak comparison (RFC 9110 13.1.2), any
 * coding: the content is the same, only its transfer form differs.
 */
export function etagMatches(ifNoneMatch: string | null | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  const wanted = opaque(etag);
  return ifNoneMatch.split(",").some((tag) => {
    const t = tag.trim();
    return t === "*" || (t !== "" && opaque(t) === wanted);
  });
}

/** A header value with `token` added to its comma list unless it is already there. */
export function addToList(value: string | undefined, token: string): string {
  if (!value) return token;
  const present = value.split(",").some((v) => {
    const t = v.trim().toLowerCase();
    return t === "*" || t === token.toLowerCase();
  });
  return present ? value : `${value}, ${token}`;
}
