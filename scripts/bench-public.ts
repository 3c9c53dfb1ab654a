// `npm run bench:public`: every public page's requests per second and median latency
// through the shop's public port, side by side with a plain static file server serving
// the SAME HTML bytes (written to files and served sirv-style: headers precomputed at
// start, the body streamed from the file with fs.createReadStream per request), measured
// in alternating runs, each with the server's CPU time per request (steadier than rates
// on a shared machine). Also: the home page against Node's http answering from memory
// (the ceiling of any Node server, for the record), the bytes each page sends in each
// coding, and how long a settings change takes to reach the pages.
//
// The web server and the static server each run in a child process pinned to core 0; the
// load (autocannon, in this process) and PocketBase (idle: cached pages never reach it)
// share core 1. Importing this module runs nothing: scripts/bench.ts calls
// publicPagesBench.run(). BENCH_SECONDS, BENCH_ROUNDS and BENCH_PAGES=/,/pricing narrow a run.
import autocannon from "autocannon";
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { createReadStream, mkdirSync, readFileSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath, pathToFileURL } from "node:url";
import PocketBase from "pocketbase";
import { pin } from "./bench/load.ts";
import { formatTable, num, type BenchRow, type BenchSection } from "./bench/table.ts";

const SECONDS = Number(process.env["BENCH_SECONDS"] ?? 3);
const ROUNDS = Number(process.env["BENCH_ROUNDS"] ?? 3);
/** BENCH_PAGES=/,/pricing measures only those pages. */
const ONLY_PAGES = process.env["BENCH_PAGES"]?.split(",").filter(Boolean);
const CONNECTIONS = 16;
const GOAL_RATIO = 0.8;
const FRESHNESS_GOAL_S = 15;
const SUPERUSER = { email: "superuser@bench.local", password: "Superuser#Bench2026" };

interface ShopInfo {
  url: string;
  pocketbaseUrl: string;
  pocketbasePid: number;
  paths: string[];
}

interface Rate {
  rps: number;
  p50: number;
  failures: number;
  /** The server process's CPU time per request (user + system), when /proc tells it. */
  cpuMicros: number | null;
}

// --- child processes -------------------------------------------------------------------

const THIS_FILE = fileURLToPath(import.meta.url);

/** This file again in a child process (under tsx, as this one runs), in `role`. */
function child(role: "shop" | "static", env: Record<string, string> = {}): { process: ChildProcess; ready: Promise<string> } {
  const proc = spawn(process.execPath, [...process.execArgv, THIS_FILE], {
    env: { ...process.env, ...env, BENCH_PUBLIC_ROLE: role },
    stdio: ["pipe", "pipe", "inherit"],
  });
  const ready = new Promise<string>((resolve, reject) => {
    const lines = createInterface({ input: proc.stdout });
    lines.once("line", resolve);
    proc.once("exit", (code) => reject(new Error(`the ${role} process exited (code ${code}) before it was ready`)));
  });
  return { process: proc, ready };
}

/** Stops a child by closing its stdin (it shuts down cleanly), then waits for it. */
function stop(proc: ChildProcess): Promise<void> {
  if (proc.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    proc.once("exit", () => resolve());
    proc.stdin?.end();
    setTimeout(() => proc.kill("SIGKILL"), 15_000).unref();
  });
}

/** Child role "shop": the whole shop on a throwaway data dir; prints where it listens. */
async function runShop(): Promise<void> {
  const { startShop } = await import("../server/shop.ts");
  const { PUBLIC_PATHS } = await import("../src/lib/server/page-cache.ts");
  const { freePort } = await import("../tests/support/pocketbase.ts");
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "proxyshop-bench-public-"));
  const shop = await startShop({
    webPort: await freePort(),
    pocketbasePort: await freePort(),
    dataDir,
    superuserEmail: SUPERUSER.email,
    superuserPassword: SUPERUSER.password,
    hooksEnv: { PAYMENTS_TEST_MODE: "true" },
  });
  const info: ShopInfo = {
    url: shop.url,
    pocketbaseUrl: shop.pocketbase.url,
    pocketbasePid: shop.pocketbase.child.pid!,
    paths: [...PUBLIC_PATHS],
  };
  process.stdout.write(`${JSON.stringify(info)}\n`);
  process.stdin.resume();
  process.stdin.once("end", () => {
    void shop.stop().then(() => {
      rmSync(dataDir, { recursive: true, force: true });
      process.exit(0);
    });
  });
}

const STATIC_TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".txt": "text/plain; charset=utf-8",
  ".xml": "application/xml",
};

/**
 * Child role "static": the reference, a plain static file server over BENCH_STATIC_DIR in
 * the way sirv serves a production build (file table and headers built at start,
 * `/pricing` -> pricing.html, `/` -> index.html, body streamed from disk per request).
 */
function runStatic(): void {
  const dir = process.env["BENCH_STATIC_DIR"]!;
  const files = new Map<string, { file: string; headers: Record<string, string | number> }>();
  for (const name of readdirSync(dir)) {
    const file = path.join(dir, name);
    const stat = statSync(file);
    const headers = {
      "Content-Type": STATIC_TYPES[path.extname(name)] ?? "application/octet-stream",
      "Content-Length": stat.size,
      "Last-Modified": stat.mtime.toUTCString(),
      ETag: `W/"${stat.size}-${stat.mtime.getTime()}"`,
      "Cache-Control": "no-cache",
    };
    const url = name === "index.html" ? "/" : `/${name.replace(/\.html$/, "")}`;
    files.set(url, { file, headers });
  }
  // Under /memory/ the same files from memory (res.end(bytes)): the ceiling of Node's http.
  const memory = new Map(
    [...files].map(([url, entry]) => [`/memory${url === "/" ? "" : url}/`, { ...entry, bytes: readFileSync(entry.file) }]),
  );
  const server = http.createServer((req, res) => {
    const url = (req.url ?? "/").split("?")[0]!;
    const inMemory = memory.get(url);
    if (inMemory) {
      res.writeHead(200, inMemory.headers).end(inMemory.bytes);
      return;
    }
    const entry = files.get(url);
    if (!entry) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, entry.headers);
    createReadStream(entry.file).pipe(res);
  });
  server.keepAliveTimeout = 65_000;
  server.listen(0, "127.0.0.1", () => {
    process.stdout.write(`http://127.0.0.1:${(server.address() as { port: number }).port}\n`);
  });
  process.stdin.resume();
  process.stdin.once("end", () => {
    server.closeAllConnections();
    server.close(() => process.exit(0));
  });
}

// --- measuring -------------------------------------------------------------------------

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
async function rate(url: string, serverPid: number, warm: boolean): Promise<Rate> {
  if (warm) await autocannon({ url, connections: CONNECTIONS, duration: 1 });
  const cpuBefore = cpuSeconds(serverPid);
  const r = await autocannon({ url, connections: CONNECTIONS, duration: SECONDS });
  const cpuAfter = cpuSeconds(serverPid);
  const cpuMicros =
    cpuBefore !== null && cpuAfter !== null && r.requests.total > 0 ? ((cpuAfter - cpuBefore) * 1e6) / r.requests.total : null;
  return { rps: r.requests.average, p50: r.latency.p50, failures: r.errors + r.timeouts + r.non2xx, cpuMicros };
}

const cpu = (r: Rate): string => (r.cpuMicros === null ? "" : `, CPU ${num(r.cpuMicros)} µs/req`);

const medianBy = (runs: Rate[]): Rate => [...runs].sort((a, b) => a.rps - b.rps)[Math.floor(runs.length / 2)]!;

async function fetchRaw(url: string, headers: Record<string, string> = {}): Promise<{ status: number; etag: string; body: Buffer }> {
  const res = await fetch(url, { headers });
  return { status: res.status, etag: res.headers.get("etag") ?? "", body: Buffer.from(await res.arrayBuffer()) };
}

/** Bytes on the wire per coding, read with raw HTTP (fetch would decode them). */
function wireBytes(url: string, acceptEncoding: string): Promise<number> {
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
async function jsSent(base: string, html: string): Promise<{ files: number; raw: number; br: number }> {
  const { ROOT } = await import("../server/pocketbase-process.ts");
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
async function freshness(shop: ShopInfo): Promise<number> {
  const pb = new PocketBase(shop.pocketbaseUrl);
  await pb.collection("_superusers").authWithPassword(SUPERUSER.email, SUPERUSER.password);
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

function unpin(pid: number): void {
  try {
    execFileSync("taskset", ["-a", "-p", "-c", `0-${os.cpus().length - 1}`, String(pid)], { stdio: "ignore" });
  } catch {
    // not pinned, or no taskset
  }
}

async function run(): Promise<BenchRow[]> {
  const { ensureBuilt } = await import("./ensure-built.ts");
  ensureBuilt();
  const shopChild = child("shop");
  const htmlDir = mkdtempSync(path.join(os.tmpdir(), "proxyshop-bench-static-"));
  let staticChild: ReturnType<typeof child> | null = null;
  const rows: BenchRow[] = [];
  try {
    const shop = JSON.parse(await shopChild.ready) as ShopInfo;
    if (ONLY_PAGES) shop.paths = shop.paths.filter((p) => ONLY_PAGES.includes(p));

    // The reference serves the very bytes the shop sends.
    const identity = new Map<string, Buffer>();
    for (const p of shop.paths) {
      const page = await fetchRaw(shop.url + p);
      if (page.status !== 200) throw new Error(`${p} answered ${page.status}`);
      identity.set(p, page.body);
      mkdirSync(htmlDir, { recursive: true });
      writeFileSync(path.join(htmlDir, p === "/" ? "index.html" : `${p.slice(1)}.html`), page.body);
    }
    staticChild = child("static", { BENCH_STATIC_DIR: htmlDir });
    const staticUrl = await staticChild.ready;

    const pinned = pin(shopChild.process.pid!, 0) && pin(staticChild.process.pid!, 0) && pin(shop.pocketbasePid, 1) && pin(process.pid, 1);
    console.error(
      `public pages: ${pinned ? "web server and static server pinned to core 0, load and PocketBase to core 1" : "not pinned (taskset missing or 1 core)"}; ` +
        `${CONNECTIONS} connections, ${SECONDS} s per run, median of ${ROUNDS} alternating runs`,
    );

    for (const p of shop.paths) {
      const ours: Rate[] = [];
      const reference: Rate[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        reference.push(await rate(staticUrl + p, staticChild.process.pid!, round === 0));
        ours.push(await rate(shop.url + p, shopChild.process.pid!, round === 0));
      }
      const o = medianBy(ours);
      const s = medianBy(reference);
      const ratio = o.rps / s.rps;
      const failures = ours.reduce((n, r) => n + r.failures, 0) + reference.reduce((n, r) => n + r.failures, 0);
      rows.push({
        figure: `public page ${p}, req/s`,
        goal: `>= ${GOAL_RATIO} x static server`,
        measured: `${num(o.rps)}/s, p50 ${o.p50} ms (${num(ratio, 2)} x)${cpu(o)}${failures ? `, ${failures} failed` : ""}`,
        reference: `${num(s.rps)}/s, p50 ${s.p50} ms${cpu(s)} static`,
        pass: failures === 0 && ratio >= GOAL_RATIO,
        kind: "timing",
      });
    }

    // For the record: the home page against Node's http answering from memory, no files.
    if (shop.paths.includes("/")) {
      const memory: Rate[] = [];
      const ours: Rate[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        memory.push(await rate(`${staticUrl}/memory/`, staticChild.process.pid!, round === 0));
        ours.push(await rate(`${shop.url}/`, shopChild.process.pid!, false));
      }
      const o = medianBy(ours);
      const m = medianBy(memory);
      rows.push({
        figure: "public page /, req/s vs Node http from memory",
        goal: "(informative)",
        measured: `${num(o.rps)}/s (${num(o.rps / m.rps, 2)} x)${cpu(o)}`,
        reference: `${num(m.rps)}/s${cpu(m)} in-memory`,
        pass: null,
        kind: "timing",
      });
    }

    for (const p of shop.paths) {
      const [br, gzip, plain] = await Promise.all(["br", "gzip", "identity"].map((ae) => wireBytes(shop.url + p, ae)));
      // The reference served these very bytes.
      const same = plain === identity.get(p)!.length;
      const js = await jsSent(shop.url, identity.get(p)!.toString());
      rows.push({
        figure: `public page ${p}, bytes sent`,
        goal: "",
        measured:
          `HTML br ${num(br!)} / gzip ${num(gzip!)} / identity ${num(plain!)}${same ? "" : " (identity differs from the page!)"}; ` +
          `JS ${js.files} files, br ${num(js.br)} of ${num(js.raw)}`,
        reference: "",
        pass: null,
        kind: "stable",
      });
    }

    const seconds = await freshness(shop);
    rows.push({
      figure: "settings change to new public page (ETag)",
      goal: `<= ${FRESHNESS_GOAL_S} s`,
      measured: Number.isFinite(seconds) ? `${num(seconds, 2)} s` : `not within ${FRESHNESS_GOAL_S * 2} s`,
      reference: "",
      pass: seconds <= FRESHNESS_GOAL_S,
      kind: "timing",
    });
    return rows;
  } finally {
    unpin(process.pid);
    if (staticChild) await stop(staticChild.process);
    await stop(shopChild.process);
    rmSync(htmlDir, { recursive: true, force: true });
  }
}

export const publicPagesBench: BenchSection = { title: "Public pages (static-server speed)", run };

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const role = process.env["BENCH_PUBLIC_ROLE"];
  if (role === "shop") await runShop();
  else if (role === "static") runStatic();
  else console.log(formatTable(await publicPagesBench.run()));
}
