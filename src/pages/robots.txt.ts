import type { APIRoute } from "astro";
import { robotsTxt, siteUrl } from "@/lib/server/seo";

export const GET: APIRoute = () => new Response(robotsTxt(siteUrl()), { headers: { "Content-Type": "text/plain; charset=utf-8" } });
