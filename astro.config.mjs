// @ts-check
import node from "@astrojs/node";
import react from "@astrojs/react";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "astro/config";
import { leanContract } from "./server/lean-contract.ts";
import { precompress } from "./server/precompress.ts";

// Every page is rendered on the server. Public pages are rendered once and then served
// from an in-memory cache that is cleared when settings or plans change
// (src/lib/server/page-cache.ts), so they cost no database read per request; the web
// server answers them from that cache before Astro's handler (server/public-pages.ts).
// precompress() writes .br and .gz copies of the client build for the web server to send;
// leanContract() leaves the contract's schemas out of the browser's bundles (the typed caller
// needs only a route's method, path and Idempotency-Key rule).
export default defineConfig({
  output: "server",
  adapter: node({ mode: "standalone" }),
  integrations: [react(), precompress()],
  server: { port: 4321 },
  security: { checkOrigin: true },
  vite: { plugins: [tailwindcss(), leanContract()] },
});
