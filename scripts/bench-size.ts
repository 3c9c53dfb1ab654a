// `npm run bench -- --only size` (or `npx tsx scripts/bench-size.ts`): byte budgets, the
// "stable" rows of the benchmark table (the same build gives the same bytes, whatever the
// machine's load, so the CI short form may fail on them):
//   - the JavaScript each page loads in Chromium (gzip, React included; counted by
//     scripts/bench/page-js.ts): every public page as a visitor (marketing pages: none;
//     /login, /signup, /contact: 45 KB), every dashboard page as a customer (122 KB) and
//     every console page as an admin (200 KB);
//   - size-limit's budgets (.size-limit.json): the total of all island JavaScript, and
//     whether every per-island entry is within its own.
// Starts a shop on a throwaway data dir (the build must exist: ensureBuilt builds when
// dist/ is older than the sources).
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { chromium, type Browser, type BrowserContext } from "@playwright/test";
import PocketBase from "pocketbase";
import { ROOT } from "../server/pocketbase-process.ts";
import { startShop, type Shop } from "../server/shop.ts";
import { PUBLIC_PATHS } from "../src/lib/server/page-cache.ts";
import { createTestUser, freePort } from "../tests/support/pocketbase.ts";
import { ensureBuilt } from "./ensure-built.ts";
import { CONSOLE_PAGES, DASHBOARD_PAGES, kb, PAGE_JS_BUDGETS, publicPageBudget, shippedJs } from "./bench/page-js.ts";
import { isMain, runAlone } from "./bench/run.ts";
import type { BenchRow, BenchSection } from "./bench/table.ts";
import { sessionFor, signInContext, type BrowserSession } from "../tests/support/browser-session.ts";
import { CHROMIUM_LAUNCH } from "../tests/support/chromium.ts";

const SUPERUSER = { email: "superuser@bench.local", password: "Superuser#Bench2026" };

async function contextFor(browser: Browser, baseURL: string, session: BrowserSession | null): Promise<BrowserContext> {
  const context = await browser.newContext({ baseURL, viewport: { width: 1280, height: 900 } });
  if (session) await signInContext(context, baseURL, session);
  return context;
}

async function pageRows(
  context: BrowserContext,
  pages: readonly string[],
  budget: (p: string) => number,
  who: string,
): Promise<BenchRow[]> {
  const page = await context.newPage();
  const rows: BenchRow[] = [];
  try {
    for (const pagePath of pages) {
      const js = await shippedJs(page, pagePath);
      const landed = new URL(page.url());
      const wanted = new URL(pagePath, landed);
      // A guard that sent us elsewhere (sign-in, onboarding) would measure the wrong page.
      if (landed.pathname !== wanted.pathname) throw new Error(`${pagePath} as ${who} ended on ${landed.pathname}${landed.search}`);
      const limit = budget(pagePath);
      rows.push({
        figure: `JS loaded by ${pagePath} (${who}, gzip)`,
        goal: limit === 0 ? "none" : `<= ${kb(limit)}`,
        measured: js.files === 0 ? "none" : `${kb(js.gzip)} in ${js.files} files (${kb(js.raw)} raw)`,
        reference: "",
        pass: js.gzip <= limit,
        kind: "stable",
      });
    }
  } finally {
    await page.close();
  }
  return rows;
}

interface SizeLimitResult {
  name: string;
  passed: boolean;
  size: number;
  sizeLimit?: number;
}

/** size-limit's own judgement of .size-limit.json (its sizes are gzip bytes, limits in kB = 1,000 bytes). */
function sizeLimitRows(): BenchRow[] {
  let out: string;
  try {
    out = execFileSync(process.execPath, [path.join(ROOT, "node_modules", "size-limit", "bin.js"), "--json"], {
      cwd: ROOT,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
    });
  } catch (err) {
    // size-limit exits 1 when a budget is exceeded; its JSON is still on stdout.
    out = (err as { stdout?: string }).stdout ?? "";
    if (!out.trim().startsWith("[")) throw err;
  }
  const results = JSON.parse(out) as SizeLimitResult[];
  const kB = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`;
  const [total, ...islands] = results;
  if (!total) throw new Error("size-limit reported nothing");
  const over = islands.filter((r) => !r.passed);
  return [
    {
      figure: "all island JavaScript together (size-limit, gzip)",
      goal: total.sizeLimit ? `<= ${kB(total.sizeLimit)}` : "within .size-limit.json",
      measured: kB(total.size),
      reference: "",
      pass: total.passed,
      kind: "stable",
    },
    {
      figure: `size-limit per-island entries (${islands.length})`,
      goal: "each within its .size-limit.json limit",
      measured:
        over.length === 0
          ? `all ${islands.length} within`
          : `over: ${over.map((r) => `${r.name} ${kB(r.size)} > ${kB(r.sizeLimit ?? 0)}`).join("; ")}`,
      reference: "",
      pass: over.length === 0,
      kind: "stable",
    },
  ];
}

async function runSizeBench(log: (line: string) => void = (line) => console.log(line)): Promise<BenchRow[]> {
  ensureBuilt();
  const rows: BenchRow[] = [...sizeLimitRows()];
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "proxyshop-bench-size-"));
  let shop: Shop | undefined;
  let browser: Browser | undefined;
  try {
    shop = await startShop({
      webPort: await freePort(),
      pocketbasePort: await freePort(),
      dataDir,
      superuserEmail: SUPERUSER.email,
      superuserPassword: SUPERUSER.password,
      hooksEnv: { PAYMENTS_TEST_MODE: "true" },
    });
    const su = new PocketBase(shop.pocketbase.url);
    su.autoCancellation(false);
    await su.collection("_superusers").authWithPassword(SUPERUSER.email, SUPERUSER.password);
    // /console/register shows its form (and loads its island) only while registration is on.
    const registration = await su.collection("settings").getFirstListItem('key = "admin_registration_enabled"');
    await su.collection("settings").update(registration.id, { value: "true" });
    const customer = await createTestUser(su, { email: "customer@size.bench", first_name: "Cleo", onboarding_completed: true });
    const admin = await createTestUser(su, { email: "admin@size.bench", first_name: "Ada", is_admin: true, onboarding_completed: true });

    browser = await chromium.launch(CHROMIUM_LAUNCH);
    const visitor = await contextFor(browser, shop.url, null);
    rows.push(...(await pageRows(visitor, [...PUBLIC_PATHS], publicPageBudget, "visitor")));
    await visitor.close();
    log(`public pages measured`);
    const customerContext = await contextFor(browser, shop.url, await sessionFor(shop.url, customer.email, customer.password));
    rows.push(...(await pageRows(customerContext, DASHBOARD_PAGES, () => PAGE_JS_BUDGETS.dashboard, "customer")));
    await customerContext.close();
    log(`dashboard pages measured`);
    const adminContext = await contextFor(browser, shop.url, await sessionFor(shop.url, admin.email, admin.password));
    rows.push(...(await pageRows(adminContext, CONSOLE_PAGES, () => PAGE_JS_BUDGETS.console, "admin")));
    await adminContext.close();
    log(`console pages measured`);
  } finally {
    await browser?.close();
    await shop?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
  return rows;
}

export const sizeBench: BenchSection = {
  title: "Byte budgets (JavaScript per page as loaded, size-limit)",
  run: () => runSizeBench(),
};

if (isMain(import.meta.url)) await runAlone(sizeBench);
