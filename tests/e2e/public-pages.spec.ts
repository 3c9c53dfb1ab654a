// Every public page's frame: the header, the footer, a title and a description on each,
// the mobile menu without JavaScript, the skip link, and an unknown path. What each page
// says is public-pages-content.spec.ts; plans and settings from PocketBase are
// public-pages-settings.spec.ts.
import { expect, test } from "@playwright/test";
import { superuserClient } from "./support/pocketbase.ts";
import { currentSettings } from "./support/site.ts";

const PAGES = ["/", "/use-cases", "/pricing", "/docs", "/contact", "/program", "/terms", "/privacy"];

const HEADER_LINKS = [
  ["Use Cases", "/use-cases"],
  ["Pricing", "/pricing"],
  ["Docs", "/docs"],
  ["Contact", "/contact"],
  ["Programs", "/program"],
  ["Sign In", "/login"],
  ["Get Started", "/signup"],
] as const;

test("every public page has the header, the footer, a title and a description", async ({ page }) => {
  const settings = await currentSettings(await superuserClient());
  await page.setViewportSize({ width: 1280, height: 900 });
  for (const path of PAGES) {
    await page.goto(path);
    await expect(page, path).toHaveTitle(new RegExp(`${settings.site_name}$`));
    await expect(page.locator('meta[name="description"]')).toHaveAttribute("content", /.{20,}/);
    await expect(page.locator("html")).toHaveAttribute("style", new RegExp(`--brand:${settings.primary_color}`));
    await expect(page.locator('link[rel="icon"]')).toHaveAttribute("href", "/favicon.svg");

    const header = page.getByRole("banner");
    await expect(header.getByRole("link", { name: settings.site_name })).toHaveAttribute("href", "/");
    const mainNav = header.getByRole("navigation", { name: "Main" });
    for (const [name, href] of HEADER_LINKS.slice(0, 5)) {
      await expect(mainNav.getByRole("link", { name, exact: true })).toHaveAttribute("href", href);
    }
    await expect(header.getByRole("link", { name: "Sign In", exact: true }).first()).toHaveAttribute("href", "/login");
    await expect(header.getByRole("link", { name: "Get Started", exact: true }).first()).toHaveAttribute("href", "/signup");

    const footer = page.getByRole("contentinfo");
    await expect(footer.getByRole("link", { name: "Privacy Policy" })).toHaveAttribute("href", "/privacy");
    await expect(footer.getByRole("link", { name: "Terms of Service" })).toHaveAttribute("href", "/terms");
    await expect(footer.getByRole("link", { name: settings.contact_email })).toHaveAttribute("href", `mailto:${settings.contact_email}`);
    await expect(footer.getByText(settings.contact_phone)).toBeVisible();
    await expect(footer.getByText(`© 2025 ${settings.site_name}. All rights reserved.`)).toBeVisible();
  }
});

test("the mobile menu opens without JavaScript and lists every header link", async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 360, height: 800 } });
  const page = await context.newPage();
  await page.goto("/");
  const header = page.getByRole("banner");
  await expect(header.getByRole("navigation", { name: "Main" })).toBeHidden();
  await header.getByText("Menu").click();
  const menu = header.getByRole("navigation", { name: "Mobile" });
  for (const [name, href] of HEADER_LINKS) {
    await expect(menu.getByRole("link", { name, exact: true })).toHaveAttribute("href", href);
  }
  await context.close();
});

test("keyboard users can skip to the main content", async ({ page }) => {
  await page.goto("/pricing");
  await page.keyboard.press("Tab");
  const skip = page.getByRole("link", { name: "Skip to main content" });
  await expect(skip).toBeFocused();
  await expect(skip).toBeVisible();
  await page.keyboard.press("Enter");
  await expect(page.locator("main")).toBeFocused();
});

test("an unknown path answers with a redirect to /", async ({ request }) => {
  const res = await request.get("/pricing/nope/nothing-here", { maxRedirects: 0 });
  expect(res.status()).toBe(302);
  expect(res.headers()["location"]).toBe("/");
});
