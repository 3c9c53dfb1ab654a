// App pages render their first data on the server (issue #8, "App pages"): the HTML of
// /dashboard and /console already holds the balance, the recent rows and the figures,
// read with the visitor's own session; the island takes it over without a loading screen
// or a hydration mismatch; nobody gets another account's data; a bad session still
// redirects before any HTML.
import { expect, test, type Page } from "@playwright/test";
import PocketBase from "pocketbase";
import { sessionFor, signInContext } from "../support/browser-session.ts";
import { addStock, adjustBalance, createAdmin, createCustomer } from "./support/customers.ts";
import { expectNoAxeViolations, expectNoHorizontalScroll } from "./support/checks.ts";
import { E2E } from "./support/env.ts";
import { superuserClient } from "./support/pocketbase.ts";

// The browser is in another time zone than the server: dates rendered on the server must
// not make hydration fail (they show UTC until hydrated, then local time).
test.use({ timezoneId: "Asia/Kolkata" });

const LOADING_TEXT = "Loading Dashboard";
/** A name that would end Astro's island script and start one of its own if put into the HTML raw. */
const HOSTILE = `</script><script>window.__pwned=1</script>`;

/** A session signed in with PocketBase directly, as the app's sign-in leaves it. */
const sessionOf = (user: { email: string; password: string }) => sessionFor(E2E.pocketbaseUrl, user.email, user.password);

/** The HTML the server sends for `path` to this session, without following redirects. */
async function htmlFor(page: Page, path: string, cookie: string) {
  const res = await page.request.get(path, { headers: { Cookie: `pb_auth=${cookie}` }, maxRedirects: 0 });
  return { status: res.status(), headers: res.headers(), html: res.status() === 200 ? await res.text() : "" };
}

/**
 * Watches the page from its first byte: whether the loading screen's text ever appears in
 * the DOM, and every console error (React reports a hydration mismatch there).
 */
async function watchPage(page: Page): Promise<{ errors: string[]; sawLoading: () => Promise<boolean> }> {
  const errors: string[] = [];
  page.on("console", (msg) => {
    if (msg.type() === "error") errors.push(msg.text());
  });
  page.on("pageerror", (err) => errors.push(err.message));
  await page.addInitScript((text: string) => {
    const w = window as unknown as { __sawLoading?: boolean };
    w.__sawLoading = false;
    const check = () => {
      if (document.body?.textContent?.includes(text)) w.__sawLoading = true;
    };
    new MutationObserver(check).observe(document, { childList: true, subtree: true, characterData: true });
    document.addEventListener("DOMContentLoaded", check);
  }, LOADING_TEXT);
  return {
    errors,
    sawLoading: () => page.evaluate(() => (window as unknown as { __sawLoading?: boolean }).__sawLoading === true),
  };
}

/** Text of the HTML without tags (what a reader of the page without JavaScript sees). */
function visibleText(html: string): string {
  return html
    .replace(/<!--[\s\S]*?-->/g, "")
    .replace(/<script[\s\S]*?<\/script>/g, " ")
    .replace(/<[^>]+>/g, " ")
    .replace(/&amp;/g, "&")
    .replace(/\s+/g, " ");
}

test.describe("dashboard first data", () => {
  test("the HTML holds the balance and the recent rows; the page never shows the loading screen", async ({ page, context }) => {
    const customer = await createCustomer({ firstName: "Dana" });
    const tag = Date.now().toString(36);
    await adjustBalance(customer.id, 12_345, `Opening credit ${tag}`);
    await adjustBalance(customer.id, -2_000, `Manual debit ${tag}`);
    const session = await sessionOf(customer);

    const { status, headers, html } = await htmlFor(page, "/dashboard", session.token);
    expect(status).toBe(200);
    expect(headers["cache-control"]).toBe("no-store");
    const text = visibleText(html);
    expect(text).toContain("Welcome back, Dana");
    expect(text).toContain("$103.45");
    expect(text).toContain(`Opening credit ${tag}`);
    expect(text).toContain(`Manual debit ${tag}`);
    expect(text).toContain("-$20.00");
    expect(text).not.toContain(LOADING_TEXT);

    await signInContext(context, E2E.baseUrl, session);
    const watch = await watchPage(page);
    await page.goto("/dashboard");
    await expect(page.getByTestId("overview-balance")).toHaveText("$103.45");
    await expect(page.locator("astro-island[ssr]")).toHaveCount(0);
    await expect(page.getByTestId("overview-transaction")).toHaveCount(2);
    expect(await watch.sawLoading()).toBe(false);
    expect(watch.errors).toEqual([]);

    // Still live after hydration: a credit shows without a reload (realtime as before).
    await adjustBalance(customer.id, 1_000, `Later credit ${tag}`);
    await expect(page.getByTestId("overview-balance")).toHaveText("$113.45");
    await expect(page.getByText(`Later credit ${tag}`)).toBeVisible();
  });

  test("a name holding </script> stays text in the HTML and on the page", async ({ page, context }) => {
    const su = await superuserClient();
    const customer = await createCustomer({ firstName: "Eve" });
    await su.collection("users").update(customer.id, { first_name: HOSTILE });
    await adjustBalance(customer.id, 500, HOSTILE);
    const session = await sessionOf(customer);

    const { html } = await htmlFor(page, "/dashboard", session.token);
    expect(html).not.toContain(HOSTILE);
    expect(html).not.toContain("<script>window.__pwned");

    await signInContext(context, E2E.baseUrl, session);
    const watch = await watchPage(page);
    await page.goto("/dashboard");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Welcome back, ${HOSTILE}`);
    await expect(page.getByTestId("overview-transaction").first()).toContainText(HOSTILE);
    await expect(page.locator("astro-island[ssr]")).toHaveCount(0);
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
    expect(watch.errors).toEqual([]);
  });

  test("a customer's HTML holds only their own data, and /console sends them away before any HTML", async ({ page }) => {
    const tag = Date.now().toString(36);
    const other = await createCustomer({ firstName: "Olga" });
    await adjustBalance(other.id, 777, `Other customer's credit ${tag}`);
    const customer = await createCustomer({ firstName: "Finn" });
    await adjustBalance(customer.id, 300, `Own credit ${tag}`);
    const session = await sessionOf(customer);

    const { html } = await htmlFor(page, "/dashboard", session.token);
    expect(html).toContain(`Own credit ${tag}`);
    expect(html).not.toContain(`Other customer's credit ${tag}`);
    expect(html).not.toContain(other.email);
    expect(html).not.toContain(other.id);

    const console = await htmlFor(page, "/console", session.token);
    expect(console.status).toBe(302);
    expect(console.headers["location"]).toBe("/dashboard");
    expect(console.html).toBe("");
  });

  test("a stale or invalid session is sent to /login before any HTML", async ({ page }) => {
    const customer = await createCustomer();
    const session = await sessionOf(customer);
    // The account is gone: its token no longer verifies.
    const su = await superuserClient();
    await su.collection("users").delete(customer.id);
    for (const value of [session.token, "garbage", encodeURIComponent(JSON.stringify({ token: "x.y.z", record: { id: customer.id } }))]) {
      const res = await htmlFor(page, "/dashboard", value);
      expect(res.status).toBe(302);
      expect(res.headers["location"]).toBe("/login?next=%2Fdashboard");
    }
  });

  test("fits a 360 px screen with long rows, and passes axe", async ({ page, context }) => {
    await page.setViewportSize({ width: 360, height: 800 });
    const customer = await createCustomer({ firstName: "Gus" });
    // A description with a long unbreakable token (a payment reference) must wrap, not push the amount out.
    await adjustBalance(customer.id, 987_654, "Bulk credit payment:pi_3PqXyZAbCdEfGhIjKlMnOpQrStUvWxYz0123456789abcdef");
    await adjustBalance(customer.id, -123_456, "Proxy purchase: 25 x RESIDENTIAL in United States, California, Los Angeles");
    await signInContext(context, E2E.baseUrl, await sessionOf(customer));
    await page.goto("/dashboard");
    await expect(page.locator("astro-island[ssr]")).toHaveCount(0);
    await expect(page.getByTestId("overview-transaction")).toHaveCount(2);
    await expectNoHorizontalScroll(page);
    // The amounts are whole on screen, not cut by the card's edge.
    for (const amount of await page.getByTestId("overview-transaction").locator("span").all()) {
      const box = await amount.boundingBox();
      expect(box && box.x + box.width).toBeLessThanOrEqual(360);
    }
    // The curl example scrolls: it can take the focus and has a name.
    const curl = page.getByRole("region", { name: "Example: test a proxy with curl" });
    await curl.focus();
    await expect(curl).toBeFocused();
    await expectNoAxeViolations(page);
  });
});

test.describe("other dashboard pages", () => {
  test("transactions: the first page is in the HTML, then filters and paging load in the browser", async ({ page, context }) => {
    const tag = Date.now().toString(36);
    const customer = await createCustomer({ firstName: "Ivo" });
    await adjustBalance(customer.id, 2_500, `First credit ${tag}`);
    await adjustBalance(customer.id, -700, `First debit ${tag}`);
    const session = await sessionOf(customer);

    const { status, html } = await htmlFor(page, "/dashboard/transactions", session.token);
    expect(status).toBe(200);
    const text = visibleText(html);
    expect(text).toContain(`First credit ${tag}`);
    expect(text).toContain(`First debit ${tag}`);
    expect(text).not.toContain(LOADING_TEXT);

    await signInContext(context, E2E.baseUrl, session);
    const watch = await watchPage(page);
    await page.goto("/dashboard/transactions");
    await expect(page.getByTestId("transaction-row")).toHaveCount(2);
    await expect(page.locator("astro-island[ssr]")).toHaveCount(0);
    // The store works on from the seed: a filter reloads from PocketBase.
    await page.getByLabel("Type").selectOption("DEBIT");
    await expect(page.getByTestId("transaction-row")).toHaveCount(1);
    await expect(page.getByTestId("transaction-row")).toContainText(`First debit ${tag}`);
    expect(await watch.sawLoading()).toBe(false);
    expect(watch.errors).toEqual([]);
  });

  test("my proxies: the first page and the country filter are in the HTML, then filters load in the browser", async ({ page, context }) => {
    const tag = Date.now().toString(36);
    const customer = await createCustomer({ firstName: "Jo", balanceCents: 10_000 });
    const session = await sessionOf(customer);
    // Bought through the real purchase route, with the customer's own session.
    const buyer = new PocketBase(E2E.pocketbaseUrl);
    buyer.autoCancellation(false);
    buyer.authStore.save(session.token, session.record);
    const bought: { host: string; port: number }[] = [];
    for (const place of [
      { type: "DATACENTER", country: "DE", state: `Saxony ${tag}`, count: 2 },
      { type: "RESIDENTIAL", country: "US", state: `Ohio ${tag}`, count: 1 },
    ]) {
      await addStock(place);
      const res = await buyer.send<{ proxies: { host: string; port: number }[] }>("/api/v1/proxies/purchase", {
        method: "POST",
        headers: { "Idempotency-Key": crypto.randomUUID() },
        body: { type: place.type, country: place.country, state: place.state, quantity: place.count },
      });
      bought.push(...res.proxies);
    }

    const { status, html } = await htmlFor(page, "/dashboard/proxies", session.token);
    expect(status).toBe(200);
    const text = visibleText(html);
    expect(text).toContain("3 of 3 proxies");
    for (const p of bought) expect(text).toContain(`${p.host}:${p.port}`);
    expect(text).toContain(`Saxony ${tag}`);
    // The country filter's options came with it.
    expect(html).toMatch(/<option value="DE"[^>]*>/);
    expect(html).toMatch(/<option value="US"[^>]*>/);
    expect(text).not.toContain("Loading your proxies...");
    expect(text).not.toContain(LOADING_TEXT);

    await signInContext(context, E2E.baseUrl, session);
    const watch = await watchPage(page);
    await page.goto("/dashboard/proxies");
    await expect(page.getByTestId("proxy-card")).toHaveCount(3);
    await expect(page.locator("astro-island[ssr]")).toHaveCount(0);
    // The store works on from the seed: a filter reloads from PocketBase.
    await page.getByLabel("Country").selectOption("US");
    await expect(page.getByTestId("proxy-card")).toHaveCount(1);
    await expect(page.getByTestId("proxy-count")).toHaveText("1 of 3 proxies");
    expect(await watch.sawLoading()).toBe(false);
    expect(watch.errors).toEqual([]);
  });
});

test.describe("console first data", () => {
  test("the admin's HTML holds the figures and recent rows; no loading screen", async ({ page, context }) => {
    const tag = Date.now().toString(36);
    const customer = await createCustomer({ firstName: "Hana" });
    await adjustBalance(customer.id, 4_200, `Console credit ${tag}`);
    const admin = await createAdmin();
    const session = await sessionOf(admin);

    const { status, headers, html } = await htmlFor(page, "/console", session.token);
    expect(status).toBe(200);
    expect(headers["cache-control"]).toBe("no-store");
    const text = visibleText(html);
    expect(text).toContain("Admin Overview");
    expect(text).toContain(`Console credit ${tag}`);
    expect(text).toContain(customer.email);
    expect(html).toMatch(/data-testid="overview-total-users"[^>]*>\d[\d,]*</);
    expect(text).not.toContain(LOADING_TEXT);

    await signInContext(context, E2E.baseUrl, session);
    const watch = await watchPage(page);
    await page.goto("/console");
    await expect(page.getByText(`Console credit ${tag}`)).toBeVisible();
    await expect(page.locator("astro-island[ssr]")).toHaveCount(0);
    expect(await watch.sawLoading()).toBe(false);
    expect(watch.errors).toEqual([]);
  });

  test("audit logs: the first page and the summary are in the HTML, then search loads in the browser", async ({ page, context }) => {
    const tag = Date.now().toString(36);
    const customer = await createCustomer({ firstName: "Kai" });
    await adjustBalance(customer.id, 1_234, `Audited credit ${tag}`);
    const admin = await createAdmin();
    const session = await sessionOf(admin);

    const { status, html } = await htmlFor(page, "/console/logs", session.token);
    expect(status).toBe(200);
    expect(visibleText(html)).toContain(`Audited credit ${tag}`);
    // The count and the summary cards render only with their data (else skeletons).
    expect(html).toMatch(/data-testid="audit-count"[^>]*>\d+ entr/);
    expect(html).toMatch(/data-testid="audit-today"[^>]*>\d+</);
    expect(html).not.toContain('aria-label="Loading audit logs"');

    await signInContext(context, E2E.baseUrl, session);
    const watch = await watchPage(page);
    await page.goto("/console/logs");
    await expect(page.getByText(`Audited credit ${tag}`)).toBeVisible();
    await expect(page.locator("astro-island[ssr]")).toHaveCount(0);
    // The store works on from the seed: a search reloads from PocketBase.
    await page.getByLabel("Search").fill(`no such entry ${tag}`);
    await expect(page.getByText("No audit log entries found")).toBeVisible();
    expect(await watch.sawLoading()).toBe(false);
    expect(watch.errors).toEqual([]);
  });

  test("proxy management: the stats and the first inventory page are in the HTML, then filters load in the browser", async ({
    page,
    context,
  }) => {
    const tag = Date.now().toString(36);
    await addStock({ type: "DATACENTER", country: "DE", state: `Thuringia ${tag}`, count: 2 });
    const admin = await createAdmin();
    const session = await sessionOf(admin);

    const { status, html } = await htmlFor(page, "/console/proxies", session.token);
    expect(status).toBe(200);
    // The cards and the count render only with their data (else skeletons and "Loading proxies...").
    expect(html).toMatch(/data-testid="stat-total"[^>]*>[\d,]+</);
    expect(html).toMatch(/data-testid="proxy-count"[^>]*>[\d,]+ prox/);
    expect(html).not.toContain("Loading proxies...");

    await signInContext(context, E2E.baseUrl, session);
    const watch = await watchPage(page);
    await page.goto("/console/proxies");
    await expect(page.locator("astro-island[ssr]")).toHaveCount(0);
    // The store works on from the seed: a search reloads from PocketBase.
    await page.getByLabel("Search").fill(`Thuringia ${tag}`);
    await expect(page.getByTestId("proxy-count")).toHaveText("2 proxies");
    expect(await watch.sawLoading()).toBe(false);
    expect(watch.errors).toEqual([]);
  });

  test("affiliate management: the stats and the first page are in the HTML, then search loads in the browser", async ({
    page,
    context,
  }) => {
    const tag = Date.now().toString(36);
    const admin = await createAdmin();
    const session = await sessionOf(admin);

    const { status, html } = await htmlFor(page, "/console/affiliates", session.token);
    expect(status).toBe(200);
    // The cards render only with their data (else skeletons).
    expect(html).toMatch(/data-testid="stat-affiliates"[^>]*>[\d,]+</);
    expect(html).toMatch(/data-testid="stat-paid"[^>]*>\$[\d,.]+</);
    expect(html).not.toContain('aria-label="Loading affiliates"');

    await signInContext(context, E2E.baseUrl, session);
    const watch = await watchPage(page);
    await page.goto("/console/affiliates");
    await expect(page.locator("astro-island[ssr]")).toHaveCount(0);
    // The store works on from the seed: a search reloads from PocketBase.
    await page.getByRole("searchbox", { name: "Search" }).fill(`nobody-${tag}`);
    await expect(page.getByText("No affiliates found")).toBeVisible();
    expect(await watch.sawLoading()).toBe(false);
    expect(watch.errors).toEqual([]);
  });

  test("user management: the page its URL asks for is in the HTML, then filters load in the browser", async ({ page, context }) => {
    const tag = Date.now().toString(36);
    const customer = await createCustomer({ firstName: `Lena${tag}` });
    const admin = await createAdmin();
    const session = await sessionOf(admin);
    const path = `/console/users?search=${encodeURIComponent(customer.email)}`;

    const { status, html } = await htmlFor(page, path, session.token);
    expect(status).toBe(200);
    expect(visibleText(html)).toContain(customer.email);
    expect(html).not.toContain('aria-label="Loading users"');
    // The search box holds the URL's search, as the browser will.
    expect(html).toContain(`value="${customer.email}"`);

    await signInContext(context, E2E.baseUrl, session);
    const watch = await watchPage(page);
    await page.goto(path);
    await expect(page.getByTestId("user-row")).toHaveCount(1);
    await expect(page.getByTestId("user-row")).toContainText(customer.email);
    await expect(page.locator("astro-island[ssr]")).toHaveCount(0);
    // The store works on from the seed: the role filter reloads from PocketBase.
    await page.getByLabel("Role").selectOption("admins");
    await expect(page.getByText("No users found")).toBeVisible();
    expect(await watch.sawLoading()).toBe(false);
    expect(watch.errors).toEqual([]);
  });

  test("the admin flag removed after sign-in: the console redirects before any HTML", async ({ page }) => {
    const admin = await createAdmin();
    const session = await sessionOf(admin);
    const su = await superuserClient();
    await su.collection("users").update(admin.id, { is_admin: false });
    const res = await htmlFor(page, "/console", session.token);
    expect(res.status).toBe(302);
    expect(res.headers["location"]).toBe("/dashboard");
  });
});
