// What `npm run bench:public` measures and how: request rates with the server's CPU time
// per request, the bytes each coding puts on the wire, the JavaScript a page loads, and how
// long a settings change takes to reach the home page.
import autocannon from "autocannon";
import { readFileSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import PocketBase from "pocketbase";
import type { ShopInfo } from "./public-servers.ts";
import { BENCH_SUPERUSER } from "./shop.ts";
import { num } from "./table.ts";

export const SECONDS = Number(process.env["BENCH_SECONDS"] ?? 3);
export const CONNECTIONS = 16;
export const FRESHNESS_GOAL_S = 15;

export interface Rate {
  rps: number;
  p50: number;
  failures: number;
  /** The server process's CPU time per request (user + system), when /proc tells it. */
  cpuMicros: number | null;
}

const TICKS_PER_SECOND = 100; // Linux USER_HZ

/** CPU seconds (user + system, all threads) a process has used, or null off Linux. */
function cpuSeconds(pid: number): number | null {
  try {
    // Fields after the parenthesised command name; utime and stime are the 12th and 13th.
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
  } catch {
    return null;
  }
}

/**
 * Requests per second and median latency under load, plus the server's CPU time per
 * request: on a machine shared with other work the rate is noisy, the CPU cost much less.
 */
export async function rate(url: string, serverPid: number, warm: boolean): Promise<Rate> {
  if (warm) await autocannon({ url, connections: CONNECTIONS, duration: 1 });
  const cpuBefore = cpuSeconds(serverPid);
  const r = await autocannon({ url, connections: CONNECTIONS, duration: SECONDS });
  const cpuAfter = cpuSeconds(serverPid);
  const cpuMicros =
    cpuBefore !== null && cpuAfter !== null && r.requests.total > 0 ? ((cpuAfter - cpuBefore) * 1e6) / r.requests.total : null;
  return { rps: r.requests.average, p50: r.latency.p50, failures: r.errors + r.timeouts + r.non2xx, cpuMicros };
}

export const cpu = (r: Rate): string => (r.cpuMicros === null ? "" : `, CPU ${num(r.cpuMicros)} µs/req`);

export const medianBy = (runs: Rate[]): Rate => [...runs].sort((a, b) => a.rps - b.rps)[Math.floor(runs.length / 2)]!;

export async function fetchRaw(url: string, headers: Record<string, string> = {}): Promise<{ status: number; etag: string; body: Buffer }> {
  const res = await fetch(url, { headers });
  return { status: res.status, etag: res.headers.get("etag") ?? "", body: Buffer.from(await res.arrayBuffer()) };
}

/** Bytes on the wire per coding, read with raw HTTP (fetch would decode them). */
export function wireBytes(url: string, acceptEncoding: string): Promise<number> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers: { "accept-encoding": acceptEncoding } }, (res) => {
        let n = 0;
        res.on("data", (c: Buffer) => (n += c.length));
        res.on("end", () => resolve(n));
      })
      .on("error", reject);
  });
}

/** The JS files a page loads: module scripts and island component/renderer URLs. */
function scriptUrls(html: string): string[] {
  const urls = new Set<string>();
  for (const m of html.matchAll(/<script[^>]*\bsrc="([^"]+)"/g)) urls.add(m[1]!);
  for (const m of html.matchAll(/\b(?:component-url|renderer-url)="([^"]+)"/g)) urls.add(m[1]!);
  return [...urls].filter((u) => u.startsWith("/"));
}

/**
 * The JavaScript a page loads (static imports followed, shared chunks counted once): its
 * size, and the bytes the web server sends for it to a browser that takes brotli.
 */
export async function jsSent(base: string, html: string): Promise<{ files: number; raw: number; br: number }> {
  const { ROOT } = await import("../../server/pocketbase-process.ts");
  const seen = new Set<string>();
  const queue = scriptUrls(html);
  let raw = 0;
  let br = 0;
  while (queue.length) {
    const url = queue.pop()!;
    if (seen.has(url)) continue;
    seen.add(url);
    const code = readFileSync(path.join(ROOT, "dist", "client", url));
    raw += code.length;
    br += await wireBytes(base + url, "br");
    for (const m of code.toString().matchAll(/(?:import|from)\s*["'](\.\/[^"']+\.js)["']/g)) {
      queue.push(path.posix.join(path.posix.dirname(url), m[1]!));
    }
  }
  return { files: seen.size, raw, br };
}

/** Seconds from a settings change to a new ETag (and the new name) on the home page. */
export async function freshness(shop: ShopInfo): Promise<number> {
  const pb = new PocketBase(shop.pocketbaseUrl);
  await pb.collection("_superusers").authWithPassword(BENCH_SUPERUSER.email, BENCH_SUPERUSER.password);
  const row = await pb.collection("settings").getFirstListItem('key = "site_name"');
  const original = row["value"] as string;
  const renamed = `Bench Fresh ${Date.now().toString(36)}`;
  const until = async (name: string): Promise<number> => {
    const before = (await fetchRaw(`${shop.url}/`)).etag;
    const started = performance.now();
    await pb.collection("settings").update(row.id, { value: name });
    for (;;) {
      const page = await fetchRaw(`${shop.url}/`, { "if-none-match": before });
      if (page.status === 200 && page.body.toString().includes(name)) return (performance.now() - started) / 1000;
      if ((performance.now() - started) / 1000 > FRESHNESS_GOAL_S * 2) return Infinity;
      await new Promise((r) => setTimeout(r, 25));
    }
  };
  try {
    return await until(renamed);
  } finally {
    await until(original);
  }
}
