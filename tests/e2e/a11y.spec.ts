import AxeBuilder from "@axe-core/playwright";
import { expect, test } from "@playwright/test";

const PUBLIC_PAGES = ["/", "/use-cases", "/pricing", "/docs", "/contact", "/program", "/terms", "/privacy", "/login", "/signup"];

for (const path of PUBLIC_PAGES) {
  test(`${path} has no detectable accessibility violations`, async ({ page }) => {
    await page.goto(path);
    const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa"]).analyze();
    expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
  });
}

test("public pages fit a 360 px wide screen without horizontal scrolling", async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 800 });
  for (const path of PUBLIC_PAGES) {
    await page.goto(path);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, `${path} overflows by ${overflow}px`).toBeLessThanOrEqual(0);
  }
});

test("marketing pages ship no JavaScript; only the contact, sign-in and sign-up pages hydrate islands", async ({ page }) => {
  for (const path of ["/", "/use-cases", "/pricing", "/docs", "/program", "/terms", "/privacy"]) {
    const scripts: string[] = [];
    page.on("request", (req) => {
      if (req.resourceType() === "script") scripts.push(req.url());
    });
    await page.goto(path);
    await page.waitForLoadState("networkidle");
    expect(scripts, `${path} loads scripts`).toEqual([]);
    page.removeAllListeners("request");
  }
});
