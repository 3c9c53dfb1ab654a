// No hydration mismatch and no console error on any signed-in page (issue #15: "React error
// #418 shows in the browser console on almost every dashboard and console page"), in two time
// zones and two locales other than the server's: every /dashboard page as a customer with data
// (balance, ledger rows, proxies, a ticket), every /console page as an admin (users, audit
// rows, tickets, a contact message). One browser context per person and zone/locale pair,
// signed in without the form.
import { expect, test, type Browser } from "@playwright/test";
import { CONSOLE_NAV, CUSTOMER_NAV } from "../../src/features/app-shell/nav.ts";
import { signInContext, type BrowserSession } from "../support/browser-session.ts";
import { adjustBalance, createAdmin, createCustomer } from "./support/customers.ts";
import { E2E } from "./support/env.ts";
import { sessionOf } from "./support/first-data.ts";
import { buyProxies } from "./support/my-proxies.ts";
import { superuserClient } from "./support/pocketbase.ts";
import { openTicket } from "./support/support-tickets.ts";
import { tag } from "./support/unique.ts";

/** Zones and locales far from the server's (UTC, en): dates and numbers would differ. */
const VIEWERS = [
  { timezoneId: "America/Los_Angeles", locale: "en-US" },
  { timezoneId: "Asia/Kolkata", locale: "de-DE" },
] as const;

let customer: BrowserSession;
let admin: BrowserSession;

test.beforeAll(async () => {
  const t = tag();
  const user = await createCustomer({ firstName: "Hana", balanceCents: 50_000 });
  await adjustBalance(user.id, -1_234, `Manual debit ${t}`);
  await buyProxies(user, { type: "DATACENTER", country: "DE", state: `Hessen ${t}`, count: 2 });
  await openTicket(user, `Hydration check ${t}`, "A ticket so the support pages list one with its dates.");
  const su = await superuserClient();
  await su.collection("contact_messages").create({
    name: "Hydra Visitor",
    email: `hydra-${t}@example.com`,
    subject: `Volume pricing ${t}`,
    message: "A contact message so the console's inbox lists one with its date.",
    type: "general",
  });
  customer = await sessionOf(user);
  admin = await sessionOf(await createAdmin("Hugo"));
});

/** Opens each page in one context of the viewer's zone and locale; returns every console error, warning and page error. */
async function problemsOn(
  browser: Browser,
  viewer: (typeof VIEWERS)[number],
  session: BrowserSession,
  paths: readonly string[],
): Promise<string[]> {
  const context = await browser.newContext({ ...viewer, baseURL: E2E.baseUrl });
  const problems: string[] = [];
  try {
    await signInContext(context, E2E.baseUrl, session);
    const page = await context.newPage();
    let current = "";
    page.on("console", (msg) => {
      if (msg.type() === "error" || msg.type() === "warning") problems.push(`${current} [${msg.type()}] ${msg.text()}`);
    });
    page.on("pageerror", (err) => problems.push(`${current} [pageerror] ${err.message}`));
    for (const path of paths) {
      current = path;
      await page.goto(path);
      expect(new URL(page.url()).pathname, `${path} stays on its page`).toBe(path);
      await expect(page.locator("astro-island[ssr]")).toHaveCount(0);
      await expect(page.locator("main h1").first()).toBeVisible();
      await page.waitForLoadState("networkidle");
    }
  } finally {
    await context.close();
  }
  return problems;
}

for (const viewer of VIEWERS) {
  test(`every signed-in page hydrates without a console error in ${viewer.timezoneId}, ${viewer.locale}`, async ({ browser }) => {
    test.setTimeout(90_000);
    const problems = [
      ...(await problemsOn(
        browser,
        viewer,
        customer,
        CUSTOMER_NAV.map((item) => item.href),
      )),
      ...(await problemsOn(
        browser,
        viewer,
        admin,
        CONSOLE_NAV.map((item) => item.href),
      )),
    ];
    expect(problems).toEqual([]);
  });
}
