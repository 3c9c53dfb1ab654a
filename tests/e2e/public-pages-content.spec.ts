// Each public page's own content: its key texts, figures, links and calls to action (home,
// use cases, pricing, docs, contact, programs, terms and privacy).
import { expect, test, type Page } from "@playwright/test";
import { superuserClient } from "./support/pocketbase.ts";
import { addStock } from "./support/customers.ts";
import { currentSettings } from "./support/site.ts";

/** A link's target, checked by name within a region. */
async function expectLink(page: Page, name: string | RegExp, href: string, within = page.locator("main")) {
  await expect(within.getByRole("link", { name, exact: typeof name === "string" }).first()).toHaveAttribute("href", href);
}

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
  // Coverage is the count of countries in stock (next test), never a fixed "100+" (issue #16).
  await expect(main.getByText("100+")).toHaveCount(0);
  await expect(main.getByText("<100ms").first()).toBeVisible();
  await expect(main.getByRole("link", { name: "Start Free Trial" }).last()).toHaveAttribute("href", "/signup");
  await expect(main.getByRole("link", { name: "Contact Sales" }).last()).toHaveAttribute("href", "/contact");
});

test("home page: the locations stat is the count of countries in stock, and follows it", async ({ page }) => {
  const su = await superuserClient();
  const countriesInStock = async () =>
    ((await (await page.request.get("/api/shop/stock-summary")).json()) as { countries: number }).countries;
  const firstStat = async () => {
    await page.goto("/");
    const stat = page.locator("main dl > div").first();
    return `${await stat.locator("dd").textContent()} ${await stat.locator("dt").textContent()}`;
  };
  const expected = (n: number) => (n === 0 ? "Worldwide locations" : `${n} ${n === 1 ? "country" : "countries"} in stock`);
  const ids = await addStock({ type: "DATACENTER", country: "NZ", count: 1 });
  try {
    // The minute job that announces a changed count, started now (PocketBase's cron route).
    await su.send("/api/crons/stock_summary", { method: "POST" });
    const n = await countriesInStock();
    expect(n).toBeGreaterThan(0);
    await expect.poll(firstStat, { timeout: 10_000 }).toBe(expected(n));
  } finally {
    for (const id of ids) await su.collection("proxies").delete(id);
  }
  await su.send("/api/crons/stock_summary", { method: "POST" });
  const after = await countriesInStock();
  await expect.poll(firstStat, { timeout: 10_000 }).toBe(expected(after));
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
  // Plan features name their facts and the page fills them (issue #28): the gateway's 24 hours.
  await expect(main.getByText("Sticky sessions up to 24 hours")).toBeVisible();
  await expect(main.getByText(/\{[a-z_]+\}/)).toHaveCount(0);
});

test("docs page: quick start, topic groups, the API in short, SDKs and support", async ({ page }) => {
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
  // The quick start calls the real API at the shop's own address; the purchase step is the
  // reference's own example (the OpenAPI document's).
  for (const call of ["POST /api/shop/signup", "GET /api/v1/account", "POST /api/v1/proxies/purchase"]) {
    await expect(main.getByText(call, { exact: true }).first()).toBeVisible();
  }
  await expect(main.getByText(/All API requests go to http:\/\/127\.0\.0\.1:\d+\/api\/v1\./)).toBeVisible();
  await expect(page.locator("#purchase-proxies")).toContainText('-H "Idempotency-Key: $(uuidgen)"');
  await expect(page.locator("#purchase-proxies")).toContainText(`curl -X POST "${new URL(page.url()).origin}/api/v1/proxies/purchase"`);
  await expect(main).not.toContainText("api.example.com");
  // The API section lists the document's operations, each linking to its block in the reference.
  const api = page.locator("#api");
  await expect(api.getByRole("link", { name: "GET /api/v1/proxies", exact: true })).toHaveAttribute("href", "/docs/api#op-listproxies");
  await expect(api.getByRole("link", { name: "Read the API reference" })).toHaveAttribute("href", "/docs/api");
  await expect(api.getByRole("link", { name: "Download the OpenAPI document" })).toHaveAttribute("href", "/api/v1/openapi.json");
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
