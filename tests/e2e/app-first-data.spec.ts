// App pages render their first data on the server (issue #8, "App pages"), the customer's
// side: the HTML of /dashboard, its transactions and My Proxies already holds the balance,
// the recent rows and the first page, read with the visitor's own session; the island
// takes it over without a loading screen or a hydration mismatch; nobody gets another
// account's data; a bad session still redirects before any HTML. The console's side is
// app-first-data-console.spec.ts.
import { expect, test } from "@playwright/test";
import PocketBase from "pocketbase";
import { signInContext } from "../support/browser-session.ts";
import { addStock, adjustBalance, createCustomer } from "./support/customers.ts";
import { expectNoAxeViolations, expectNoHorizontalScroll } from "./support/checks.ts";
import { E2E } from "./support/env.ts";
import { expectNoLoadingOrErrors, htmlFor, LOADING_TEXT, openHydrated, renderedFor, sessionOf } from "./support/first-data.ts";
import { superuserClient } from "./support/pocketbase.ts";

// The browser is in another time zone than the server: dates rendered on the server must
// not make hydration fail (they show UTC until hydrated, then local time).
test.use({ timezoneId: "Asia/Kolkata" });

/** A name that would end Astro's island script and start one of its own if put into the HTML raw. */
const HOSTILE = `</script><script>window.__pwned=1</script>`;

test.describe("dashboard first data", () => {
  test("the HTML holds the balance and the recent rows; the page never shows the loading screen", async ({ page, context }) => {
    const customer = await createCustomer({ firstName: "Dana" });
    const tag = Date.now().toString(36);
    await adjustBalance(customer.id, 12_345, `Opening credit ${tag}`);
    await adjustBalance(customer.id, -2_000, `Manual debit ${tag}`);
    const session = await sessionOf(customer);

    const { headers, text } = await renderedFor(page, "/dashboard", session.token);
    expect(headers["cache-control"]).toBe("no-store");
    // A new account's first visit (issue #15).
    expect(text).toContain("Welcome, Dana");
    expect(text).toContain("$103.45");
    expect(text).toContain(`Opening credit ${tag}`);
    expect(text).toContain(`Manual debit ${tag}`);
    expect(text).toContain("-$20.00");
    expect(text).not.toContain(LOADING_TEXT);

    const watch = await openHydrated(page, context, session, "/dashboard");
    await expect(page.getByTestId("overview-balance")).toHaveText("$103.45");
    await expect(page.getByTestId("overview-transaction")).toHaveCount(2);
    await expectNoLoadingOrErrors(watch);

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

    const watch = await openHydrated(page, context, session, "/dashboard");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Welcome, ${HOSTILE}`);
    await expect(page.getByTestId("overview-transaction").first()).toContainText(HOSTILE);
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

    const { text } = await renderedFor(page, "/dashboard/transactions", session.token);
    expect(text).toContain(`First credit ${tag}`);
    expect(text).toContain(`First debit ${tag}`);
    expect(text).not.toContain(LOADING_TEXT);

    const watch = await openHydrated(page, context, session, "/dashboard/transactions");
    await expect(page.getByTestId("transaction-row")).toHaveCount(2);
    // The store works on from the seed: a filter reloads from PocketBase.
    await page.getByLabel("Type").selectOption("DEBIT");
    await expect(page.getByTestId("transaction-row")).toHaveCount(1);
    await expect(page.getByTestId("transaction-row")).toContainText(`First debit ${tag}`);
    await expectNoLoadingOrErrors(watch);
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

    const { html, text } = await renderedFor(page, "/dashboard/proxies", session.token);
    expect(text).toContain("3 of 3 proxies");
    for (const p of bought) expect(text).toContain(`${p.host}:${p.port}`);
    expect(text).toContain(`Saxony ${tag}`);
    // The country filter's options came with it.
    expect(html).toMatch(/<option value="DE"[^>]*>/);
    expect(html).toMatch(/<option value="US"[^>]*>/);
    expect(text).not.toContain("Loading your proxies...");
    expect(text).not.toContain(LOADING_TEXT);

    const watch = await openHydrated(page, context, session, "/dashboard/proxies");
    await expect(page.getByTestId("proxy-card")).toHaveCount(3);
    // The store works on from the seed: a filter reloads from PocketBase.
    await page.getByLabel("Country").selectOption("US");
    await expect(page.getByTestId("proxy-card")).toHaveCount(1);
    await expect(page.getByTestId("proxy-count")).toHaveText("1 of 3 proxies");
    await expectNoLoadingOrErrors(watch);
  });
});
