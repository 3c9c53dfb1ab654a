// One origin for the shop on this machine. Mails link to APP_URL (verification, sign-in
// codes, password links) and the session lives in the browser per origin, so a visitor
// who reached the shop through another loopback name of the same machine (127.0.0.1 where
// APP_URL says localhost, or [::1]) is sent to APP_URL's origin before anything is served:
// the page they sign in on and the page a mailed link opens are then the same origin.

const LOOPBACK_NAMES = new Set(["localhost", "127.0.0.1", "[::1]"]);

/** True for a host name that means this machine ("localhost", "127.0.0.1", "[::1]"). */
export function isLoopbackName(hostname: string): boolean {
  return LOOPBACK_NAMES.has(hostname.toLowerCase());
}

/**
 * Where to send a request instead of serving it, or null to serve it: a GET or HEAD whose
 * Host is a loopback name of this machine other than the canonical URL's (itself a
 * loopback name) goes to the same path on the canonical origin. Other methods (a form
 * post, an API call) and PocketBase's paths are served where they came, and a canonical
 * URL with a public name redirects nothing (behind a proxy, the Host is the proxy's call).
 */
export function canonicalRedirect(
  canonical: URL | null,
  request: { method?: string | undefined; url?: string | undefined; host?: string | undefined },
): string | null {
  if (!canonical || !isLoopbackName(canonical.hostname)) return null;
  if (request.method !== "GET" && request.method !== "HEAD") return null;
  const url = request.url ?? "/";
  if (!url.startsWith("/") || url.startsWith("//")) return null;
  let host: URL;
  try {
    host = new URL(`http://${request.host ?? ""}`);
  } catch {
    return null;
  }
  if (!isLoopbackName(host.hostname) || host.host === canonical.host) return null;
  return `${canonical.origin}${url}`;
}
