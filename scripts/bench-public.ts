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
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { pin, unpin } from "./bench/load.ts";
import {
  CONNECTIONS,
  cpu,
  fetchRaw,
  FRESHNESS_GOAL_S,
  freshness,
  jsSent,
  medianBy,
  rate,
  SECONDS,
  wireBytes,
  type Rate,
} from "./bench/public-measure.ts";
import { child, stop, type ShopInfo } from "./bench/public-servers.ts";
import { formatTable, num, type BenchRow, type BenchSection } from "./bench/table.ts";

const ROUNDS = Number(process.env["BENCH_ROUNDS"] ?? 3);
/** BENCH_PAGES=/,/pricing measures only those pages. */
const ONLY_PAGES = process.env["BENCH_PAGES"]?.split(",").filter(Boolean);
const GOAL_RATIO = 0.8;

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
  console.log(formatTable(await publicPagesBench.run()));
}
