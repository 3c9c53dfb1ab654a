// The JavaScript a page really loads, and its byte budgets: the size section of
// `npm run bench` (scripts/bench-size.ts), which `npm test` runs in its CI short form.
//
// "As loaded" means what Chromium requests as scripts while opening the page until the
// network is idle: entry modules, their static imports and the lazy chunks the page pulls
// at once. Each file is counted once per page, gzip-compressed at level 9 from the built
// file in dist/client (what a compressed transfer costs), React included.
import { readFileSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import type { Page } from "@playwright/test";
import { ROOT } from "../../server/pocketbase-process.ts";
import { CONSOLE_NAV, CUSTOMER_NAV } from "../../src/features/app-shell/nav.ts";

export const KB = 1024;

/** Every page of the customer dashboard (signed in as a customer): the sidebar's. */
export const DASHBOARD_PAGES: readonly string[] = CUSTOMER_NAV.map((item) => item.href);

/**
 * Every page of the console (signed in as an admin): the sidebar's, and /console/register,
 * which loads its island only while admin registration is on (turn the
 * admin_registration_enabled setting on).
 */
export const CONSOLE_PAGES: readonly string[] = [...CONSOLE_NAV.map((item) => item.href), "/console/register?token=size-check"];

/** Gzip budgets of the JavaScript a page loads. */
export const PAGE_JS_BUDGETS = {
  // 123 since #28 (120 until #27): the typed caller and its route stubs, then the card's
  // replacement and refund dialogs and its failure line, put /dashboard/proxies at 122.7 KB;
  // #32 (speed) is to take it back under 120.
  dashboard: 123 * KB,
  console: 200 * KB,
  /** Marketing pages ship no JavaScript at all. */
  marketing: 0,
  /**
   * Public pages with a form (/login, /signup, /contact): the 45 kB the sign-up page had in
   * .size-limit.json, now for everything the page loads (React alone is about 60 kB gzip:
   * a form page meets this without it).
   */
  publicForm: 45 * KB,
} as const;

/** The public pages with a form; every other public page is a marketing page. */
export const PUBLIC_FORM_PAGES: ReadonlySet<string> = new Set(["/login", "/signup", "/contact"]);

/** The budget of a public page (a path of src/lib/server/page-cache.ts PUBLIC_PATHS). */
export function publicPageBudget(pagePath: string): number {
  return PUBLIC_FORM_PAGES.has(pagePath) ? PAGE_JS_BUDGETS.publicForm : PAGE_JS_BUDGETS.marketing;
}

export interface PageJs {
  /** Gzip bytes of every script file the page loaded. */
  gzip: number;
  /** Uncompressed bytes. */
  raw: number;
  /** How many script files. */
  files: number;
  /** Their paths (/_astro/...). */
  urls: string[];
}

/** The sizes of built files under dist/client, each counted once. */
export function builtJsBytes(urls: Iterable<string>, root: string = ROOT): PageJs {
  const unique = [...new Set(urls)].sort();
  let gzip = 0;
  let raw = 0;
  for (const url of unique) {
    const code = readFileSync(path.join(root, "dist", "client", url));
    raw += code.length;
    gzip += gzipSync(code, { level: 9 }).length;
  }
  return { gzip, raw, files: unique.length, urls: unique };
}

/**
 * Opens `pagePath` in `page` and returns the JavaScript it loaded (same-origin scripts, by
 * path) once the network is idle. The page's session is whatever its context holds.
 */
export async function shippedJs(page: Page, pagePath: string, root: string = ROOT): Promise<PageJs> {
  const scripts = new Set<string>();
  // The shop loads no third-party script (its CSP allows none), so every script is a built file.
  const onRequest = (req: { resourceType(): string; url(): string }) => {
    if (req.resourceType() === "script") scripts.add(new URL(req.url()).pathname);
  };
  page.on("request", onRequest);
  try {
    await page.goto(pagePath);
    await page.waitForLoadState("networkidle");
  } finally {
    page.off("request", onRequest);
  }
  return builtJsBytes(scripts, root);
}

/** "97.4 KB" */
export const kb = (bytes: number): string => `${(bytes / KB).toFixed(1)} KB`;
