// @ts-check
import node from "@astrojs/node";
import react from "@astrojs/react";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "astro/config";

// Every page is rendered on the server. Public pages are rendered once and then served
// from an in-memory cache that is cleared when settings or plans change
// (src/lib/server/page-cache.ts), so they cost no database read per request.
export default defineConfig({
  output: "server",
  adapter: node({ mode: "standalone" }),
  integrations: [react()],
  server: { port: 4321 },
  security: { checkOrigin: true },
  vite: { plugins: [tailwindcss()] },
});
