// Stored XSS (issue #8): a chat message, a ticket subject, a customer's name, a contact
// message, a plan's name and feature, and each text setting hold HTML and script
// (`<img onerror>`, `<script>`, `"><svg onload>`, a `javascript:` logo URL). Every page
// that shows them (public pages, the customer's dashboard, the console) shows the literal
// text; no dialog opens, no injected element exists in the DOM, and no link built from
// data is a javascript: URL. The staff reply e-mail carries the text escaped.
import { expect, test, type Page } from "@playwright/test";
import PocketBase from "pocketbase";
import { createTestUser, type TestUser } from "../support/pocketbase.ts";
import { waitForMail } from "../support/smtp-sink.ts";
import { createAdmin, uniqueEmail, userClient } from "./support/customers.ts";
import { E2E } from "./support/env.ts";
import { mailbox } from "./support/mailbox.ts";
import { superuserClient } from "./support/pocketbase.ts";

/** Markup that runs script if rendered as HTML; every injected element carries data-xss. */
const IMG = `<img src=x data-xss onerror=alert('img')>`;
const SVG = `"><svg data-xss onload=alert('svg')>`;
const SCRIPT = `<script data-xss>alert('script')</script>`;
const ALL = `${IMG}${SVG}${SCRIPT}`;

const text = {
  firstName: `Ann${IMG}`.slice(0, 100),
  lastName: `Lee${SVG}`.slice(0, 100),
  subject: `Help ${ALL}`,
  message: `My proxy fails ${ALL} & <b>bold</b>`,
  planName: `Plan ${SVG}`,
  feature: `Feature ${IMG}${SCRIPT}`,
  contactName: `Vis${SVG}`,
  contactSubject: `Question ${IMG}`,
  contactMessage: `Please call me back ${ALL} thanks`,
  settings: {
    site_name: `Shop ${IMG}`,
    site_description: `Proxies ${ALL}`,
    default_support_name: `Agent ${SVG}`,
    contact_email: `"><img src=x data-xss onerror=alert('mail')>@example.com`,
    contact_phone: `+1 555 ${IMG}`,
    contact_address: `1 Main St ${ALL}`,
  } as Record<string, string>,
};

let su: PocketBase;
let customerUser: TestUser;
let adminUser: TestUser;
let ticketId = "";
let planId = "";
const originalSettings = new Map<string, { id: string; value: string }>();
const dialogs: string[] = [];

async function setSetting(key: string, value: string): Promise<void> {
  const row = await su.collection("settings").getFirstListItem(su.filter("key = {:key}", { key }));
  if (!originalSettings.has(key)) originalSettings.set(key, { id: row.id, value: row["value"] as string });
  await su.collection("settings").update(row.id, { value });
}

/** Opens `path` and waits until its islands have hydrated (slow machines get time). */
async function open(page: Page, path: string): Promise<void> {
  await page.goto(path);
  await expect(page.locator("astro-island[ssr]"), `${path}: islands hydrate`).toHaveCount(0, { timeout: 30_000 });
}

/** Signs in through /login (as signInAs in support/customers.ts, with time for a loaded machine). */
async function signInAs(page: Page, user: { email: string; password: string }, path: string): Promise<void> {
  await open(page, `/login?next=${encodeURIComponent(path)}`);
  await page.getByLabel("Email address").fill(user.email);
  await page.getByLabel("Password", { exact: true }).fill(user.password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`${path}$`), { timeout: 30_000 });
  await expect(page.locator("astro-island[ssr]")).toHaveCount(0, { timeout: 30_000 });
}

/** No injected element, no script ran, no javascript: link. */
async function expectInert(page: Page, where: string): Promise<void> {
  await expect(page.locator("astro-island[ssr]"), where).toHaveCount(0);
  await expect(page.locator("[data-xss]"), `${where}: injected elements`).toHaveCount(0);
  const jsLinks = await page.evaluate(() =>
    [...document.querySelectorAll("a[href], img[src], iframe[src], form[action]")]
      .map((el) => el.getAttribute("href") ?? el.getAttribute("action") ?? "")
      .filter((href) => /^\s*javascript:/i.test(href)),
  );
  expect(jsLinks, `${where}: javascript: links`).toEqual([]);
  expect(dialogs, `${where}: dialogs`).toEqual([]);
}

/** The literal text is on the page as text (first match visible). */
async function expectLiteral(page: Page, literal: string, where: string): Promise<void> {
  await expect(page.getByText(literal, { exact: false }).first(), `${where}: "${literal}" shown as text`).toBeVisible();
}

test.describe.configure({ mode: "serial" });
// Many pages per test, each checked after hydration.
test.setTimeout(240_000);

test.beforeAll(async () => {
  su = await superuserClient();
  adminUser = await createAdmin("Xavier");
  customerUser = await createTestUser(su, {
    email: uniqueEmail("xss"),
    password: "Customer#Xss2026",
    first_name: text.firstName,
    last_name: text.lastName,
    country: "Germany",
    onboarding_completed: true,
  });
  // The customer's own ticket and chat message, through the routes the dashboard uses.
  const customer = await userClient(customerUser);
  const opened = await customer.send<{ ticket: { id: string } }>("/api/v1/support/tickets", {
    method: "POST",
    body: { subject: text.subject, message: `First message ${ALL}`, priority: "high" },
  });
  ticketId = opened.ticket.id;
  await customer.collection("chat_messages").create({ ticket_id: ticketId, sender_id: customerUser.id, message: text.message });

  // An anonymous visitor's contact message: the classic route from the public site into the console.
  await new PocketBase(E2E.pocketbaseUrl).collection("contact_messages").create({
    name: text.contactName,
    email: "visitor@xss.test",
    subject: text.contactSubject,
    message: text.contactMessage,
    type: "general",
  });

  // The cheapest active plan, so the home page lists it too.
  const plan = await su.collection("pricing_plans").create({
    name: text.planName,
    type: "HTTP",
    price_cents: 1,
    features: [text.feature, "Plain feature"],
    popular: false,
    active: true,
  });
  planId = plan.id;
  for (const [key, value] of Object.entries(text.settings)) await setSetting(key, value);
});

test.afterAll(async () => {
  for (const { id, value } of originalSettings.values()) await su.collection("settings").update(id, { value });
  if (planId)
    await su
      .collection("pricing_plans")
      .delete(planId)
      .catch(() => {});
});

test.beforeEach(async ({ page }) => {
  dialogs.length = 0;
  page.on("dialog", async (dialog) => {
    dialogs.push(`${dialog.type()}: ${dialog.message()}`);
    await dialog.dismiss();
  });
});

test("public pages show settings, plan names and features as text", async ({ page, browser }) => {
  // Settings reach the cached public pages within 15 seconds.
  await expect(async () => {
    await page.goto("/");
    await expect(page.getByText(text.settings.site_name!).first()).toBeVisible({ timeout: 500 });
  }).toPass({ timeout: 20_000 });

  for (const path of ["/", "/pricing", "/contact", "/docs", "/use-cases", "/program", "/terms", "/privacy", "/login", "/signup"]) {
    await open(page, path);
    await expectInert(page, path);
    await expectLiteral(page, text.settings.site_name!, path);
    expect(await page.title(), `${path} title`).not.toContain("<img src=x data-xss onerror=alert('img')>x");
  }
  await open(page, "/");
  await expectLiteral(page, text.settings.site_description!, "/ description");
  await open(page, "/pricing");
  await expectLiteral(page, text.planName, "/pricing plan name");
  await expectLiteral(page, text.feature, "/pricing feature");
  await open(page, "/contact");
  for (const key of ["contact_phone", "contact_address"]) await expectLiteral(page, text.settings[key]!, `/contact ${key}`);
  await expectLiteral(page, text.settings.contact_email!, "/contact contact_email");
  // mailto: and tel: links keep their scheme; nothing became a script URL.
  const hrefs = await page.locator("a[href^='mailto:'], a[href^='tel:']").evaluateAll((els) => els.map((el) => el.getAttribute("href")));
  expect(hrefs.length).toBeGreaterThan(0);
  await expectInert(page, "/contact links");

  // Without JavaScript the contact form's note offers the e-mail setting: as text, in a mailto: link.
  const noScript = await browser.newContext({ baseURL: E2E.baseUrl, javaScriptEnabled: false });
  try {
    const plain = await noScript.newPage();
    await plain.goto("/contact");
    const form = plain.locator("form#contact-message-form");
    // (Playwright's text search skips <noscript>; without JavaScript its content is real markup.)
    const note = form.locator("noscript p");
    await expect(note).toContainText(`This form needs JavaScript. You can also e-mail us at ${text.settings.contact_email!}.`);
    await expect(note.getByRole("link")).toHaveAttribute("href", `mailto:${text.settings.contact_email!}`);
    await expect(plain.locator("[data-xss]"), "/contact without JavaScript: injected elements").toHaveCount(0);
  } finally {
    await noScript.close();
  }
});

test("the customer's pages show their name, ticket subject and messages as text", async ({ page }) => {
  await signInAs(page, customerUser, "/dashboard");
  await expectInert(page, "/dashboard");
  for (const path of ["/dashboard", "/dashboard/settings", "/dashboard/buy-proxies", "/dashboard/transactions", "/dashboard/affiliate"]) {
    await open(page, path);
    await expectInert(page, path);
  }
  await open(page, "/dashboard");
  await expectLiteral(page, text.firstName, "/dashboard name");

  await open(page, `/dashboard/support?ticket=${ticketId}`);
  await expectInert(page, "/dashboard/support");
  await expectLiteral(page, text.subject, "/dashboard/support subject");
  await expectLiteral(page, text.message, "/dashboard/support message");
  await expectInert(page, "/dashboard/support ticket");
});

test("the console shows customers' names, tickets, messages, contact messages, plans and settings as text", async ({ page }) => {
  await signInAs(page, adminUser, "/console");
  await expectInert(page, "/console");

  await open(page, `/console/users?search=${encodeURIComponent(customerUser.email)}`);
  await expectInert(page, "/console/users");
  await expectLiteral(page, customerUser.email, "/console/users row");
  await expectLiteral(page, text.firstName, "/console/users name");

  // The two inboxes: the subject in the list, then the message once opened.
  for (const [path, subject, message, opened] of [
    ["/console/support", text.subject, text.message, "/console/support ticket"],
    ["/console/messages", text.contactSubject, text.contactMessage, "/console/messages open"],
  ] as const) {
    await open(page, path);
    await expectInert(page, path);
    await expectLiteral(page, subject, `${path} subject`);
    await page.getByText(subject).first().click();
    await expectLiteral(page, message, `${path} message`);
    await expectInert(page, opened);
  }

  await open(page, "/console/pricing");
  await expectInert(page, "/console/pricing");
  await expectLiteral(page, text.planName, "/console/pricing plan");
  await expectLiteral(page, text.feature, "/console/pricing feature");

  for (const path of ["/console/settings", "/console/analytics", "/console/logs", "/console/affiliates", "/console/proxies"]) {
    await open(page, path);
    await expectInert(page, path);
  }
  await open(page, "/console/settings");
  await expect(page.locator("#site_name")).toHaveValue(text.settings.site_name!);
});

test("a javascript: logo URL runs nothing on any page", async ({ page }) => {
  await setSetting("logo_url", "javascript:alert('logo')");
  await expect(async () => {
    await page.goto("/");
    await expect(page.locator("header img").first()).toBeVisible({ timeout: 500 });
  }).toPass({ timeout: 20_000 });
  for (const path of ["/", "/pricing", "/contact", "/login"]) {
    await open(page, path);
    await expectInert(page, path);
  }
  await signInAs(page, customerUser, "/dashboard");
  await expectInert(page, "/dashboard with a logo URL");
});

test("the staff reply e-mail carries the ticket's subject and the reply escaped", async () => {
  const after = Date.now() - 1000;
  const admin = await userClient(adminUser);
  await admin.collection("chat_messages").create({ ticket_id: ticketId, sender_id: adminUser.id, message: `Reply ${ALL}` });
  const mail = await waitForMail(mailbox(), customerUser.email, /New reply to your ticket/, { after });
  expect(mail.html).not.toMatch(/<(img|svg|script)\b/i);
  expect(mail.html).toContain("&lt;script data-xss&gt;");
  expect(mail.html).toContain("&lt;img src=x data-xss onerror=alert(&#39;img&#39;)&gt;");
});
