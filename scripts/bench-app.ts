// `npm run bench:app`: how soon the signed-in app pages show their data (issue #8, "App
// pages"). Starts a shop on a temporary data dir (a customer with a balance, ledger rows
// and proxies; an admin), drives Debian's Chromium at 4x CPU throttling, and measures from
// navigation start until the page's data is on screen: the later of the moment the data
// is in the DOM (checked every animation frame) and the first contentful paint. Median of
// 5 runs per page (after one warm-up that fills the browser cache, as for a returning
// visitor). Reference, same run, same throttle: a public page's time to its content.
// Goal: /dashboard and /console within 1.0 s.
//
// Runs alone (`npm run bench:app`) or as the `appPagesBench` section of `npm run bench`.
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { chromium, type Browser, type BrowserContext } from "@playwright/test";
import PocketBase from "pocketbase";
import { startShop } from "../server/shop.ts";
import { createTestUser, freePort } from "../tests/support/pocketbase.ts";
import { formatTable, num, type BenchRow, type BenchSection } from "./bench/table.ts";
import { sessionFor, signInContext, type BrowserSession } from "../tests/support/browser-session.ts";
import { CHROMIUM_LAUNCH } from "../tests/support/chromium.ts";

const RUNS = Number(process.env["BENCH_APP_RUNS"] ?? 5);
const CPU_THROTTLE = 4;
const GOAL_MS = 1000;
const SUPERUSER = { email: "superuser@bench.local", password: "Superuser#Bench2026" };

/** A page to time and the test, run in the page, that its data is on screen. */
interface Target {
  path: string;
  session: BrowserSession | null;
  /** Source of a browser-side function answering true once the data is in the DOM. */
  ready: string;
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

/** Customer with balance, ledger rows and proxies, and an admin, on a fresh shop. */
async function arrange(pocketbaseUrl: string): Promise<{ customer: BrowserSession; admin: BrowserSession }> {
  const su = new PocketBase(pocketbaseUrl);
  su.autoCancellation(false);
  await su.collection("_superusers").authWithPassword(SUPERUSER.email, SUPERUSER.password);
  const adminUser = await createTestUser(su, {
    email: "admin@bench.local",
    password: "Admin#Bench2026",
    first_name: "Ada",
    last_name: "Admin",
    is_admin: true,
    onboarding_completed: true,
  });
  const customerUser = await createTestUser(su, {
    email: "customer@bench.local",
    password: "Customer#Bench2026",
    first_name: "Cleo",
    last_name: "Customer",
    country: "Germany",
    onboarding_completed: true,
  });
  const admin = await sessionFor(pocketbaseUrl, adminUser.email, adminUser.password);
  const adminPb = new PocketBase(pocketbaseUrl);
  adminPb.authStore.save(admin.token, null);
  const adjust = (cents: number, description: string) =>
    adminPb.send(`/api/admin/users/${customerUser.id}/balance`, {
      method: "POST",
      headers: { "Idempotency-Key": randomUUID() },
      body: { transaction_type: cents >= 0 ? "CREDIT" : "DEBIT", amount_cents: Math.abs(cents), description },
    });
  await adjust(50_000, "Bench opening credit");
  for (let i = 0; i < 6; i++) await adjust(-(150 + i), `Bench manual debit ${i + 1}`);
  for (let i = 0; i < 8; i++) {
    await su.collection("proxies").create({
      host: `bench-${i}.proxy.test`,
      port: 10_000 + i,
      username: `bench${i}`,
      password: `Bench-secret-${i}`,
      type: "RESIDENTIAL",
      country: "US",
      status: "AVAILABLE",
    });
  }
  const customer = await sessionFor(pocketbaseUrl, customerUser.email, customerUser.password);
  const customerPb = new PocketBase(pocketbaseUrl);
  customerPb.authStore.save(customer.token, null);
  await customerPb.send("/api/v1/proxies/purchase", {
    method: "POST",
    headers: { "Idempotency-Key": randomUUID() },
    body: { type: "RESIDENTIAL", country: "US", state: "", city: "", quantity: 5 },
  });
  return { customer, admin };
}

/** One page load, in milliseconds from navigation start. */
interface Timing {
  /** The data on screen: the later of "in the DOM" and the first contentful paint. */
  data: number;
  /** The first byte of the HTML (the server's share: session check, first data, render). */
  firstByte: number;
  /** First contentful paint. */
  paint: number;
  /** Every island hydrated (the page answers clicks). */
  hydrated: number;
}

/**
 * Installed before the page's own scripts: notes (performance.now()) the first moment the
 * data is in the DOM and the first moment every island has hydrated, from DOM mutations,
 * so the notes are exact even while the main thread is busy (a poll would run late).
 */
function observer(ready: string): string {
  return `(() => {
    const ready = ${ready};
    const marks = (window.__benchApp = {});
    const check = () => {
      if (marks.data === undefined && ready()) marks.data = performance.now();
      if (marks.hydrated === undefined && document.readyState !== "loading" && !document.querySelector("astro-island[ssr]"))
        marks.hydrated = performance.now();
      if (marks.data !== undefined && marks.hydrated !== undefined) watcher.disconnect();
    };
    const watcher = new MutationObserver(check);
    watcher.observe(document, { childList: true, subtree: true, characterData: true, attributes: true });
    document.addEventListener("DOMContentLoaded", check);
  })();`;
}

/** One load in a new tab of the target's context (its HTTP cache is warm, as for a returning visitor). */
async function timeOnce(context: BrowserContext, target: Target): Promise<Timing> {
  const page = await context.newPage();
  try {
    const cdp = await context.newCDPSession(page);
    await cdp.send("Emulation.setCPUThrottlingRate", { rate: CPU_THROTTLE });
    await page.goto(target.path, { waitUntil: "commit" });
    const done = await page.waitForFunction(
      () => {
        const marks = (window as unknown as { __benchApp?: { data?: number; hydrated?: number } }).__benchApp;
        const paint = performance.getEntriesByName("first-contentful-paint")[0]?.startTime;
        const nav = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming | undefined;
        return marks?.data !== undefined && marks.hydrated !== undefined && paint !== undefined && nav
          ? { data: marks.data, hydrated: marks.hydrated, paint, firstByte: nav.responseStart }
          : false;
      },
      undefined,
      { polling: 100, timeout: 30_000 },
    );
    const marks = (await done.jsonValue()) as { data: number; hydrated: number; paint: number; firstByte: number };
    // On screen: in the DOM and painted (a paint before the data came is not the data's).
    return { data: Math.max(marks.data, marks.paint), firstByte: marks.firstByte, paint: marks.paint, hydrated: marks.hydrated };
  } finally {
    await page.close();
  }
}

/** The median of each figure over RUNS runs, after one warm-up (server caches, browser cache). */
async function timeMedian(browser: Browser, baseUrl: string, target: Target): Promise<Timing> {
  const context = await browser.newContext({ baseURL: baseUrl, viewport: { width: 1280, height: 900 } });
  try {
    if (target.session) {
      await signInContext(context, baseUrl, target.session);
    }
    await context.addInitScript(observer(target.ready));
    await timeOnce(context, target);
    const runs: Timing[] = [];
    for (let i = 0; i < RUNS; i++) runs.push(await timeOnce(context, target));
    const of = (key: keyof Timing) => median(runs.map((r) => r[key]));
    progress(`${target.path}: data ${ms(of("data"))} (runs ${runs.map((r) => Math.round(r.data)).join(", ")})`);
    return { data: of("data"), firstByte: of("firstByte"), paint: of("paint"), hydrated: of("hydrated") };
  } finally {
    await context.close();
  }
}

const started = performance.now();
function progress(text: string): void {
  process.stderr.write(`[bench:app +${((performance.now() - started) / 1000).toFixed(0)} s] ${text}\n`);
}

function ms(value: number): string {
  return `${num(value)} ms`;
}

/** Where the time went, for the table. */
function breakdown(t: Timing): string {
  return `first byte ${ms(t.firstByte)}, paint ${ms(t.paint)}`;
}

async function run(): Promise<BenchRow[]> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "proxyshop-bench-app-"));
  const shop = await startShop({
    webPort: await freePort(),
    pocketbasePort: await freePort(),
    dataDir,
    superuserEmail: SUPERUSER.email,
    superuserPassword: SUPERUSER.password,
    hooksEnv: { SHOP_DEMO_SEED: "false", SHOP_RATE_LIMIT_SCALE: "100", PAYMENTS_TEST_MODE: "true" },
  });
  let browser: Browser | null = null;
  try {
    progress("shop started");
    const { customer, admin } = await arrange(shop.pocketbase.url);
    progress("customer and admin arranged");
    browser = await chromium.launch(CHROMIUM_LAUNCH);

    const reference = await timeMedian(browser, shop.url, {
      path: "/pricing",
      session: null,
      ready: `() => !!document.querySelector("h1")`,
    });
    const targets: Array<[string, Target]> = [
      [
        "/dashboard (customer): balance and recent rows",
        {
          path: "/dashboard",
          session: customer,
          ready: `() => /\\$\\d/.test(document.querySelector('[data-testid="overview-balance"]')?.textContent ?? "")
            && document.querySelectorAll('[data-testid="overview-transaction"]').length > 0`,
        },
      ],
      [
        "/console (admin): figures and recent rows",
        {
          path: "/console",
          session: admin,
          ready: `() => /\\d/.test(document.querySelector('[data-testid="overview-total-users"]')?.textContent ?? "")
            && document.querySelectorAll('[data-testid="recent-transaction"]').length > 0`,
        },
      ],
    ];
    const refText = `public /pricing to its content: ${ms(reference.data)} (${breakdown(reference)})`;
    const rows: BenchRow[] = [];
    for (const [figure, target] of targets) {
      const result = await timeMedian(browser, shop.url, target);
      rows.push({
        figure: `${figure}, median of ${RUNS}, CPU ${CPU_THROTTLE}x`,
        goal: `< ${num(GOAL_MS)} ms`,
        measured: `${ms(result.data)} (${(result.data / reference.data).toFixed(2)} x reference; ${breakdown(result)})`,
        reference: refText,
        pass: result.data < GOAL_MS,
        kind: "timing",
      });
      rows.push({
        figure: `${target.path}: hydrated (interactive), median of ${RUNS}, CPU ${CPU_THROTTLE}x`,
        goal: "",
        measured: ms(result.hydrated),
        reference: `public /pricing hydrated: ${ms(reference.hydrated)}`,
        pass: null,
        kind: "timing",
      });
    }
    return rows;
  } finally {
    await browser?.close();
    await shop.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export const appPagesBench: BenchSection = {
  title: `App pages: data on screen at ${CPU_THROTTLE}x CPU throttling`,
  run,
};

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const rows = await appPagesBench.run();
  console.log(`${appPagesBench.title}\n`);
  console.log(formatTable(rows));
}
