// Security headers for every answer of the public port: pages, app pages, API answers,
// static assets, errors and 404s.
//
// Content-Security-Policy. The only inline scripts our pages carry are Astro's island
// runtime (the <astro-island> element) and its hydration directives (client:load ...), which
// Astro inlines verbatim from its own package. Their hashes are computed here once, from
// the same strings Astro inlines, so the policy is a constant: no HTML is buffered or
// scanned per response, and a script that an injection bug managed to write into a page is
// NOT allowed just because it is there (hashing each response's inline scripts would allow
// exactly that). A new inline script (an `is:inline` script, an Astro upgrade) is refused
// by the browser and caught by tests/e2e/security-headers.spec.ts, which checks every
// inline script of every page type against this policy and listens for violations.
//
// Astro 5.18's own `experimental.csp` was weighed and not used: its style-src always holds
// hashes, which switches 'unsafe-inline' off, so the brand colour on <html style> and other
// style attributes would break (its directive list does not accept style-src-attr); it
// lists the hash of every JavaScript chunk of the build on every page (a header of several
// KB per response); and it is experimental in 5.x.
import { createHash } from "node:crypto";
import type { ServerResponse } from "node:http";
import islandRuntime from "astro/runtime/server/astro-island.prebuilt.js";
import idleDirective from "astro/runtime/client/idle.prebuilt.js";
import loadDirective from "astro/runtime/client/load.prebuilt.js";
import mediaDirective from "astro/runtime/client/media.prebuilt.js";
import onlyDirective from "astro/runtime/client/only.prebuilt.js";
import visibleDirective from "astro/runtime/client/visible.prebuilt.js";

/** The inline scripts Astro writes into pages with islands, verbatim. */
export const ASTRO_INLINE_SCRIPTS: readonly string[] = [
  islandRuntime,
  loadDirective,
  idleDirective,
  visibleDirective,
  mediaDirective,
  onlyDirective,
];

export function cspHash(script: string): string {
  return `'sha256-${createHash("sha256").update(script, "utf8").digest("base64")}'`;
}

/** The policy of every HTML document we serve (public pages, app pages, error pages). */
export const PAGE_CSP = [
  "default-src 'self'",
  `script-src 'self' ${ASTRO_INLINE_SCRIPTS.map(cspHash).join(" ")}`,
  // Style attributes carry the brand colour (<html style>) and layout values; CSS files are same-origin.
  "style-src 'self' 'unsafe-inline'",
  // The site logo may be any https:// address (console settings); data: and blob: for previews.
  "img-src 'self' data: blob: https:",
  "font-src 'self' data:",
  // The PocketBase API and its realtime stream are same-origin (/api/**).
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "frame-ancestors 'none'",
  "form-action 'self'",
].join("; ");

/**
 * The policy of everything that is not one of our pages (API answers, files, assets): it
 * renders nothing. `sandbox` keeps an uploaded file opened directly (an SVG or HTML
 * attachment under /api/files) from running script on this origin.
 */
export const RESOURCE_CSP = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'; sandbox";

/**
 * PocketBase's own dashboard (/_/, this machine only): its single-page app is PocketBase's
 * to secure; we only forbid framing, plugins and base rewriting.
 */
export const DASHBOARD_CSP = "object-src 'none'; base-uri 'self'; frame-ancestors 'none'";

/** One year, subdomains left alone: the shop may share its domain with other hosts. */
export const HSTS = "max-age=31536000";

const COMMON: Readonly<Record<string, string>> = {
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "strict-origin-when-cross-origin",
  "X-Frame-Options": "DENY",
  "Permissions-Policy": "camera=(), microphone=(), geolocation=(), payment=(), usb=()",
  "Cross-Origin-Opener-Policy": "same-origin",
};

export type ResponseKind = "page" | "resource" | "dashboard";

/**
 * Sets the headers before the response is handed to whoever writes it (Astro, the proxy):
 * `writeHead` merges them with its own, and a handler may still override one on purpose.
 * Strict-Transport-Security only when the client came over TLS (directly, or through a
 * trusted proxy saying X-Forwarded-Proto: https): on plain HTTP it would be ignored at
 * best, and on a misconfigured host it would lock visitors out.
 */
export function setSecurityHeaders(res: ServerResponse, kind: ResponseKind, secure: boolean): void {
  for (const [name, value] of Object.entries(COMMON)) res.setHeader(name, value);
  res.setHeader("Content-Security-Policy", kind === "page" ? PAGE_CSP : kind === "dashboard" ? DASHBOARD_CSP : RESOURCE_CSP);
  if (secure) res.setHeader("Strict-Transport-Security", HSTS);
}

/**
 * PocketBase answers under /api/ get the resource policy; /_/ the dashboard's. Everything
 * else goes to Astro, which answers pages and the built assets (a page policy on a .js or
 * .css answer is inert).
 */
export function kindOf(url: string): ResponseKind {
  if (url === "/_" || url.startsWith("/_/")) return "dashboard";
  if (url === "/api" || url.startsWith("/api/") || url.startsWith("/api?")) return "resource";
  return "page";
}
