import { defineMiddleware } from "astro:middleware";
import { isCacheablePath, servePublicPage } from "@/lib/server/page-cache";
import { getSiteSnapshot } from "@/lib/server/site-content";

export const onRequest = defineMiddleware(async (context, next) => {
  const { content, version } = await getSiteSnapshot();
  context.locals.site = content;

  if (context.request.method === "GET" && isCacheablePath(context.url.pathname)) {
    return servePublicPage(context.url.pathname, version, () => next());
  }
  return next();
});
