import type { APIRoute } from "astro";
import { SITEMAP_PATHS } from "@/lib/server/page-cache";
import { siteUrl, sitemapXml } from "@/lib/server/seo";

/** The public pages, and the API reference (rendered per request, so not among the cached pages). */
const PATHS: readonly string[] = [...new Set([...SITEMAP_PATHS, "/docs/api"])];

export const GET: APIRoute = () =>
  new Response(sitemapXml(siteUrl(), PATHS), { headers: { "Content-Type": "application/xml; charset=utf-8" } });
