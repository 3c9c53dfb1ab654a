// The accessibility sweep of the signed-in app (issue #8): every /dashboard/** page and
// /onboarding as a customer, every /console/** page as an admin, with axe (WCAG 2.2 A and
// AA) at a desktop width and again at 360 px (where the bottom bar replaces the sidebar),
// plus no sideways scrolling at 360 px. Open states that matter are swept too: dialogs,
// the user drawer, tabs, a ticket thread, the country picker's list.
import { expect, test, type Browser, type Page } from "@playwright/test";
import type { TestUser } from "../support/pocketbase.ts";
import { addStock, createAdmin, createCustomer, open, signInAs, userClient } from "./support/customers.ts";
import { expectNoAxeViolations, expectNoHorizontalScroll } from "./support/checks.ts";
import { E2E } from "./support/env.ts";
import { superuserClient } from "./support/pocketbase.ts";
import { CONSOLE_NAV, CUSTOMER_NAV } from "../../src/features/app-shell/nav.ts";
import { openTicket } from "./support/support-tickets.ts";
import { tag } from "./support/unique.ts";

const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 360, height: 800 };

/** Waits until the page's data has arrived: islands hydrated, no skeleton or busy region left. */
async function settled(page: Page): Promise<void> {
  await expect(page.locator("astro-island[ssr]")).toHaveCount(0);
  await expect(page.locator(".animate-pulse, [aria-busy='true']")).toHaveCount(0);
  await expect(page.getByText(/^Loading\b/)).toHaveCount(0);
}

/** Opens `path` and waits until its data has arrived. */
async function openSettled(page: Page, path: string): Promise<void> {
  await open(page, path);
  await settled(page);
}

/** The state on screen again at 360 px: no sideways scroll, axe; then back to the desktop width. */
async function expectPhoneWidthClean(page: Page, what: string): Promise<void> {
  await page.setViewportSize(PHONE);
  await expectNoHorizontalScroll(page);
  await expectNoAxeViolations(page, `${what} at 360 px`);
  await page.setViewportSize(DESKTOP);
}

/** The page at a desktop width and at 360 px: axe at both, no sideways scroll at 360 px. */
async function sweep(page: Page, path: string): Promise<void> {
  await page.setViewportSize(DESKTOP);
  await open(page, path);
  await expect(page).toHaveURL(new RegExp(`${path.replace(/[?]/g, "\\?")}$`));
  await settled(page);
  await expectNoAxeViolations(page, `${path} (${DESKTOP.width} px)`);
  await page.setViewportSize(PHONE);
  await settled(page);
  await expectNoHorizontalScroll(page);
  await expectNoAxeViolations(page, `${path} (${PHONE.width} px)`);
  await page.setViewportSize(DESKTOP);
}

/** One test per page of a sidebar, each swept on the describe block's signed-in page. */
function sweepEachPage(nav: readonly { href: string }[], page: () => Page): void {
  for (const path of nav.map((item) => item.href)) {
    test(`${path} meets WCAG 2.2 AA and fits 360 px`, async () => {
      await sweep(page(), path);
    });
  }
}

/** A browser page signed in as `user` (one sign-in for a whole describe block). */
async function signedInPage(browser: Browser, user: TestUser, landing: string): Promise<Page> {
  const context = await browser.newContext({ baseURL: E2E.baseUrl, viewport: DESKTOP });
  const page = await context.newPage();
  await signInAs(page, user, landing);
  return page;
}

test.describe("signed-in customer", () => {
  test.describe.configure({ timeout: 90_000 });
  let page: Page;
  let customer: TestUser;

  test.beforeAll(async ({ browser }) => {
    test.setTimeout(90_000);
    customer = await createCustomer({ balanceCents: 50_000, firstName: "Axel" });
    // Two proxies of the customer's own, so My Proxies shows cards, dialogs and the ledger has rows.
    const place = { type: "DATACENTER", country: "DE", state: `A11y ${tag()}`, count: 2 };
    await addStock(place);
    const pb = await userClient(customer);
    await pb.send("/api/v1/proxies/purchase", {
      method: "POST",
      headers: { "Idempotency-Key": crypto.randomUUID() },
      body: { type: place.type, country: place.country, state: place.state, city: "", quantity: place.count },
    });
    page = await signedInPage(browser, customer, "/dashboard/settings");
  });

  test.afterAll(async () => {
    await page.context().close();
  });

  sweepEachPage(CUSTOMER_NAV, () => page);

  test("My Proxies with the renew and regenerate dialogs open", async () => {
    await openSettled(page, "/dashboard/proxies");
    const card = page.getByRole("article").first();
    await card.getByRole("button", { name: "Renew", exact: true }).click();
    const renew = page.getByRole("dialog", { name: "Renew 1 proxy" });
    await expect(renew.getByRole("heading", { name: "Renew 1 proxy" })).toBeVisible();
    await expectNoAxeViolations(page, "the renew dialog");
    await renew.getByRole("button", { name: "Cancel" }).click();
    await expect(renew).toBeHidden();

    await card.getByRole("button", { name: "Regenerate credentials" }).click();
    const regenerate = page.getByRole("dialog", { name: "Regenerate credentials?" });
    await expect(regenerate.getByRole("heading", { name: "Regenerate credentials?" })).toBeVisible();
    await expectNoAxeViolations(page, "the regenerate dialog");
    await regenerate.getByRole("button", { name: "Cancel" }).click();
    await expect(regenerate).toBeHidden();
  });

  test("Support: the new ticket form, then a ticket's thread", async () => {
    await openSettled(page, "/dashboard/support");
    await page.getByRole("button", { name: "New Ticket" }).click();
    await expect(page.getByLabel("Subject", { exact: true })).toBeVisible();
    await expectNoAxeViolations(page, "the new ticket form");
    const subject = `Sweep ticket ${tag()}`;
    await page.getByLabel("Subject", { exact: true }).fill(subject);
    await page.getByLabel("Message", { exact: true }).fill("Checking how this thread reads with a screen reader.");
    await page.getByRole("button", { name: "Create Ticket" }).click();
    await expect(page.getByRole("heading", { name: subject, level: 2 })).toBeVisible();
    await expectNoAxeViolations(page, "a ticket thread");
    await expectPhoneWidthClean(page, "a ticket thread");
  });

  test("/onboarding for a customer who has not finished it", async ({ browser }) => {
    const fresh = await createCustomer({ onboarded: false, firstName: "Nova" });
    const onboarding = await signedInPage(browser, fresh, "/onboarding");
    try {
      await sweep(onboarding, "/onboarding");
    } finally {
      await onboarding.context().close();
    }
  });
});

test.describe("signed-in admin", () => {
  test.describe.configure({ timeout: 90_000 });
  let page: Page;
  let customer: TestUser;
  let stocked: { host: string; port: number; username: string };

  test.beforeAll(async ({ browser }) => {
    test.setTimeout(90_000);
    customer = await createCustomer({ balanceCents: 2_500, firstName: "Cleo" });
    const [id] = await addStock({ type: "RESIDENTIAL", country: "FR", state: `A11y ${tag()}`, count: 3 });
    const proxy = await (await superuserClient()).collection("proxies").getOne(id ?? "");
    stocked = { host: proxy["host"] as string, port: proxy["port"] as number, username: proxy["username"] as string };
    const admin = await createAdmin("Ada");
    page = await signedInPage(browser, admin, "/console/settings");
  });

  test.afterAll(async () => {
    await page.context().close();
  });

  sweepEachPage(CONSOLE_NAV, () => page);

  test("User Management with the balance dialog and the details drawer open", async () => {
    await openSettled(page, "/console/users");
    await page.getByRole("searchbox").first().fill(customer.email);
    const row = page.getByRole("row").filter({ hasText: customer.email });
    await row.getByRole("button", { name: `Adjust balance of ${customer.email}` }).click();
    const balance = page.getByRole("dialog", { name: "Adjust balance" });
    await expect(balance.getByRole("heading", { name: "Adjust balance" })).toBeVisible();
    await expectNoAxeViolations(page, "the balance dialog");
    await balance.getByRole("button", { name: "Cancel" }).click();
    await expect(balance).toBeHidden();

    await row.getByRole("button", { name: `Details of ${customer.email}` }).click();
    const drawer = page.getByRole("dialog", { name: "Cleo Customer" });
    await expect(drawer.getByRole("heading", { name: "Cleo Customer" })).toBeVisible();
    await expect(drawer.locator(".animate-pulse")).toHaveCount(0);
    await expectNoAxeViolations(page, "the user details drawer");
    await expectPhoneWidthClean(page, "the user details drawer");
    await page.keyboard.press("Escape");
    await expect(drawer).toBeHidden();
  });

  test("Pricing Management with the add-plan dialog open", async () => {
    await openSettled(page, "/console/pricing");
    await page.getByRole("button", { name: "Add Plan" }).click();
    const dialog = page.getByRole("dialog", { name: "Add Pricing Plan" });
    await expect(dialog.getByRole("heading", { name: "Add Pricing Plan" })).toBeVisible();
    await expectNoAxeViolations(page, "the add-plan dialog");
    await expectPhoneWidthClean(page, "the add-plan dialog");
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
  });

  test("Proxy Management: every tab, and the edit dialog of a proxy", async () => {
    await openSettled(page, "/console/proxies");
    for (const name of ["Generate", "Import", "Inventory"]) {
      await page.getByRole("tab", { name }).click();
      await expect(page.getByRole("tab", { name })).toHaveAttribute("aria-selected", "true");
      await settled(page);
      await expectNoAxeViolations(page, `the ${name} tab`);
    }
    // The Generate tab's country picker with its list open.
    await page.getByRole("tab", { name: "Generate" }).click();
    await page.getByLabel("Country", { exact: true }).fill("braz");
    await expect(page.getByRole("option", { name: "Brazil (BR)" })).toBeVisible();
    await expectNoAxeViolations(page, "the Generate tab's country list");
    await page.getByLabel("Country", { exact: true }).press("Escape");

    await page.getByRole("tab", { name: "Inventory" }).click();
    await settled(page);
    // host:port is the gateway's (shared by many proxies): a row is found and named by its username.
    const address = `${stocked.host}:${stocked.port}`;
    await page.getByLabel("Search").fill(stocked.username);
    await page.getByRole("button", { name: `Edit proxy ${stocked.username}` }).click();
    const dialog = page.getByRole("dialog", { name: address });
    await expect(dialog.getByLabel("Password")).toBeVisible();
    await expectNoAxeViolations(page, "the edit-proxy dialog");
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
  });

  test("Support Tickets with a ticket open", async () => {
    // A customer opens a ticket; the admin reads it.
    const subject = `Console sweep ${tag()}`;
    await openTicket(customer, subject, "My proxy stopped answering this morning.", "high");
    await openSettled(page, "/console/support");
    await page.getByText(subject).first().click();
    await expect(page.getByRole("heading", { name: subject, level: 2 })).toBeVisible();
    await expectNoAxeViolations(page, "a ticket open in the console");
    await expectPhoneWidthClean(page, "a ticket open in the console");
  });
});
