// Public pages depend only on the site snapshot, so each is rendered once per snapshot
// version and then served from memory.

interface CachedPage {
  version: number;
  status: number;
  headers: [string, string][];
  /** Encoded once, so a hit costs no UTF-8 encoding of the page. */
  body: Uint8Array<ArrayBuffer>;
}

const pages = new Map<string, CachedPage>();

/** The public routes; everything else is rendered per request. */
export const PUBLIC_PATHS: ReadonlySet<string> = new Set([
  "/",
  "/use-cases",
  "/pricing",
  "/docs",
  "/contact",
  "/program",
  "/terms",
  "/privacy",
  "/login",
  "/signup",
]);

export function isCacheablePath(pathname: string): boolean {
  return PUBLIC_PATHS.has(pathname.length > 1 ? pathname.replace(/\/$/, "") : pathname);
}

export async function servePublicPage(pathname: string, version: number, render: () => Promise<Response>): Promise<Response> {
  const key = pathname.length > 1 ? pathname.replace(/\/$/, "") : pathname;
  let page = pages.get(key);
  if (!page || page.version !== version) {
    const response = await render();
    if (response.status !== 200) return response;
    page = { version, status: response.status, headers: [...response.headers], body: new Uint8Array(await response.arrayBuffer()) };
    pages.set(key, page);
  }
  return new Response(page.body, { status: page.status, headers: page.headers });
}
