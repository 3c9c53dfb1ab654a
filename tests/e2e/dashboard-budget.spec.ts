// Size budget: no dashboard page loads more than 120 KB (gzip) of JavaScript, React
// included. Measured on the built files the browser actually requests for each page.
import { readFileSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { expect, test } from "@playwright/test";
import { createCustomer, signInAs } from "./support/customers.ts";

const BUDGET_BYTES = 120 * 1024;
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

test("every dashboard page loads at most 120 KB of JavaScript (gzip)", async ({ page }) => {
  const customer = await createCustomer();
  await signInAs(page, customer);
  const report: string[] = [];
  for (const pagePath of DASHBOARD_PAGES) {
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
    report.push(`${pagePath}: ${(gzip / 1024).toFixed(1)} KB gzip in ${scripts.size} files`);
    expect(gzip, `${pagePath} ships ${(gzip / 1024).toFixed(1)} KB gzip`).toBeLessThanOrEqual(BUDGET_BYTES);
  }
  test.info().annotations.push({ type: "sizes", description: report.join("; ") });
  console.log(report.join("\n"));
});
