// Size budgets, measured on the built files the browser actually requests for each page
// (React included): at most 120 KB gzip of JavaScript for a dashboard page, 200 KB for a
// console page.
import { readFileSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { expect, test, type Page } from "@playwright/test";
import { createAdmin, createCustomer, signInAs } from "./support/customers.ts";
import { superuserClient } from "./support/pocketbase.ts";

test.describe.configure({ timeout: 120_000 });

const KB = 1024;

const DASHBOARD_PAGES = [
  "/dashboard",
  "/dashboard/buy-credits",
  "/dashboard/buy-proxies",
  "/dashboard/proxies",
  "/dashboard/affiliate",
  "/dashboard/transactions",
  "/dashboard/support",
  "/dashboard/settings",
];

const CONSOLE_PAGES = [
  "/console",
  "/console/users",
  "/console/affiliates",
  "/console/pricing",
  "/console/proxies",
  "/console/support",
  "/console/analytics",
  "/console/logs",
  "/console/settings",
  "/console/messages",
  "/console/register?token=size-check",
];

/** The JavaScript (gzip bytes) the browser requests for `pagePath`, from the built files. */
async function shippedJs(page: Page, pagePath: string): Promise<{ gzip: number; files: number }> {
  const scripts = new Set<string>();
  const onRequest = (req: { resourceType(): string; url(): string }) => {
    if (req.resourceType() === "script") scripts.add(new URL(req.url()).pathname);
  };
  page.on("request", onRequest);
  await page.goto(pagePath);
  await page.waitForLoadState("networkidle");
  page.off("request", onRequest);
  expect(scripts.size, `${pagePath} loads its island`).toBeGreaterThan(0);
  let gzip = 0;
  for (const url of scripts) gzip += gzipSync(readFileSync(path.join("dist", "client", url))).length;
  return { gzip, files: scripts.size };
}

async function expectWithinBudget(page: Page, pages: string[], budget: number): Promise<void> {
  const report: string[] = [];
  for (const pagePath of pages) {
    const { gzip, files } = await shippedJs(page, pagePath);
    report.push(`${pagePath}: ${(gzip / KB).toFixed(1)} KB gzip in ${files} files`);
    expect(gzip, `${pagePath} ships ${(gzip / KB).toFixed(1)} KB gzip`).toBeLessThanOrEqual(budget);
  }
  test.info().annotations.push({ type: "sizes", description: report.join("; ") });
  console.log(report.join("\n"));
}

test("every dashboard page loads at most 120 KB of JavaScript (gzip)", async ({ page }) => {
  await signInAs(page, await createCustomer());
  await expectWithinBudget(page, DASHBOARD_PAGES, 120 * KB);
});

test("every console page loads at most 200 KB of JavaScript (gzip)", async ({ page }) => {
  const su = await superuserClient();
  // /console/register shows its form (and loads its island) only while registration is on.
  const registration = await su.collection("settings").getFirstListItem('key = "admin_registration_enabled"');
  await su.collection("settings").update(registration.id, { value: "true" });
  try {
    await signInAs(page, await createAdmin(), "/console");
    await expect(async () => {
      await page.goto("/console/register?token=size-check");
      await expect(page.getByText("This invitation link is not valid", { exact: false })).toBeVisible({ timeout: 1000 });
    }).toPass({ timeout: 15_000 });
    await expectWithinBudget(page, CONSOLE_PAGES, 200 * KB);
  } finally {
    await su.collection("settings").update(registration.id, { value: registration["value"] as string });
  }
});
