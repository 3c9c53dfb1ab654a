// The accessibility sweep of the public pages (axe, WCAG 2.2 A and AA), their fit on a
// 360 px screen, and what JavaScript they load: none on the marketing pages, and no React
// on /login and /signup (their forms are server-rendered HTML with a small script).
import { readFileSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { expect, test, type Page } from "@playwright/test";
import { expectNoAxeViolations } from "./support/checks.ts";
import { open } from "./support/customers.ts";

// axe over a whole page takes seconds on a busy 2-core machine.
test.describe.configure({ timeout: 90_000 });

const PUBLIC_PAGES = ["/", "/use-cases", "/pricing", "/docs", "/contact", "/program", "/terms", "/privacy", "/login", "/signup"];

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

test("marketing pages ship no JavaScript; only the contact page hydrates an island", async ({ page }) => {
  for (const path of ["/", "/use-cases", "/pricing", "/docs", "/program", "/terms", "/privacy"]) {
    expect(await scriptsOf(page, path), `${path} loads scripts`).toEqual([]);
  }
});

test("/login and /signup load no React and at most 30 KB gzip of JavaScript", async ({ page }) => {
  for (const pagePath of ["/login", "/signup"]) {
    const scripts = await scriptsOf(page, pagePath);
    expect(scripts.length, `${pagePath} loads its form script`).toBeGreaterThan(0);
    let gzip = 0;
    for (const url of scripts) {
      const code = readFileSync(path.join("dist", "client", url));
      expect(code.toString(), `${url} on ${pagePath} holds React`).not.toContain("react.dev/errors");
      gzip += gzipSync(code).length;
    }
    expect(gzip, `${pagePath}: ${scripts.join(", ")}`).toBeLessThanOrEqual(30 * 1024);
    await expect(page.locator("astro-island")).toHaveCount(0);
  }
});
