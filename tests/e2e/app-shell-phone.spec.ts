// Phones (issue #15): the bottom bar keeps the spec's first five items and adds "More", a
// sheet with the rest of the area's navigation, the admin/customer switch and Sign out,
// usable with the keyboard and announced as a dialog.
import { expect, test, type Page } from "@playwright/test";
import { createAdmin, createCustomer, signInAs } from "./support/customers.ts";
import { expectNoAxeViolations, expectNoHorizontalScroll } from "./support/checks.ts";

const PHONE = { width: 390, height: 844 };

const CUSTOMER_BAR = ["Overview", "Buy Credits", "Buy Proxies", "My Proxies", "Affiliate"];
const CUSTOMER_MORE = [
  ["Transactions", "/dashboard/transactions"],
  ["Support", "/dashboard/support"],
  ["Settings", "/dashboard/settings"],
] as const;
// Short labels: "User Management" broke mid-word in a sixth of a phone (issue #28, 19).
const CONSOLE_BAR = ["Overview", "Users", "Affiliates", "Pricing", "Proxies"];
const CONSOLE_MORE = [
  ["Support Tickets", "/console/support"],
  ["Analytics", "/console/analytics"],
  ["Audit Logs", "/console/logs"],
  ["System Settings", "/console/settings"],
  ["Contact Messages", "/console/messages"],
] as const;

test.use({ viewport: PHONE });

/** The bar holds exactly the five spec links, then the More button (closed). */
async function expectBar(page: Page, name: string, labels: string[]): Promise<void> {
  const bar = page.getByRole("navigation", { name });
  await expect(bar).toBeVisible();
  await expect(bar.getByRole("link")).toHaveText(labels);
  const more = bar.getByRole("button", { name: "More" });
  await expect(more).toBeVisible();
  await expect(more).toHaveText("More");
  await expect(more).toHaveAttribute("aria-haspopup", "dialog");
  await expect(more).toHaveAttribute("aria-expanded", "false");
  await expect(bar.getByRole("listitem")).toHaveCount(6);
  // Six to a row, each label fits its cell (no text spilling into the next item).
  const spill = await bar
    .locator("a, button")
    .evaluateAll((items) => items.filter((el) => el.scrollWidth > el.clientWidth).map((el) => el.textContent));
  expect(spill).toEqual([]);
  // No word breaks across lines ("User Managem / ent"): each word lies on one line box.
  const broken = await bar.locator("a, button").evaluateAll((items) =>
    items.flatMap((el) =>
      Array.from(el.childNodes)
        .filter((n) => n.nodeType === Node.TEXT_NODE)
        .flatMap((node) => {
          const text = node.textContent ?? "";
          const words: string[] = [];
          for (const match of text.matchAll(/\S+/g)) {
            const range = document.createRange();
            range.setStart(node, match.index);
            range.setEnd(node, match.index + match[0].length);
            const tops = new Set(Array.from(range.getClientRects()).map((r) => Math.round(r.top)));
            if (tops.size > 1) words.push(match[0]);
          }
          return words;
        }),
    ),
  );
  expect(broken).toEqual([]);
  await expectNoHorizontalScroll(page);
}

/** Opens the sheet from the bar's More button and returns it. */
async function openMore(page: Page, barName: string) {
  const more = page.getByRole("navigation", { name: barName }).getByRole("button", { name: "More" });
  await more.click();
  const sheet = page.getByRole("dialog", { name: "More" });
  await expect(sheet.getByRole("heading", { name: "More" })).toBeVisible();
  // The modal makes the page behind it inert, the bar with it: find the button with hidden ones.
  const hiddenMore = page
    .getByRole("navigation", { name: barName, includeHidden: true })
    .getByRole("button", { name: "More", includeHidden: true });
  await expect(hiddenMore).toHaveAttribute("aria-expanded", "true");
  return sheet;
}

/** The sheet's nav links, in order, with their targets. */
async function expectSheetLinks(page: Page, links: readonly (readonly [string, string])[]): Promise<void> {
  const nav = page.getByRole("dialog", { name: "More" }).getByRole("navigation");
  await expect(nav.getByRole("link")).toHaveText(links.map(([label]) => label));
  for (const [label, href] of links) {
    await expect(nav.getByRole("link", { name: label, exact: true })).toHaveAttribute("href", href);
  }
}

test("a customer's phone bar: five items and More, whose sheet reaches the rest and signs out", async ({ page }) => {
  const customer = await createCustomer();
  await signInAs(page, customer, "/dashboard");
  await expectBar(page, "Dashboard shortcuts", CUSTOMER_BAR);

  let sheet = await openMore(page, "Dashboard shortcuts");
  await expectSheetLinks(page, CUSTOMER_MORE);
  await expect(sheet.getByRole("link", { name: "Admin Console" })).toHaveCount(0);
  await expect(sheet.getByRole("button", { name: "Sign out", exact: true })).toBeVisible();
  await expectNoAxeViolations(page, "the More sheet");

  await sheet.getByRole("link", { name: "Transactions" }).click();
  await expect(page).toHaveURL(/\/dashboard\/transactions$/);
  await expect(page.getByRole("heading", { name: "Transaction History", level: 1 })).toBeVisible();
  await expect(page.locator("astro-island[ssr]")).toHaveCount(0);
  sheet = await openMore(page, "Dashboard shortcuts");
  await expect(sheet.getByRole("link", { name: "Transactions" })).toHaveAttribute("aria-current", "page");
  await expect(sheet.getByRole("link", { name: "Support" })).not.toHaveAttribute("aria-current", /./);

  await sheet.getByRole("link", { name: "Settings" }).click();
  await expect(page).toHaveURL(/\/dashboard\/settings$/);
  await expect(page.locator("astro-island[ssr]")).toHaveCount(0);

  sheet = await openMore(page, "Dashboard shortcuts");
  await sheet.getByRole("button", { name: "Sign out", exact: true }).click();
  await expect(page).toHaveURL(/\/login$/);
  await page.goto("/dashboard");
  await expect(page).toHaveURL(/\/login\?next=%2Fdashboard$/);
});

test("keyboard: Tab reaches More, Enter opens the sheet with focus inside, Escape closes it and returns focus", async ({ page }) => {
  const customer = await createCustomer();
  await signInAs(page, customer, "/dashboard");
  const bar = page.getByRole("navigation", { name: "Dashboard shortcuts" });
  const more = bar.getByRole("button", { name: "More" });

  await bar.getByRole("link", { name: "Affiliate" }).focus();
  await page.keyboard.press("Tab");
  await expect(more).toBeFocused();
  await page.keyboard.press("Enter");
  const sheet = page.getByRole("dialog", { name: "More" });
  await expect(sheet.getByRole("heading", { name: "More" })).toBeVisible();
  await expect(sheet).toHaveAttribute("aria-modal", "true");
  expect(await sheet.evaluate((el) => el.contains(document.activeElement))).toBe(true);
  await page.keyboard.press("Escape");
  await expect(sheet).toBeHidden();
  await expect(more).toBeFocused();
  await expect(more).toHaveAttribute("aria-expanded", "false");

  // The close button closes it too, and Tab stays inside while it is open.
  await page.keyboard.press("Enter");
  await expect(sheet.getByRole("heading", { name: "More" })).toBeVisible();
  for (let i = 0; i < 8; i++) {
    await page.keyboard.press("Tab");
    expect(await sheet.evaluate((el) => el.contains(document.activeElement))).toBe(true);
  }
  await sheet.getByRole("button", { name: "Close" }).click();
  await expect(sheet).toBeHidden();
  await expect(more).toBeFocused();
});

test("an admin's phone bars: the console's five and More with the rest, and the switch both ways", async ({ page }) => {
  const admin = await createAdmin();
  await signInAs(page, admin, "/console");
  await expectBar(page, "Console shortcuts", CONSOLE_BAR);

  let sheet = await openMore(page, "Console shortcuts");
  await expectSheetLinks(page, CONSOLE_MORE);
  await expect(sheet.getByRole("button", { name: "Sign out", exact: true })).toBeVisible();
  await expectNoAxeViolations(page, "the console's More sheet");

  await sheet.getByRole("link", { name: "Audit Logs" }).click();
  await expect(page).toHaveURL(/\/console\/logs$/);
  await expect(page.locator("astro-island[ssr]")).toHaveCount(0);
  sheet = await openMore(page, "Console shortcuts");
  await expect(sheet.getByRole("link", { name: "Audit Logs" })).toHaveAttribute("aria-current", "page");
  await sheet.getByRole("link", { name: "Contact Messages" }).click();
  await expect(page).toHaveURL(/\/console\/messages$/);
  await expect(page.locator("astro-island[ssr]")).toHaveCount(0);

  // From the console back to the customer dashboard, and from there to the console again.
  sheet = await openMore(page, "Console shortcuts");
  await sheet.getByRole("link", { name: "Back to Dashboard" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.locator("astro-island[ssr]")).toHaveCount(0);
  await expectBar(page, "Dashboard shortcuts", CUSTOMER_BAR);
  sheet = await openMore(page, "Dashboard shortcuts");
  await expectSheetLinks(page, CUSTOMER_MORE);
  await sheet.getByRole("link", { name: "Admin Console" }).click();
  await expect(page).toHaveURL(/\/console$/);
  await expect(page.locator("astro-island[ssr]")).toHaveCount(0);

  sheet = await openMore(page, "Console shortcuts");
  await sheet.getByRole("button", { name: "Sign out", exact: true }).click();
  await expect(page).toHaveURL(/\/login$/);
});
