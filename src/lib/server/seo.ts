// robots.txt and sitemap.xml for the public site, with absolute links to the shop's own
// address (never the request's Host header: these answers are cached and shared).

/** Where crawlers must not go: signed-in areas, the API and the PocketBase dashboard. */
export const DISALLOWED_PREFIXES: readonly string[] = [
  "/dashboard",
  "/console",
  "/onboarding",
  "/reset-password",
  "/session-unavailable",
  "/api/",
  "/_/",
];

const FALLBACK_SITE_URL = "http://localhost:4321";

/**
 * The shop's public address: SHOP_APP_URL (the one PocketBase's mails link to, set by
 * server/shop.ts from the start options), else APP_URL, else Astro's default port.
 */
export function siteUrl(env: Record<string, string | undefined> = process.env): string {
  for (const raw of [env["SHOP_APP_URL"], env["APP_URL"]]) {
    const value = raw?.trim();
    if (!value) continue;
    try {
      const url = new URL(value);
      if (url.protocol === "http:" || url.protocol === "https:") return url.href.replace(/\/+$/, "");
    } catch {
      // not a URL: try the next one
    }
  }
  return FALLBACK_SITE_URL;
}

export function robotsTxt(site: string): string {
  return ["User-agent: *", "Allow: /", ...DISALLOWED_PREFIXES.map((p) => `Disallow: ${p}`), "", `Sitemap: ${site}/sitemap.xml`, ""].join(
    "\n",
  );
}

const XML_ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" };
const escapeXml = (s: string): string => s.replace(/[&<>"']/g, (c) => XML_ESCAPES[c]!);

export function sitemapXml(site: string, paths: readonly string[]): string {
  const urls = paths.map((p) => `  <url><loc>${escapeXml(site + (p === "/" ? "/" : p))}</loc></url>`);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    ...urls,
    "</urlset>",
    "",
  ].join("\n");
}
