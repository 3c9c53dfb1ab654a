// The Content-Security-Policy and the session cookie in a real browser: every page type
// (public, sign-in, customer, console, error pages) loads and hydrates with no CSP
// violation, every inline script it carries is allowed by hash, and the session cookie is
// HttpOnly (page scripts never see it) through sign-in, sign-out and an ended session.
import { createHash } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test, type Page, type Response } from "@playwright/test";
import { CONSOLE_NAV, CUSTOMER_NAV } from "../../src/features/app-shell/nav.ts";
import { PUBLIC_PATHS } from "../../src/lib/server/page-cache.ts";
import { startWebServer } from "../../server/web-server.ts";
import { createAdmin, createCustomer, open, signInAs } from "./support/customers.ts";
import { superuserClient } from "./support/pocketbase.ts";

declare global {
  interface Window {
    __cspViolations?: string[];
  }
}

/** Records every CSP violation the page reports, from the first byte on. */
async function watchCsp(page: Page): Promise<string[]> {
  const console: string[] = [];
  page.on("console", (msg) => {
    if (/Content Security Policy|Refused to (execute|load|apply|connect|frame)/i.test(msg.text())) console.push(msg.text());
  });
  await page.addInitScript(() => {
    window.__cspViolations = [];
    document.addEventListener("securitypolicyviolation", (e) => {
      window.__cspViolations?.push(`${e.violatedDirective} blocked ${e.blockedURI || "inline"} at ${e.sourceFile}:${e.lineNumber}`);
    });
  });
  return console;
}

async function violations(page: Page, console: string[]): Promise<string[]> {
  const fromPage = await page.evaluate(() => window.__cspViolations ?? []);
  return [...fromPage, ...console];
}

/** Every inline <script> of an HTML answer is allowed by a hash in its own CSP header. */
async function expectInlineScriptsAllowed(response: Response | null, path: string): Promise<void> {
  expect(response, path).not.toBeNull();
  const csp = response!.headers()["content-security-policy"] ?? "";
  expect(csp, path).toContain("object-src 'none'");
  expect(csp, path).toContain("frame-ancestors 'none'");
  const scriptSrc = /script-src ([^;]*)/.exec(csp)?.[1] ?? "";
  expect(scriptSrc, path).not.toContain("'unsafe-inline'");
  const html = await response!.text();
  for (const match of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)) {
    const [, attrs = "", body = ""] = match;
    if (/\bsrc=/.test(attrs) || /type="application\/(ld\+)?json"/.test(attrs)) continue;
    const hash = `'sha256-${createHash("sha256").update(body, "utf8").digest("base64")}'`;
    expect(scriptSrc, `${path}: inline script ${body.slice(0, 60)}…`).toContain(hash);
  }
}

/** Opens `path`, waits for its islands, and expects no CSP trouble. */
async function expectCleanPage(page: Page, path: string, console: string[]): Promise<void> {
  const response = await page.goto(path);
  await expect(page.locator("astro-island[ssr]"), `${path} hydrates`).toHaveCount(0);
  await page.waitForLoadState("load");
  await expectInlineScriptsAllowed(response, path);
  expect(await violations(page, console), path).toEqual([]);
}

// Sweeps open many pages each.
test.describe.configure({ timeout: 180_000 });

test("public and sign-in pages load and hydrate with no CSP violation", async ({ page }) => {
  const console = await watchCsp(page);
  for (const path of [...PUBLIC_PATHS, "/reset-password", "/console/register?token=nope", "/no-such-page"]) {
    await expectCleanPage(page, path, console);
  }
});

test("customer pages load and hydrate with no CSP violation", async ({ page }) => {
  const console = await watchCsp(page);
  const fresh = await createCustomer({ onboarded: false });
  await signInAs(page, fresh, "/onboarding");
  expect(await violations(page, console)).toEqual([]);
  await page.context().clearCookies();

  const customer = await createCustomer({ balanceCents: 5000 });
  await signInAs(page, customer, "/dashboard");
  // Every page of the customer's sidebar.
  for (const path of CUSTOMER_NAV.map((item) => item.href)) {
    await expectCleanPage(page, path, console);
  }
});

test("console pages load and hydrate with no CSP violation", async ({ page }) => {
  const console = await watchCsp(page);
  const admin = await createAdmin();
  await signInAs(page, admin, "/console");
  // Every page of the console's sidebar.
  for (const path of CONSOLE_NAV.map((item) => item.href)) {
    await expectCleanPage(page, path, console);
  }
});

test("the session-unavailable page shows with no CSP violation", async ({ page }) => {
  // A web server in front of a stand-in backend that cannot confirm sessions (503).
  const backend = http.createServer((req, res) => {
    req.resume();
    res.writeHead(503, { "content-type": "application/json" }).end(JSON.stringify({ status: 503, message: "down", data: {} }));
  });
  await new Promise<void>((r) => backend.listen(0, "127.0.0.1", () => r()));
  // (This worker process hosts no other web server: the shop runs in the runner's process.)
  const web = await startWebServer({ port: 0, pocketbaseUrl: `http://127.0.0.1:${(backend.address() as AddressInfo).port}` });
  try {
    const payload = Buffer.from(JSON.stringify({ exp: Math.floor(Date.now() / 1000) + 3600, type: "auth" })).toString("base64url");
    await page.context().addCookies([{ name: "pb_auth", value: `x.${payload}.y`, url: web.url }]);
    const console = await watchCsp(page);
    const response = await page.goto(`${web.url}/dashboard`);
    expect(response?.status()).toBe(503);
    await expect(page.getByRole("heading", { name: "We could not load your account just now" })).toBeVisible();
    await expectInlineScriptsAllowed(response, "/session-unavailable");
    expect(await violations(page, console)).toEqual([]);
  } finally {
    await web.stop();
    backend.close();
  }
});

test("the session cookie is HttpOnly and SameSite=Lax, and sign-out clears it", async ({ page, context }) => {
  const customer = await createCustomer();
  await signInAs(page, customer, "/dashboard");
  const cookie = (await context.cookies()).find((c) => c.name === "pb_auth");
  expect(cookie).toMatchObject({ httpOnly: true, sameSite: "Lax", secure: false, path: "/" });
  // It lives as long as the token (users' tokens: 7 days), not as a browser-session cookie.
  expect(cookie!.expires * 1000).toBeGreaterThan(Date.now() + 6 * 24 * 3600 * 1000);
  expect(await page.evaluate(() => document.cookie)).not.toContain("pb_auth");
  // Page scripts cannot plant a session either: a cookie written by script is not the one the server set.
  await page.evaluate(() => (document.cookie = "pb_auth=forged; path=/"));
  expect((await context.cookies()).find((c) => c.name === "pb_auth")?.value).not.toBe("forged");

  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/login$/);
  expect((await context.cookies()).some((c) => c.name === "pb_auth")).toBe(false);
  await page.goto("/dashboard");
  await expect(page).toHaveURL(/\/login\?next=%2Fdashboard$/);
});

test("an ended session sends the visitor to sign in and its cookie is cleared", async ({ page, context }) => {
  const customer = await createCustomer();
  await signInAs(page, customer, "/dashboard");
  // A password change elsewhere revokes every token of the account.
  const su = await superuserClient();
  await su.collection("users").update(customer.id, { password: "Changed#2026pw", passwordConfirm: "Changed#2026pw" });
  await page.goto("/dashboard/settings");
  await expect(page).toHaveURL(/\/login\?next=%2Fdashboard%2Fsettings$/);
  await expect.poll(async () => (await context.cookies()).some((c) => c.name === "pb_auth")).toBe(false);
  await open(page, "/login");
  await expect(page.getByRole("button", { name: "Sign in", exact: true })).toBeVisible();
});
