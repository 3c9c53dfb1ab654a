// The answer headers of a page opened from a one-time link with its token in the URL
// (/console/register?token=, /console/setup?token=): never stored by any cache, never sent
// on as a Referer, never indexed.
export function setLinkPageHeaders(headers: Headers): void {
  headers.set("Cache-Control", "no-store");
  headers.set("Referrer-Policy", "no-referrer");
  headers.set("X-Robots-Tag", "noindex, nofollow");
}
