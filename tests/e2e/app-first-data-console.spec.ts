// App pages render their first data on the server (issue #8, "App pages"), the admin's
// side: the HTML of /console, its audit logs, proxy, affiliate and user management already
// holds the figures and the first page, read with the admin's own session; the island
// takes it over without a loading screen or a hydration mismatch; an admin flag removed
// after sign-in still redirects before any HTML. The customer's side is app-first-data.spec.ts.
import { expect, test } from "@playwright/test";
import { addStock, adjustBalance, createAdmin, createCustomer } from "./support/customers.ts";
import { expectNoLoadingOrErrors, htmlFor, LOADING_TEXT, openHydrated, renderedFor, sessionOf } from "./support/first-data.ts";
import { superuserClient } from "./support/pocketbase.ts";

// The browser is in another time zone than the server: dates rendered on the server must
// not make hydration fail (they show UTC until hydrated, then local time).
test.use({ timezoneId: "Asia/Kolkata" });

test.describe("console first data", () => {
  test("the admin's HTML holds the figures and recent rows; no loading screen", async ({ page, context }) => {
    const tag = Date.now().toString(36);
    const customer = await createCustomer({ firstName: "Hana" });
    await adjustBalance(customer.id, 4_200, `Console credit ${tag}`);
    const admin = await createAdmin();
    const session = await sessionOf(admin);

    const { headers, html, text } = await renderedFor(page, "/console", session.token);
    expect(headers["cache-control"]).toBe("no-store");
    expect(text).toContain("Admin Overview");
    expect(text).toContain(`Console credit ${tag}`);
    expect(text).toContain(customer.email);
    expect(html).toMatch(/data-testid="overview-total-users"[^>]*>\d[\d,]*</);
    expect(text).not.toContain(LOADING_TEXT);

    const watch = await openHydrated(page, context, session, "/console");
    await expect(page.getByText(`Console credit ${tag}`)).toBeVisible();
    await expectNoLoadingOrErrors(watch);
  });

  test("audit logs: the first page and the summary are in the HTML, then search loads in the browser", async ({ page, context }) => {
    const tag = Date.now().toString(36);
    const customer = await createCustomer({ firstName: "Kai" });
    await adjustBalance(customer.id, 1_234, `Audited credit ${tag}`);
    const admin = await createAdmin();
    const session = await sessionOf(admin);

    const { html, text } = await renderedFor(page, "/console/logs", session.token);
    expect(text).toContain(`Audited credit ${tag}`);
    // The count and the summary cards render only with their data (else skeletons).
    expect(html).toMatch(/data-testid="audit-count"[^>]*>\d+ entr/);
    expect(html).toMatch(/data-testid="audit-today"[^>]*>\d+</);
    expect(html).not.toContain('aria-label="Loading audit logs"');

    const watch = await openHydrated(page, context, session, "/console/logs");
    await expect(page.getByTestId("audit-sentence").filter({ hasText: `Audited credit ${tag}` })).toBeVisible();
    // The store works on from the seed: a search reloads from PocketBase.
    await page.getByLabel("Search").fill(`no such entry ${tag}`);
    await expect(page.getByText("No audit log entries found")).toBeVisible();
    await expectNoLoadingOrErrors(watch);
  });

  test("proxy management: the stats and the first inventory page are in the HTML, then filters load in the browser", async ({
    page,
    context,
  }) => {
    const tag = Date.now().toString(36);
    await addStock({ type: "DATACENTER", country: "DE", state: `Thuringia ${tag}`, count: 2 });
    const admin = await createAdmin();
    const session = await sessionOf(admin);

    const { html } = await renderedFor(page, "/console/proxies", session.token);
    // The cards and the count render only with their data (else skeletons and "Loading proxies...").
    expect(html).toMatch(/data-testid="stat-total"[^>]*>[\d,]+</);
    expect(html).toMatch(/data-testid="proxy-count"[^>]*>[\d,]+ prox/);
    expect(html).not.toContain("Loading proxies...");

    const watch = await openHydrated(page, context, session, "/console/proxies");
    // The store works on from the seed: a search reloads from PocketBase.
    await page.getByLabel("Search").fill(`Thuringia ${tag}`);
    await expect(page.getByTestId("proxy-count")).toHaveText("2 proxies");
    await expectNoLoadingOrErrors(watch);
  });

  test("affiliate management: the stats and the first page are in the HTML, then search loads in the browser", async ({
    page,
    context,
  }) => {
    const tag = Date.now().toString(36);
    const admin = await createAdmin();
    const session = await sessionOf(admin);

    const { html } = await renderedFor(page, "/console/affiliates", session.token);
    // The cards render only with their data (else skeletons).
    expect(html).toMatch(/data-testid="stat-affiliates"[^>]*>[\d,]+</);
    expect(html).toMatch(/data-testid="stat-paid"[^>]*>\$[\d,.]+</);
    expect(html).not.toContain('aria-label="Loading affiliates"');

    const watch = await openHydrated(page, context, session, "/console/affiliates");
    // The store works on from the seed: a search reloads from PocketBase.
    await page.getByRole("searchbox", { name: "Search" }).fill(`nobody-${tag}`);
    await expect(page.getByText("No affiliates found")).toBeVisible();
    await expectNoLoadingOrErrors(watch);
  });

  test("user management: the page its URL asks for is in the HTML, then filters load in the browser", async ({ page, context }) => {
    const tag = Date.now().toString(36);
    const customer = await createCustomer({ firstName: `Lena${tag}` });
    const admin = await createAdmin();
    const session = await sessionOf(admin);
    const path = `/console/users?search=${encodeURIComponent(customer.email)}`;

    const { html, text } = await renderedFor(page, path, session.token);
    expect(text).toContain(customer.email);
    expect(html).not.toContain('aria-label="Loading users"');
    // The search box holds the URL's search, as the browser will.
    expect(html).toContain(`value="${customer.email}"`);

    const watch = await openHydrated(page, context, session, path);
    await expect(page.getByTestId("user-row")).toHaveCount(1);
    await expect(page.getByTestId("user-row")).toContainText(customer.email);
    // The store works on from the seed: the role filter reloads from PocketBase.
    await page.getByLabel("Role").selectOption("admins");
    await expect(page.getByText("No users found")).toBeVisible();
    await expectNoLoadingOrErrors(watch);
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
