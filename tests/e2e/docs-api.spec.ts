// The API reference (/docs/api, issue #18): made from the OpenAPI document with curl examples
// at the shop's address, and the page the problem details' `type` links to.
import { readFileSync } from "node:fs";
import { expect, test } from "@playwright/test";
import AxeBuilder from "@axe-core/playwright";
import { expectNoHorizontalScroll, WCAG22_AA } from "./support/checks.ts";
import { E2E } from "./support/env.ts";

// axe takes seconds on a busy 2-core machine.
test.describe.configure({ timeout: 90_000 });

const document = JSON.parse(readFileSync("pocketbase/pb_hooks/lib/api/openapi.json", "utf8")) as { paths: Record<string, object> };

test("the reference shows every operation with a curl example at the shop's address", async ({ page }) => {
  await page.goto("/docs/api");
  const reference = page.locator("#api-reference");
  await expect(reference.getByRole("heading", { name: "Authentication", level: 2 })).toBeVisible();
  await expect(reference.getByRole("link", { name: "Download the OpenAPI document" })).toHaveAttribute("href", "/api/v1/openapi.json");

  const calls = Object.entries(document.paths).flatMap(([path, item]) => Object.keys(item).map((m) => `${m.toUpperCase()} ${path}`));
  await expect(reference.getByTestId("operation-call")).toHaveCount(calls.length);
  expect((await reference.getByTestId("operation-call").allInnerTexts()).sort()).toEqual([...calls].sort());

  const purchase = reference.locator("article", { has: page.getByText("POST /api/v1/proxies/purchase", { exact: true }) });
  await expect(purchase).toHaveCount(1);
  await expect(purchase.locator("pre")).toContainText(`curl -X POST "${E2E.baseUrl}/api/v1/proxies/purchase"`);
  await expect(purchase.locator("pre")).toContainText('-H "Idempotency-Key: $(uuidgen)"');
  await expect(purchase.getByRole("table", { name: "Request body of POST /api/v1/proxies/purchase" })).toContainText("quantity");

  // Static HTML like the other marketing pages: no script, and accessible. axe over the
  // contents, the guides and one operation: every operation is the same components, and the
  // whole page (dozens of operations) would cost CI a minute.
  await expect(page.locator('script[src], script[type="module"]')).toHaveCount(0);
  let axe = new AxeBuilder({ page }).withTags(WCAG22_AA).include('nav[aria-label="API reference contents"]');
  for (const part of ["#authentication", "#errors", "#idempotency", "#rate-limits", "#paging", "#webhooks", "#op-purchaseproxies"]) {
    axe = axe.include(part);
  }
  const { violations } = await axe.analyze();
  expect(violations.flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.target.join(" ")}`))).toEqual([]);
  await page.setViewportSize({ width: 360, height: 800 });
  await expectNoHorizontalScroll(page);
});

test("a refusal's problem type opens its explanation in the reference", async ({ page, request }) => {
  const refused = await request.get("/api/v1/account", { headers: { Authorization: "Bearer psk_live_not-a-real-key" } });
  expect(refused.status()).toBe(401);
  const problem = (await refused.json()) as { type: string; code: string };
  expect(problem.type).toBe("/docs/api#problem-invalid-api-key");

  await page.goto(problem.type);
  await expect(page.locator("#problem-invalid-api-key")).toBeInViewport();
  await expect(page.locator("#problem-invalid-api-key")).toContainText("invalid_api_key");
  await expect(page.locator("#problem-insufficient-scope")).toContainText("403");

  const sitemap = await request.get("/sitemap.xml");
  expect(await sitemap.text()).toContain(`<loc>${E2E.baseUrl}/docs/api</loc>`);

  // /docs links into the reference, and every such link lands on something.
  await page.goto("/docs");
  const hrefs = await page
    .locator('main a[href^="/docs/api#"]')
    .evaluateAll((links) => [...new Set(links.map((a) => a.getAttribute("href")!))]);
  expect(hrefs.length).toBeGreaterThan(10);
  await page.goto("/docs/api");
  for (const href of hrefs) await expect(page.locator(href.slice("/docs/api".length)), href).toHaveCount(1);
});
