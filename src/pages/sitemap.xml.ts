import type { APIRoute } from "astro";
import { SITEMAP_PATHS } from "@/lib/server/page-cache";
import { siteUrl, sitemapXml } from "@/lib/server/seo";

export const GET: APIRoute = () =>
  new Response(sitemapXml(siteUrl(), SITEMAP_PATHS), { headers: { "Content-Type": "application/xml; charset=utf-8" } });
