// Checks every page test shares: no detectable accessibility violations (axe, WCAG 2.2 A
// and AA) and no sideways scrolling at the current viewport.
import AxeBuilder from "@axe-core/playwright";
import { expect, type Page } from "@playwright/test";

/** WCAG 2.0, 2.1 and 2.2, levels A and AA (axe has no wcag22a rules of its own). */
export const WCAG22_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"];

/**
 * axe over the whole page, header and sidebar included; a failure lists rule, element and
 * the first check's message. `what` names the page or state in the failure.
 */
export async function expectNoAxeViolations(page: Page, what = page.url()): Promise<void> {
  const { violations } = await new AxeBuilder({ page }).withTags(WCAG22_AA).analyze();
  expect(
    violations.flatMap((v) =>
      v.nodes.map((n) => `${v.id}: ${n.target.join(" ")} (${(n.any[0] ?? n.all[0] ?? n.none[0])?.message ?? v.help})`),
    ),
    `axe violations on ${what}`,
  ).toEqual([]);
}

/** The page is no wider than the viewport; a failure names the elements that stick out. */
export async function expectNoHorizontalScroll(page: Page): Promise<void> {
  try {
    await expect
      .poll(() => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth), {
        message: "the page scrolls sideways",
      })
      .toBeLessThanOrEqual(0);
  } catch (err) {
    const offenders = await page.evaluate(() => {
      const width = document.documentElement.clientWidth;
      return [...document.querySelectorAll("body *")]
        .filter((el) => el.getBoundingClientRect().right > width + 0.5)
        .slice(-6)
        .map(
          (el) => `<${el.tagName.toLowerCase()} class="${el.getAttribute("class") ?? ""}"> ${(el.textContent ?? "").trim().slice(0, 60)}`,
        );
    });
    throw new Error(`${(err as Error).message}\nElements past the right edge:\n${offenders.join("\n")}`);
  }
}

/** A 360 px wide screen does not scroll sideways; the viewport is 1280 x 900 again afterwards. */
export async function checkNarrowScreen(page: Page): Promise<void> {
  await page.setViewportSize({ width: 360, height: 800 });
  await expectNoHorizontalScroll(page);
  await page.setViewportSize({ width: 1280, height: 900 });
}
