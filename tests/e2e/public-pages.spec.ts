// Every public page: its key texts, its links and calls to action, header and footer.
import { expect, test, type Page } from "@playwright/test";
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

/** A link's target, checked by name within a region. */
async function expectLink(page: Page, name: string | RegExp, href: string, within = page.locator("main")) {
  await expect(within.getByRole("link", { name, exact: typeof name === "string" }).first()).toHaveAttribute("href", href);
}

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

test("home page: hero, why choose, proxy types, plans and closing call to action", async ({ page }) => {
  const settings = await currentSettings(await superuserClient());
  await page.goto("/");
  const main = page.locator("main");
  await expect(main.getByRole("heading", { level: 1 })).toBeVisible();
  await expectLink(page, "Start Free Trial", "/signup");
  await expectLink(page, "View Pricing", "/pricing");
  await expect(main.getByRole("heading", { name: `Why Choose ${settings.site_name}?` })).toBeVisible();
  for (const card of ["Global Coverage", "99.9% Uptime", "Lightning Fast", "Enterprise Security"]) {
    await expect(main.getByRole("heading", { name: card, level: 3 })).toBeVisible();
  }
  for (const type of ["Residential Proxies", "Datacenter Proxies"]) {
    await expect(main.getByRole("heading", { name: type })).toBeVisible();
  }
  await expect(main.getByText("$5 in free credits").first()).toBeVisible();
  await expect(main.getByText("100+").first()).toBeVisible();
  await expect(main.getByText("<100ms").first()).toBeVisible();
  await expect(main.getByRole("link", { name: "Start Free Trial" }).last()).toHaveAttribute("href", "/signup");
  await expect(main.getByRole("link", { name: "Contact Sales" }).last()).toHaveAttribute("href", "/contact");
});

test("use cases page: six cards with feature lists and two calls to action", async ({ page }) => {
  await page.goto("/use-cases");
  const main = page.locator("main");
  const cases = [
    "E-commerce",
    "Social Media Management",
    "SEO Monitoring",
    "Market Research",
    "Brand Protection",
    "Web Scraping & Crawling",
  ];
  for (const name of cases) {
    const card = main.getByRole("article").filter({ has: page.getByRole("heading", { name, exact: true }) });
    await expect(card).toBeVisible();
    expect(await card.getByRole("listitem").count(), name).toBeGreaterThanOrEqual(3);
  }
  await expectLink(page, "Start Free Trial", "/signup");
  await expectLink(page, "Contact Sales", "/contact");
});

test("pricing page: four-question FAQ and a call to action", async ({ page }) => {
  await page.goto("/pricing");
  const main = page.locator("main");
  await expect(main.getByRole("heading", { name: "Frequently Asked Questions" })).toBeVisible();
  const faq = main.locator("details");
  await expect(faq).toHaveCount(4);
  await faq.first().locator("summary").click();
  await expect(faq.first().locator("p")).toBeVisible();
  await expect(main.getByText("7-day money-back guarantee").first()).toBeVisible();
  await expectLink(page, "Contact Sales", "/contact");
});

test("docs page: quick start, topic groups, API examples, SDKs and support", async ({ page }) => {
  const settings = await currentSettings(await superuserClient());
  await page.goto("/docs");
  const main = page.locator("main");
  await expect(main.getByRole("heading", { name: "Quick Start", level: 2 })).toBeVisible();
  for (const step of ["Create your account", "Get your API key", "Purchase proxies", "Use your proxies"]) {
    await expect(main.getByRole("heading", { name: step })).toBeVisible();
  }
  for (const group of ["Getting Started", "API Reference", "Proxy Types", "Security"]) {
    await expect(main.getByRole("navigation", { name: group })).toBeVisible();
  }
  for (const call of [
    "POST /auth/signup",
    "GET /auth/token",
    "POST /proxies/purchase",
    "GET /proxies",
    "GET /account/balance",
    "POST /proxies/{proxy_id}/rotate",
    "GET /transactions",
  ]) {
    await expect(main.getByText(call, { exact: true })).toBeVisible();
  }
  await expect(main.getByText(/limit=50&offset=0/)).toBeVisible();
  for (const sdk of ["Python", "Node.js", "Go"]) {
    await expect(main.getByRole("heading", { name: sdk, exact: true })).toBeVisible();
  }
  await expect(main.getByRole("link", { name: settings.contact_email })).toHaveAttribute("href", `mailto:${settings.contact_email}`);
  // Topic links go somewhere real: an anchor on this page or another page.
  for (const href of await main
    .getByRole("navigation")
    .getByRole("link")
    .evaluateAll((els) => els.map((a) => a.getAttribute("href")))) {
    if (href?.startsWith("#")) await expect(page.locator(href)).toHaveCount(1);
  }
});

test("contact page: e-mail, phone with hours, postal address from settings, form and FAQ", async ({ page }) => {
  const settings = await currentSettings(await superuserClient());
  await page.goto("/contact");
  const main = page.locator("main");
  await expect(main.getByRole("link", { name: settings.contact_email })).toHaveAttribute("href", `mailto:${settings.contact_email}`);
  await expect(main.getByRole("link", { name: settings.contact_phone })).toBeVisible();
  await expect(main.getByText("Monday-Friday 9 AM-6 PM EST").first()).toBeVisible();
  await expect(main.getByText(settings.contact_address)).toBeVisible();
  await expect(main.getByRole("button", { name: "Send Message" })).toBeVisible();
  await expect(main.getByText(/2-4 hours/).first()).toBeAttached();
  await expect(main.locator("details")).toHaveCount(4);
});

test("programs page: six programs with figures, Learn More, how to apply, Apply Now and Contact Us", async ({ page }) => {
  await page.goto("/program");
  const main = page.locator("main");
  for (const program of [
    "Reseller Program",
    "Referral Program",
    "Affiliate Program",
    "SDK Partner Program",
    "Technology Partners",
    "Academic Partnership",
  ]) {
    await expect(main.getByRole("heading", { name: program, level: 3 })).toBeVisible();
  }
  for (const figure of ["Up to 40% commission", "20% lifetime commission", "Up to 30% commission"]) {
    await expect(main.getByText(figure).first()).toBeVisible();
  }
  const learnMore = main.getByRole("link", { name: /^Learn More/ });
  await expect(learnMore).toHaveCount(6);
  for (const href of await learnMore.evaluateAll((els) => els.map((a) => a.getAttribute("href")))) {
    expect(href).toMatch(/^\/contact/);
  }
  await expect(main.getByRole("heading", { name: "How to Apply" })).toBeVisible();
  await expect(main.getByText(/2-3 business days/).first()).toBeVisible();
  await expect(main.getByRole("link", { name: "Apply Now" }).first()).toHaveAttribute("href", /^\/contact/);
  await expectLink(page, "Contact Us", "/contact");
});

test("Learn More preselects the partnership topic on the contact form", async ({ page }) => {
  await page.goto("/program");
  await page
    .getByRole("link", { name: /^Learn More/ })
    .first()
    .click();
  await expect(page).toHaveURL(/\/contact\?type=partnership/);
  await expect(page.getByLabel("Topic")).toHaveValue("partnership");
});

/** A phrase as a pattern that allows any whitespace (line breaks of the formatted source) between words. */
const phrase = (text: string): RegExp => new RegExp(text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace(/ /g, "\\s+"));

test("legal pages carry their dates and every figure of the policies", async ({ page }) => {
  await page.goto("/terms");
  let main = page.locator("main");
  await expect(main.getByRole("heading", { name: "Terms of Service", level: 1 })).toBeVisible();
  await expect(main.getByText("Last updated: January 13, 2025")).toBeVisible();
  for (const figure of [
    phrase("12 months from the date of purchase"),
    phrase("After 3 failed payments"),
    phrase("30 days' notice of any price change"),
    phrase("greater of the amounts you paid us in the 12 months before the claim or $100"),
    phrase("at least 18 years old"),
    phrase("at least 24 hours in advance"),
    phrase("7-day money-back guarantee"),
  ]) {
    await expect(main.getByText(figure).first()).toBeVisible();
  }

  await page.goto("/privacy");
  main = page.locator("main");
  await expect(main.getByRole("heading", { name: "Privacy Policy", level: 1 })).toBeVisible();
  await expect(main.getByText("Last updated: January 11, 2025")).toBeVisible();
  for (const figure of [
    phrase("within 72 hours"),
    phrase("privacy requests within 30 days"),
    "Connection logs: up to 30 days.",
    "Account data: for as long as your account exists, plus 7 years.",
    phrase("Payment records: 7 years"),
    "Support communications: 3 years.",
    "Security logs: 1 year.",
  ]) {
    await expect(main.getByText(figure).first()).toBeVisible();
  }
});

test("an unknown path answers with a redirect to /", async ({ request }) => {
  const res = await request.get("/pricing/nope/nothing-here", { maxRedirects: 0 });
  expect(res.status()).toBe(302);
  expect(res.headers()["location"]).toBe("/");
});

test.describe("plans and settings from PocketBase", () => {
  test("home shows the 3 cheapest active plans and pricing shows them all, popular ones with Most Popular", async ({ page }) => {
    const pb = await superuserClient();
    const made: string[] = [];
    const plan = (name: string, price_cents: number, popular: boolean) =>
      pb
        .collection("pricing_plans")
        .create({ name, type: "DATACENTER", price_cents, features: [`${name} feature`], popular, active: true })
        .then((r) => made.push(r.id));
    try {
      // Cheaper than anything a seed would carry, so these four are the cheapest.
      await plan("E2E Plan A", 1, false);
      await plan("E2E Plan B", 2, true);
      await plan("E2E Plan C", 3, false);
      await plan("E2E Plan D", 4, false);

      await expect(async () => {
        await page.goto("/pricing");
        await expect(page.getByText("E2E Plan D", { exact: true })).toBeVisible({ timeout: 500 });
      }).toPass({ timeout: 15_000 });
      const card = page.getByRole("article").filter({ has: page.getByRole("heading", { name: "E2E Plan B" }) });
      await expect(card.getByText("Most Popular")).toBeVisible();
      await expect(card.getByText("$0.02")).toBeVisible();
      await expect(card.getByText("E2E Plan B feature")).toBeVisible();
      await expect(card.getByRole("link", { name: /Get Started/ })).toHaveAttribute("href", "/signup");
      const plainCard = page.getByRole("article").filter({ has: page.getByRole("heading", { name: "E2E Plan A" }) });
      await expect(plainCard.getByText("Most Popular")).toHaveCount(0);

      await page.goto("/");
      const plans = page.locator("#plans");
      for (const name of ["E2E Plan A", "E2E Plan B", "E2E Plan C"]) {
        await expect(plans.getByRole("heading", { name, exact: true })).toBeVisible();
      }
      await expect(plans.getByText("E2E Plan D")).toHaveCount(0);
      await expect(plans.getByRole("article")).toHaveCount(3);
      await expect(plans.getByText("Most Popular")).toBeVisible();
    } finally {
      for (const id of made)
        await pb
          .collection("pricing_plans")
          .delete(id)
          .catch(() => {});
    }
  });

  test("with no active plan, pricing shows Pricing Plans Coming Soon with a link to /contact", async ({ page }) => {
    const pb = await superuserClient();
    const active = await pb.collection("pricing_plans").getFullList({ filter: "active = true" });
    try {
      for (const plan of active) await pb.collection("pricing_plans").update(plan.id, { active: false });
      await expect(async () => {
        await page.goto("/pricing");
        await expect(page.getByRole("heading", { name: "Pricing Plans Coming Soon" })).toBeVisible({ timeout: 500 });
      }).toPass({ timeout: 15_000 });
      const card = page.getByRole("article").filter({ has: page.getByRole("heading", { name: "Pricing Plans Coming Soon" }) });
      await expect(card.getByRole("link")).toHaveAttribute("href", "/contact");
    } finally {
      for (const plan of active) await pb.collection("pricing_plans").update(plan.id, { active: true });
    }
  });

  test("contact data and the primary colour changed in settings reach the public pages", async ({ page }) => {
    const pb = await superuserClient();
    const rows = await pb.collection("settings").getFullList({ filter: 'key = "contact_phone" || key = "primary_color"' });
    const phone = rows.find((r) => r["key"] === "contact_phone")!;
    const color = rows.find((r) => r["key"] === "primary_color")!;
    try {
      await pb.collection("settings").update(phone.id, { value: "+1 (555) 777-1234" });
      await pb.collection("settings").update(color.id, { value: "#7C3AED" });
      await expect(async () => {
        await page.goto("/");
        await expect(page.getByRole("contentinfo").getByText("+1 (555) 777-1234")).toBeVisible({ timeout: 500 });
      }).toPass({ timeout: 15_000 });
      await expect(page.locator("html")).toHaveAttribute("style", /--brand:#7C3AED/);
      await page.goto("/contact");
      await expect(page.locator("main").getByRole("link", { name: "+1 (555) 777-1234" })).toHaveAttribute("href", "tel:+15557771234");
    } finally {
      await pb.collection("settings").update(phone.id, { value: phone["value"] });
      await pb.collection("settings").update(color.id, { value: color["value"] });
    }
  });
});
