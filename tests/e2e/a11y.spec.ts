// The accessibility sweep of the public pages (axe, WCAG 2.2 A and AA), their fit on a
// 360 px screen, and what JavaScript they load: none on the marketing pages, and no React
// on /login, /signup and /contact (their forms are server-rendered HTML with a small script).
import { readFileSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { expect, test, type Page } from "@playwright/test";
import { PUBLIC_PATHS } from "../../src/lib/server/page-cache.ts";
import { expectNoAxeViolations } from "./support/checks.ts";
import { open } from "./support/customers.ts";

// axe over a whole page takes seconds on a busy 2-core machine.
test.describe.configure({ timeout: 90_000 });

const PUBLIC_PAGES = [...PUBLIC_PATHS];

for (const path of PUBLIC_PAGES) {
  test(`${path} has no detectable accessibility violations`, async ({ page }) => {
    await page.goto(path);
    await expectNoAxeViolations(page);
  });
}

test("the sign-in page's other forms and messages have no violations", async ({ page }) => {
  await open(page, "/login");
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page.getByText("Password is required")).toBeVisible();
  await expectNoAxeViolations(page);
  await page.getByRole("button", { name: "No password yet? Email me a sign-in code" }).click();
  await expect(page.getByRole("button", { name: "Email me a sign-in code", exact: true })).toBeEnabled();
  await expectNoAxeViolations(page);
  await page.getByRole("button", { name: "Sign in with a password instead" }).click();
  await page.getByRole("button", { name: "Forgot your password?" }).click();
  await page.getByRole("button", { name: "Email me a reset link" }).click();
  await expect(page.getByText("Invalid email address")).toBeVisible();
  await expectNoAxeViolations(page);
});

test("the contact form's messages, its refusal banner and its sent screen have no violations", async ({ page }) => {
  await page.goto("/contact");
  const send = page.getByRole("button", { name: "Send Message" });
  await expect(send).toBeEnabled();
  await send.click();
  await expect(page.getByText("Message must be at least 20 characters")).toBeVisible();
  await expectNoAxeViolations(page);

  // Answered in the browser: no stored row, and no use of the contact rate limit.
  let status = 429;
  await page.route("**/api/collections/contact_messages/records*", (route) =>
    route.fulfill({
      status,
      contentType: "application/json",
      body: JSON.stringify(status === 429 ? { status, message: "Too Many Requests.", data: {} } : { id: "x" }),
    }),
  );
  await page.getByLabel("Name", { exact: true }).fill("Grace Hopper");
  await page.getByLabel("Email", { exact: true }).fill("grace@example.com");
  await page.getByLabel("Subject", { exact: true }).fill("Quick question");
  await page.getByLabel("Message", { exact: true }).fill("How fast can you deliver 100 proxies?");
  await send.click();
  await expect(page.getByRole("alert")).toHaveText("Too Many Requests.");
  await expectNoAxeViolations(page);

  status = 200;
  await send.click();
  await expect(page.getByRole("heading", { name: "Message Sent!" })).toBeFocused();
  await expectNoAxeViolations(page);
});

test("the sign-up page with its messages and the country list open has no violations", async ({ page }) => {
  await open(page, "/signup");
  await page.getByRole("button", { name: "Create Account" }).click();
  await expect(page.getByText("Please select your country")).toBeVisible();
  await expectNoAxeViolations(page);
  await page.getByLabel("Country").fill("an");
  await expect(page.getByRole("listbox")).toBeVisible();
  await page.getByLabel("Country").press("ArrowDown");
  await expectNoAxeViolations(page);
  await page.getByLabel("Country").fill("Atlantis");
  await expect(page.getByText("No countries found")).toBeVisible();
  await expectNoAxeViolations(page);
});

test("public pages fit a 360 px wide screen without horizontal scrolling", async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 800 });
  for (const path of PUBLIC_PAGES) {
    await page.goto(path);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, `${path} overflows by ${overflow}px`).toBeLessThanOrEqual(0);
  }
});

/** The script URLs a page requests (same origin), once the network is quiet. */
async function scriptsOf(page: Page, pagePath: string): Promise<string[]> {
  const scripts: string[] = [];
  const onRequest = (req: { resourceType(): string; url(): string }) => {
    if (req.resourceType() === "script") scripts.push(new URL(req.url()).pathname);
  };
  page.on("request", onRequest);
  await page.goto(pagePath);
  await page.waitForLoadState("networkidle");
  page.off("request", onRequest);
  return scripts;
}

test("marketing pages ship no JavaScript", async ({ page }) => {
  for (const path of ["/", "/use-cases", "/pricing", "/docs", "/program", "/terms", "/privacy"]) {
    expect(await scriptsOf(page, path), `${path} loads scripts`).toEqual([]);
  }
});

/** The gzip budget of each form page's JavaScript (every file it loads). */
const FORM_PAGE_BUDGETS = { "/login": 30 * 1024, "/signup": 30 * 1024, "/contact": 10 * 1024 } as const;

test("/login, /signup and /contact load no React and no more JavaScript than their budgets; /contact no PocketBase SDK", async ({
  page,
}) => {
  for (const [pagePath, budget] of Object.entries(FORM_PAGE_BUDGETS)) {
    const scripts = await scriptsOf(page, pagePath);
    expect(scripts.length, `${pagePath} loads its form script`).toBeGreaterThan(0);
    let gzip = 0;
    for (const url of scripts) {
      const code = readFileSync(path.join("dist", "client", url)).toString();
      expect(code, `${url} on ${pagePath} holds React`).not.toContain("react.dev/errors");
      // The SDK's client class names its own errors; the contact form posts with fetch.
      if (pagePath === "/contact") expect(code, `${url} on /contact holds the PocketBase SDK`).not.toContain("ClientResponseError");
      gzip += gzipSync(code).length;
    }
    expect(gzip, `${pagePath}: ${scripts.join(", ")}`).toBeLessThanOrEqual(budget);
    await expect(page.locator("astro-island")).toHaveCount(0);
  }
});
