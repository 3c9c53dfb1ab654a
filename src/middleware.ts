import { defineMiddleware } from "astro:middleware";
import { guard, isAppPath, referralCookie, verifySession } from "@/lib/server/auth";
import { isCacheablePath, servePublicPage } from "@/lib/server/page-cache";
import { getSiteSnapshot } from "@/lib/server/site-content";

function redirect(location: string): Response {
  return new Response(null, { status: 302, headers: { Location: location, "Cache-Control": "no-store" } });
}

/** Adds headers to a response without touching the cached copy it may come from. */
function withHeaders(response: Response, extra: [string, string][]): Response {
  const headers = new Headers(response.headers);
  for (const [name, value] of extra) headers.append(name, value);
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

function clientIp(context: { clientAddress: string }): string | undefined {
  try {
    return context.clientAddress;
  } catch {
    return undefined;
  }
}

export const onRequest = defineMiddleware(async (context, next) => {
  const { content, version } = await getSiteSnapshot();
  context.locals.site = content;
  const { pathname, search } = context.url;

  let response: Response;
  if (isAppPath(pathname)) {
    // Guards run before any HTML: PocketBase verifies the session cookie.
    const user = await verifySession(context.request.headers.get("cookie") ?? "", clientIp(context));
    const decision = guard(pathname, search, user);
    if ("redirect" in decision) return redirect(decision.redirect);
    context.locals.user = user;
    response = withHeaders(await next(), [["Cache-Control", "no-store"]]);
  } else if (context.request.method === "GET" && isCacheablePath(pathname)) {
    response = await servePublicPage(pathname, version, () => next());
  } else {
    response = await next();
  }

  // ?ref=CODE on any page is remembered for 30 days. Set on the response, never baked
  // into a cached page body.
  const refCookie = context.request.method === "GET" ? referralCookie(context.url) : null;
  return refCookie ? withHeaders(response, [["Set-Cookie", refCookie]]) : response;
});
