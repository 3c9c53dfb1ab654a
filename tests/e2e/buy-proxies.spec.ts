// Buy Proxies (/dashboard/buy-proxies) end to end in Chromium against the real shop:
// choices only from live stock, the spec's messages, the balance check, a real purchase
// (proxies assigned in the database, balance = ledger), every type with a plan (SOCKS5) and
// countries by name, a double click that buys once,
// server refusals shown with nothing charged, and the unverified customer's notice.
import { expect, test, type Page } from "@playwright/test";
import { formatCents } from "../../src/lib/money.ts";
import { addStock, adminClient, createCustomer, ledgerOf, signInAs, userClient } from "./support/customers.ts";
import { superuserClient } from "./support/pocketbase.ts";
import { expectNoAxeViolations, expectNoHorizontalScroll } from "./support/checks.ts";
import { countRequests } from "./support/requests.ts";

/** A proxy's status set as an admin does it: the console's audited route (the records API refuses it). */
async function setStatusInConsole(id: string, status: string): Promise<void> {
  await (await adminClient()).send(`/api/admin/proxies/${encodeURIComponent(id)}`, { method: "PATCH", body: { status } });
}

// Each journey signs in through /login and arranges data over HTTP: on the shared 2-core
// machine that can take longer than the default 30 s.
test.describe.configure({ timeout: 60_000 });

let seq = 0;
/** A country code no other test (or spec) stocks, so counts are exact. */
const uniqueCountry = (): string => `X${Date.now().toString(36).slice(-5).toUpperCase()}${seq++}`;

/** The unit price the server charges for a type, read as the customer would. */
async function unitPrice(user: { email: string; password: string }, type: string): Promise<number> {
  const pb = await userClient(user);
  const stock = await pb.send<{ unit_price_cents: number }>("/api/v1/proxies/stock", { query: { type } });
  return stock.unit_price_cents;
}

/** A customer with `balanceCents` signed in on Buy Proxies, `count` residential proxies in a country of their own, and the unit price. */
async function residentialShopper(page: Page, balanceCents: number, count: number) {
  const user = await createCustomer({ balanceCents });
  const here = uniqueCountry();
  await addStock({ type: "RESIDENTIAL", country: here, count });
  const price = await unitPrice(user, "RESIDENTIAL");
  await signInAs(page, user, "/dashboard/buy-proxies");
  return { user, here, price };
}

const country = (page: Page) => page.getByLabel("Country", { exact: true });
const state = (page: Page) => page.getByLabel("State (optional)");
const city = (page: Page) => page.getByLabel("City (optional)");
const quantity = (page: Page) => page.getByLabel("Quantity", { exact: true });
const purchase = (page: Page) => page.getByRole("button", { name: "Purchase", exact: true });

async function optionTexts(page: Page, label: "Country" | "State (optional)" | "City (optional)"): Promise<string[]> {
  return page.getByLabel(label, { exact: true }).locator("option").allTextContents();
}

test.describe("Buy Proxies", () => {
  test("offers only places with stock, with counts; state and city follow the country", async ({ page }) => {
    const user = await createCustomer({ balanceCents: 10_000 });
    const here = uniqueCountry();
    const dcOnly = uniqueCountry();
    const taken = uniqueCountry();
    await addStock({ type: "RESIDENTIAL", country: here, state: "Bavaria", city: "Munich", count: 2 });
    await addStock({ type: "RESIDENTIAL", country: here, state: "Bavaria", city: "Nuremberg", count: 1 });
    await addStock({ type: "RESIDENTIAL", country: here, state: "Berlin", count: 2 });
    await addStock({ type: "RESIDENTIAL", country: here, count: 1 });
    await addStock({ type: "DATACENTER", country: dcOnly, count: 4 });
    // A country whose only proxy is not AVAILABLE is not offered.
    const [takenId] = await addStock({ type: "RESIDENTIAL", country: taken, count: 1 });
    await setStatusInConsole(takenId ?? "", "MAINTENANCE");

    const residential = await unitPrice(user, "RESIDENTIAL");
    const datacenter = await unitPrice(user, "DATACENTER");
    await signInAs(page, user, "/dashboard/buy-proxies");
    await expect(page.getByRole("heading", { name: "Buy Proxies", level: 1 })).toBeVisible();
    // Each type shows the server's unit price for 30 days.
    await expect(page.getByTestId("price-RESIDENTIAL")).toHaveText(`${formatCents(residential)} per proxy / 30 days`);
    await expect(page.getByTestId("price-DATACENTER")).toHaveText(`${formatCents(datacenter)} per proxy / 30 days`);

    await expect(country(page).locator("option", { hasText: `${here} (6 available)` })).toHaveCount(1);
    let countries = await optionTexts(page, "Country");
    expect(countries.some((t) => t.startsWith(dcOnly))).toBe(false);
    expect(countries.some((t) => t.startsWith(taken))).toBe(false);

    // State is disabled until a country is chosen; its states come with counts.
    await expect(state(page)).toBeDisabled();
    await expect(city(page)).toBeDisabled();
    await country(page).selectOption(here);
    await expect(state(page)).toBeEnabled();
    expect(await optionTexts(page, "State (optional)")).toEqual(["Any state", "Bavaria (3 available)", "Berlin (2 available)"]);
    await state(page).selectOption("Bavaria");
    expect(await optionTexts(page, "City (optional)")).toEqual(["Any city", "Munich (2 available)", "Nuremberg (1 available)"]);
    await city(page).selectOption("Munich");
    await expect(page.getByTestId("order-summary")).toContainText(`${here} / Bavaria / Munich`);

    // Changing the state clears the city; changing the country clears both.
    await state(page).selectOption("Berlin");
    await expect(city(page)).toHaveValue("");
    await state(page).selectOption("Bavaria");
    await city(page).selectOption("Nuremberg");
    await country(page).selectOption("");
    await expect(state(page)).toHaveValue("");
    await expect(city(page)).toHaveValue("");
    await expect(state(page)).toBeDisabled();

    // The other type offers its own stock.
    await page.getByRole("radio", { name: /^Datacenter/ }).check();
    await expect(country(page).locator("option", { hasText: `${dcOnly} (4 available)` })).toHaveCount(1);
    countries = await optionTexts(page, "Country");
    expect(countries.some((t) => t.startsWith(here))).toBe(false);

    // More than the place holds: said, and Purchase disabled.
    await country(page).selectOption(dcOnly);
    await quantity(page).fill("5");
    await expect(page.getByTestId("stock-short")).toHaveText(
      `Only 4 proxies are available in ${dcOnly}; lower the quantity or choose another location.`,
    );
    await expect(purchase(page)).toBeDisabled();
    await quantity(page).fill("4");
    await expect(page.getByTestId("stock-short")).toHaveCount(0);
    await expect(purchase(page)).toBeEnabled();
  });

  test("validation messages and the insufficient-balance text", async ({ page }) => {
    const { here, price } = await residentialShopper(page, 150, 5);
    await expect(page.getByTestId("balance")).toHaveText("$1.50");
    await expect(page.getByText("Insufficient Balance: You need to add credits")).toHaveCount(0);

    await quantity(page).fill("0");
    await expect(page.getByText("Quantity must be at least 1")).toBeVisible();
    await expect(purchase(page)).toBeDisabled();
    await quantity(page).fill("101");
    await expect(page.getByText("Maximum 100 proxies per purchase")).toBeVisible();
    await expect(purchase(page)).toBeDisabled();

    // Short of balance: the missing amount, Purchase disabled.
    await quantity(page).fill("3");
    await country(page).selectOption(here);
    await expect(page.getByTestId("order-total")).toHaveText(formatCents(3 * price));
    await expect(page.getByText(`Insufficient balance. Need ${formatCents(3 * price - 150)} more.`)).toBeVisible();
    await expect(purchase(page)).toBeDisabled();
  });

  test("a zero balance shows the banner with a link to Buy Credits", async ({ page }) => {
    const zero = await createCustomer();
    const price = await unitPrice(zero, "RESIDENTIAL");
    await signInAs(page, zero, "/dashboard/buy-proxies");
    const banner = page.getByTestId("zero-balance");
    await expect(banner).toContainText("Insufficient Balance: You need to add credits to your account before purchasing proxies.");
    await expect(banner.getByRole("link", { name: "Buy Credits" })).toHaveAttribute("href", "/dashboard/buy-credits");
    await expect(page.getByText(`Insufficient balance. Need ${formatCents(price)} more.`)).toBeVisible();
    await expect(purchase(page)).toBeDisabled();
  });

  test("the country is required", async ({ page }) => {
    const user = await createCustomer({ balanceCents: 5000 });
    await addStock({ type: "RESIDENTIAL", country: uniqueCountry(), count: 1 });
    await signInAs(page, user, "/dashboard/buy-proxies");
    await expect(country(page)).toBeEnabled();
    await purchase(page).click();
    await expect(page.getByText("Country is required")).toBeVisible();
    await expect(country(page)).toHaveAttribute("aria-invalid", "true");
    const su = await superuserClient();
    const orders = await su.collection("proxy_orders").getFullList({ filter: su.filter("user_id = {:id}", { id: user.id }) });
    expect(orders).toHaveLength(0);
  });

  test("buys proxies: assigned in the database, listed on the page, balance = ledger", async ({ page }) => {
    const user = await createCustomer({ balanceCents: 5000 });
    const here = uniqueCountry();
    const munich = await addStock({ type: "RESIDENTIAL", country: here, state: "Bavaria", city: "Munich", count: 3 });
    await addStock({ type: "RESIDENTIAL", country: here, state: "Berlin", count: 2 });
    const price = await unitPrice(user, "RESIDENTIAL");
    await signInAs(page, user, "/dashboard/buy-proxies");

    await country(page).selectOption(here);
    await state(page).selectOption("Bavaria");
    await city(page).selectOption("Munich");
    await quantity(page).fill("2");
    await expect(page.getByTestId("order-total")).toHaveText(formatCents(2 * price));
    await purchase(page).click();

    const result = page.getByTestId("purchase-result");
    await expect(result).toContainText(
      `Purchase complete: 2 Residential proxies in ${here} / Bavaria / Munich for ${formatCents(2 * price)}`,
    );
    await expect(result.getByRole("link", { name: /My Proxies/ })).toHaveAttribute("href", "/dashboard/proxies");

    const su = await superuserClient();
    const mine = await su.collection("proxies").getFullList({ filter: su.filter("assigned_to_user_id = {:id}", { id: user.id }) });
    expect(mine).toHaveLength(2);
    for (const proxy of mine) {
      expect(proxy["status"]).toBe("ASSIGNED");
      expect(munich).toContain(proxy.id);
      await expect(result.getByText(`${proxy["host"]}:${proxy["port"]}`, { exact: true })).toBeVisible();
    }
    await expect(result.getByText(/^Expires /)).toHaveCount(2);

    const ledger = await ledgerOf(user.id);
    expect(ledger.balance).toBe(5000 - 2 * price);
    expect(ledger.sum).toBe(ledger.balance);
    await expect(page.getByTestId("balance")).toHaveText(formatCents(5000 - 2 * price));
    // The stock was reloaded: one Munich proxy is left.
    await expect(country(page).locator("option", { hasText: `${here} (3 available)` })).toHaveCount(1);
  });

  test("sells every type with a plan: a SOCKS5 proxy in a country shown by its name", async ({ page }) => {
    const user = await createCustomer({ balanceCents: 5000 });
    // Norway (NO) with a state of this test's own, so its counts are exact.
    const here = `Oslo ${Date.now().toString(36)}${seq++}`;
    const ids = await addStock({ type: "SOCKS5", country: "NO", state: here, count: 2 });
    const price = await unitPrice(user, "SOCKS5");
    expect(price).toBeGreaterThan(0);
    await signInAs(page, user, "/dashboard/buy-proxies");

    const socks = page.getByRole("radio", { name: /^SOCKS5/ });
    await socks.check();
    await expect(page.getByTestId("price-SOCKS5")).toHaveText(`${formatCents(price)} per proxy / 30 days`);
    // The picker names the country; the bare code is no option's text.
    await expect(country(page).locator("option", { hasText: /^Norway \(\d+ available\)$/ })).toHaveCount(1);
    expect((await optionTexts(page, "Country")).some((t) => t.startsWith("NO "))).toBe(false);
    await country(page).selectOption("NO");
    await state(page).selectOption(here);
    await expect(page.getByTestId("order-summary")).toContainText(`Norway / ${here}`);
    await purchase(page).click();

    await expect(page.getByTestId("purchase-result")).toContainText(
      `Purchase complete: 1 SOCKS5 proxy in Norway / ${here} for ${formatCents(price)}`,
    );
    const su = await superuserClient();
    const mine = await su.collection("proxies").getFullList({ filter: su.filter("assigned_to_user_id = {:id}", { id: user.id }) });
    expect(mine.map((p) => [p["type"], p["country"], p["status"]])).toEqual([["SOCKS5", "NO", "ASSIGNED"]]);
    expect(ids).toContain(mine[0]!.id);
    expect((await ledgerOf(user.id)).balance).toBe(5000 - price);
  });

  test("a double click on Purchase buys once", async ({ page }) => {
    const { user, here, price } = await residentialShopper(page, 5000, 3);
    const calls = countRequests(page, "/api/v1/proxies/purchase");

    await country(page).selectOption(here);
    await purchase(page).dblclick();
    await expect(page.getByTestId("purchase-result")).toContainText("Purchase complete: 1 Residential proxy");
    await expect.poll(() => calls.answered()).toBe(calls.sent());

    const su = await superuserClient();
    const byUser = su.filter("user_id = {:id}", { id: user.id });
    expect(await su.collection("proxy_orders").getFullList({ filter: byUser })).toHaveLength(1);
    const purchases = await su.collection("transactions").getFullList({ filter: `${byUser} && type = "PROXY_PURCHASE"` });
    expect(purchases).toHaveLength(1);
    const assigned = await su.collection("proxies").getFullList({ filter: su.filter("assigned_to_user_id = {:id}", { id: user.id }) });
    expect(assigned).toHaveLength(1);
    expect((await ledgerOf(user.id)).balance).toBe(5000 - price);
  });

  test("server refusals are shown and charge nothing", async ({ page }) => {
    const user = await createCustomer({ balanceCents: 5000 });
    const here = uniqueCountry();
    const ids = await addStock({ type: "RESIDENTIAL", country: here, count: 2 });
    await signInAs(page, user, "/dashboard/buy-proxies");
    await country(page).selectOption(here);
    await quantity(page).fill("2");
    await expect(purchase(page)).toBeEnabled();

    // The stock goes while the customer looks at the form: 409, nothing charged, stock reloaded.
    const su = await superuserClient();
    await setStatusInConsole(ids[0] ?? "", "MAINTENANCE");
    await purchase(page).click();
    const alert = page.getByRole("alert");
    await expect(alert).toContainText("Not enough stock");
    await expect(alert).toContainText("Nothing was charged.");
    await expect(country(page).locator("option", { hasText: `${here} (1 available)` })).toHaveCount(1);
    expect(await ledgerOf(user.id)).toEqual({ balance: 5000, sum: 5000 });

    // The e-mail stops being verified behind the page's back: 403 shown, then the notice.
    await su.collection("users").update(user.id, { verified: false });
    await quantity(page).fill("1");
    await purchase(page).click();
    await expect(alert).toContainText("Please verify your email address before buying");
    await expect(alert).toContainText("Nothing was charged.");
    await expect(page.getByTestId("verify-email-notice")).toBeVisible();
    await expect(purchase(page)).toHaveCount(0);
    expect(await ledgerOf(user.id)).toEqual({ balance: 5000, sum: 5000 });
    const orders = await su.collection("proxy_orders").getFullList({ filter: su.filter("user_id = {:id}", { id: user.id }) });
    expect(orders).toHaveLength(0);
  });

  test("an unverified customer sees the notice instead of the Purchase button", async ({ page }) => {
    const user = await createCustomer({ balanceCents: 5000, verified: false });
    await addStock({ type: "RESIDENTIAL", country: uniqueCountry(), count: 1 });
    await signInAs(page, user, "/dashboard/buy-proxies");
    await expect(page.getByTestId("verify-email-notice")).toBeVisible();
    await expect(page.getByRole("button", { name: "Resend verification email" })).toBeVisible();
    await expect(purchase(page)).toHaveCount(0);
  });

  test("fits a 360 px screen with a receipt on it, and has no detectable accessibility violations", async ({ page }) => {
    const user = await createCustomer({ balanceCents: 5000 });
    const here = uniqueCountry();
    await addStock({ type: "DATACENTER", country: here, state: "Some Rather Long State Name", city: "Another Long City Name", count: 2 });
    await page.setViewportSize({ width: 360, height: 800 });
    await signInAs(page, user, "/dashboard/buy-proxies");
    await page.getByRole("radio", { name: /^Datacenter/ }).check();
    await country(page).selectOption(here);
    await state(page).selectOption("Some Rather Long State Name");
    await city(page).selectOption("Another Long City Name");
    await purchase(page).click();
    await expect(page.getByTestId("purchase-result")).toBeInViewport();
    await expectNoHorizontalScroll(page);
    await quantity(page).fill("0");
    await expect(page.getByText("Quantity must be at least 1")).toBeVisible();
    await expectNoAxeViolations(page);
  });
});
