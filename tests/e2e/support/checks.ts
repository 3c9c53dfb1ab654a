// Checks every page test shares: no detectable accessibility violations (axe, WCAG 2 A and
// AA) and no sideways scrolling at the current viewport.
import AxeBuilder from "@axe-core/playwright";
import { expect, type Page } from "@playwright/test";

/** axe over the whole page, header and sidebar included. */
export async function expectNoAxeViolations(page: Page): Promise<void> {
  const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa"]).analyze();
  expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
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
