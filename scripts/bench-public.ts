// `npm run bench:public`: per public page, requests per second and median latency on
// loopback, and the JavaScript the page loads (raw and gzip bytes). A trivial Node HTTP
// server is measured in the same run as a reference, so the ratio survives machine noise.
import autocannon from "autocannon";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { ROOT } from "../server/pocketbase-process.ts";
import { startShop } from "../server/shop.ts";
import { PUBLIC_PATHS } from "../src/lib/server/page-cache.ts";
import { freePort } from "../tests/support/pocketbase.ts";
import { ensureBuilt } from "./ensure-built.ts";

const DURATION_S = Number(process.env["BENCH_SECONDS"] ?? 4);
const CONNECTIONS = 20;

async function measure(url: string): Promise<{ rps: number; p50: number; errors: number }> {
  await autocannon({ url, connections: CONNECTIONS, duration: 1 }); // warm-up
  const result = await autocannon({ url, connections: CONNECTIONS, duration: DURATION_S });
  return { rps: result.requests.average, p50: result.latency.p50, errors: result.errors + result.non2xx };
}

/** The JS files a page loads: module scripts and island component/renderer URLs. */
function scriptUrls(html: string): string[] {
  const urls = new Set<string>();
  for (const m of html.matchAll(/<script[^>]*\bsrc="([^"]+)"/g)) urls.add(m[1]!);
  for (const m of html.matchAll(/\b(?:component-url|renderer-url)="([^"]+)"/g)) urls.add(m[1]!);
  return [...urls].filter((u) => u.startsWith("/"));
}

/** Follows static imports so shared chunks are counted once. */
function jsBytes(entryUrls: string[]): { raw: number; gzip: number; files: number } {
  const seen = new Set<string>();
  const queue = [...entryUrls];
  let raw = 0;
  let gzip = 0;
  while (queue.length) {
    const url = queue.pop()!;
    if (seen.has(url)) continue;
    seen.add(url);
    const code = readFileSync(path.join(ROOT, "dist", "client", url));
    raw += code.length;
    gzip += gzipSync(code).length;
    for (const m of code.toString().matchAll(/(?:import|from)\s*["'](\.\/[^"']+\.js)["']/g)) {
      queue.push(path.posix.join(path.posix.dirname(url), m[1]!));
    }
  }
  return { raw, gzip, files: seen.size };
}

ensureBuilt();
const dataDir = mkdtempSync(path.join(os.tmpdir(), "proxyshop-bench-"));
const shop = await startShop({
  webPort: await freePort(),
  pocketbasePort: await freePort(),
  dataDir,
  superuserEmail: "superuser@bench.local",
  superuserPassword: "Superuser#Bench2026",
});
const reference = http.createServer((_req, res) => res.end("ok"));
await new Promise<void>((r) => reference.listen(0, "127.0.0.1", () => r()));
const refPort = (reference.address() as { port: number }).port;

try {
  const ref = await measure(`http://127.0.0.1:${refPort}/`);
  console.log(`reference (trivial Node server): ${ref.rps.toFixed(0)} req/s, p50 ${ref.p50} ms\n`);
  console.log("page          req/s   p50 ms  vs ref  errors  JS files  JS bytes (gzip)");
  for (const page of PUBLIC_PATHS) {
    const html = await (await fetch(shop.url + page)).text();
    const js = jsBytes(scriptUrls(html));
    const r = await measure(shop.url + page);
    console.log(
      `${page.padEnd(12)} ${r.rps.toFixed(0).padStart(6)} ${String(r.p50).padStart(8)} ${(r.rps / ref.rps).toFixed(2).padStart(7)} ${String(r.errors).padStart(7)} ${String(js.files).padStart(9)}  ${js.raw} (${js.gzip})`,
    );
  }
} finally {
  reference.close();
  await shop.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
