import { defineMiddleware } from "astro:middleware";
import { guard, isAppPath, isSecureRequest, referralCookie, SessionCheckUnavailable, sessionToken, verifySession } from "@/lib/server/auth";
import { signInDestination } from "@/lib/safe-next";
import { isCacheablePath, publishSnapshotVersion, servePublicPage } from "@/lib/server/page-cache";
import { getSiteSnapshot } from "@/lib/server/site-content";

// The web server answers a cached public page itself while the page's version is this one.
publishSnapshotVersion(async () => (await getSiteSnapshot()).version);

function redirect(location: string): Response {
  return new Response(null, { status: 302, headers: { Location: location, "Cache-Control": "no-store" } });
}

/** A copy of the response with one header changed (never touches a cached page's headers). */
function withHeader(response: Response, name: string, value: string, mode: "set" | "append"): Response {
  const headers = new Headers(response.headers);
  if (mode === "set") headers.set(name, value);
  else headers.append(name, value);
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

/** The page saying the session could not be checked, as a 503 the browser may retry. */
function sessionUnavailable(page: Response): Response {
  const headers = new Headers(page.headers);
  headers.set("Cache-Control", "no-store");
  headers.set("Retry-After", "5");
  return new Response(page.body, { status: 503, headers });
}

function clientIp(context: { clientAddress: string }): string | undefined {
  try {
    return context.clientAddress;
  } catch {
    return undefined;
  }
}

/**
 * Where a signed-in visitor opening /login goes instead (issue #28): where signing in would
 * take them (a safe ?next, else /dashboard). Null for everyone else, who gets the static
 * page: no cookie, a session PocketBase does not confirm or cannot check now, or a
 * ?verify= link (the page confirms it, then moves on itself).
 */
async function signedInElsewhere(context: { request: Request; url: URL; clientAddress: string }): Promise<string | null> {
  const { request, url } = context;
  if (request.method !== "GET" || url.pathname !== "/login" || url.searchParams.has("verify")) return null;
  const cookie = request.headers.get("cookie") ?? "";
  if (!sessionToken(cookie)) return null;
  try {
    const user = await verifySession(cookie, clientIp(context));
    return user ? signInDestination(url.searchParams.get("next"), user) : null;
  } catch (err) {
    if (err instanceof SessionCheckUnavailable) return null;
    throw err;
  }
}

export const onRequest = defineMiddleware(async (context, next) => {
  const { content, version } = await getSiteSnapshot();
  context.locals.site = content;
  const { pathname, search } = context.url;
  const signedIn = await signedInElsewhere(context);
  if (signedIn) return redirect(signedIn);

  let response: Response;
  if (isAppPath(pathname)) {
    // Guards run before any HTML: PocketBase verifies the session cookie.
    let user;
    try {
      user = await verifySession(context.request.headers.get("cookie") ?? "", clientIp(context));
    } catch (err) {
      if (!(err instanceof SessionCheckUnavailable)) throw err;
      context.locals.retryPath = pathname + search;
      return sessionUnavailable(await next("/session-unavailable"));
    }
    const decision = guard(pathname, search, user);
    if ("redirect" in decision) return redirect(decision.redirect);
    context.locals.user = user;
    // App pages are per user: never stored by browsers or proxies.
    response = withHeader(await next(), "Cache-Control", "no-store", "set");
  } else if (context.request.method === "GET" && isCacheablePath(pathname)) {
    response = await servePublicPage(pathname, version, () => next(), context.request.headers.get("if-none-match"));
  } else {
    response = await next();
  }

  // ?ref=CODE on any page is remembered for 30 days. Set on the response, never baked
  // into a cached page body.
  const refCookie = context.request.method === "GET" ? referralCookie(context.url, isSecureRequest(context.request)) : null;
  if (!refCookie) return response;
  // A response that sets a cookie must never be stored by a shared cache.
  return withHeader(withHeader(response, "Set-Cookie", refCookie, "append"), "Cache-Control", "private, no-store", "set");
});
