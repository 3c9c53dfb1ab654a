// @ts-check
// The shop's IP-echo endpoint: what the dashboard's "Testing Your Proxies" example and
// each proxy card's curl command ask, so a customer sees the address a site sees through
// the gateway (its exit), without relying on a service elsewhere.

/**
 * Whether the caller asked for JSON: application/json in Accept with a quality above zero
 * and not below text/plain's (a bare wildcard Accept, or none, gets text).
 * @param {string} accept
 * @returns {boolean}
 */
function wantsJson(accept) {
  let json = 0;
  let text = 0;
  for (const range of accept.split(",")) {
    const [type = "", ...params] = range.split(";").map((s) => s.trim().toLowerCase());
    const q = params.find((p) => p.startsWith("q="));
    const quality = q ? Number.parseFloat(q.slice(2)) : 1;
    const weight = Number.isFinite(quality) ? Math.min(Math.max(quality, 0), 1) : 0;
    if (type === "application/json") json = Math.max(json, weight);
    else if (type === "text/plain" || type === "text/*") text = Math.max(text, weight);
  }
  return json > 0 && json >= text;
}

/**
 * GET /api/ip (no auth): the caller's address as PocketBase sees it (e.realIP(): the web
 * server in front says who connected to it in X-Forwarded-For, which PocketBase's
 * trustedProxy setting reads; a direct caller is its TCP peer). "<ip>\n" as text/plain,
 * or {ip} with Accept: application/json. Never cached: the answer is the caller's own.
 * @param {core.RequestEvent} e
 */
function ipEchoRoute(e) {
  const ip = e.realIP();
  const headers = e.response.header();
  headers.set("Cache-Control", "no-store");
  headers.set("Vary", "Accept");
  if (wantsJson(e.request?.header.get("Accept") ?? "")) return e.json(200, { ip });
  return e.string(200, `${ip}\n`);
}

module.exports = { ipEchoRoute, wantsJson };
