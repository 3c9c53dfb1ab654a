// Buy Credits (/dashboard/buy-credits) and the live overview balance, end to end in
// Chromium against the real shop with its embedded test payment provider: a purchase
// credits the ledger (credits + bonus), the payments row is paid at the package price, a
// double click buys once, the Stripe return page reads the payment, unverified customers
// get the notice and a real verification mail, and /dashboard follows admin credits live.
import { expect, test, type Page } from "@playwright/test";
import { waitForMail } from "../support/smtp-sink.ts";
import { addStock, adjustBalance, createCustomer, ledgerOf, open, signInAs, userClient } from "./support/customers.ts";
import { mailbox } from "./support/mailbox.ts";
import { setE2eProxyColumns, superuserClient } from "./support/pocketbase.ts";
import { expectNoAxeViolations, expectNoHorizontalScroll } from "./support/checks.ts";
import { countRequests } from "./support/requests.ts";

// Each journey signs in through /login and arranges data over HTTP: on the shared 2-core
// machine that can take longer than the default 30 s.
test.describe.configure({ timeout: 60_000 });

const card = (page: Page, id: string) => page.getByTestId(`package-${id}`);

/** Buys a package through the API as the customer (the test provider pays at once). */
async function checkoutAs(user: { email: string; password: string }, packageId: string): Promise<{ id: string; status: string }> {
  const pb = await userClient(user);
  const bought = await pb.send<{ payment: { id: string; status: string } }>("/api/v1/credits/checkout", {
    method: "POST",
    body: { package_id: packageId },
    headers: { "Idempotency-Key": crypto.randomUUID() },
  });
  expect(bought.payment.status).toBe("paid");
  return bought.payment;
}

async function paymentsOf(userId: string) {
  const su = await superuserClient();
  return su.collection("payments").getFullList({ filter: su.filter("user_id = {:id}", { id: userId }), sort: "created" });
}

async function creditsOf(userId: string) {
  const su = await superuserClient();
  return su.collection("transactions").getFullList({ filter: su.filter('user_id = {:id} && type = "CREDIT"', { id: userId }) });
}

test.describe("Buy Credits", () => {
  test("buys a package with the test provider: balance, payment row and ledger", async ({ page }) => {
    const user = await createCustomer({ balanceCents: 500 });
    await signInAs(page, user, "/dashboard/buy-credits");
    await expect(page.getByRole("heading", { name: "Buy Credits", level: 1 })).toBeVisible();
    await expect(page.getByText("Test mode: no real money moves. Purchases complete at once.")).toBeVisible();
    await expect(page.getByText("Credits are delivered instantly and never expire.")).toBeVisible();
    await expect(page.getByTestId("balance")).toHaveText("$5.00");

    // Four packages from the server; package-50 is the popular one.
    await expect(page.locator('[data-testid^="package-"]')).toHaveCount(4);
    await expect(card(page, "package-50").getByText("Most Popular")).toBeVisible();
    await expect(card(page, "package-25").getByText("Most Popular")).toHaveCount(0);
    const p25 = card(page, "package-25");
    await expect(p25.getByRole("heading", { name: "$25.00 Credits" })).toBeVisible();
    // One plain line: what you pay, the credits, the bonus on top (issue #28).
    await expect(p25.getByTestId("credit-line")).toHaveText("You pay $24.00 and get $25.00 in credits + $1.00 bonus.");

    await p25.getByRole("button", { name: "Purchase" }).click();
    const status = page.getByTestId("payment-status");
    await expect(status).toHaveAttribute("data-phase", "paid");
    await expect(status).toContainText("You paid $24.00: $25.00 in credits + $1.00 bonus were added to your balance.");
    await expect(p25.getByRole("button", { name: "Purchased" })).toBeVisible();
    await expect(page.getByTestId("balance")).toHaveText("$31.00");

    const ledger = await ledgerOf(user.id);
    expect(ledger).toEqual({ balance: 500 + 2500 + 100, sum: 500 + 2500 + 100 });
    const payments = await paymentsOf(user.id);
    expect(payments).toHaveLength(1);
    const payment = payments[0];
    expect(payment?.["status"]).toBe("paid");
    expect(payment?.["amount_cents"]).toBe(2400);
    expect(payment?.["provider"]).toBe("test");
    const credits = (await creditsOf(user.id)).filter((t) => String(t["reference"]).endsWith(`:${payment?.id}`));
    expect(credits.map((t) => t["amount_cents"]).sort((a, b) => a - b)).toEqual([100, 2500]);
  });

  test("the return address (as from Stripe) shows the payment's status", async ({ page }) => {
    const user = await createCustomer();
    const payment = await checkoutAs(user, "package-25");
    await signInAs(page, user, `/dashboard/buy-credits?payment=${payment.id}&session_id=cs_test_e2e`);
    const status = page.getByTestId("payment-status");
    await expect(status).toHaveAttribute("data-phase", "paid");
    await expect(status).toContainText("You paid $24.00: $25.00 in credits + $1.00 bonus were added to your balance.");
    // A cancel link for a payment that is paid anyway still says paid.
    await open(page, `/dashboard/buy-credits?payment=${payment.id}&canceled=1`);
    await expect(status).toHaveAttribute("data-phase", "paid");
    await status.getByRole("button", { name: "Dismiss" }).click();
    await expect(status).toHaveCount(0);
    await expect(page).toHaveURL(/\/dashboard\/buy-credits$/);
  });

  test("someone else's payment is not shown", async ({ page }) => {
    // Another customer buys through the API; this customer opens the return address with that payment.
    const payment = await checkoutAs(await createCustomer(), "package-10");
    const user = await createCustomer();
    await signInAs(page, user, `/dashboard/buy-credits?payment=${payment.id}&session_id=x`);
    await expect(page.getByText("We could not find this payment in your account.")).toBeVisible();
    await expect(page.getByTestId("payment-status")).toHaveCount(0);
    await expect(page.getByTestId("balance")).toHaveText("$0.00");
  });

  test("a double click on Purchase buys once", async ({ page }) => {
    const user = await createCustomer();
    await signInAs(page, user, "/dashboard/buy-credits");
    const calls = countRequests(page, "/api/v1/credits/checkout");
    await card(page, "package-10").getByRole("button", { name: "Purchase" }).dblclick();
    await expect(page.getByTestId("payment-status")).toHaveAttribute("data-phase", "paid");
    await expect.poll(() => calls.answered()).toBe(calls.sent());
    expect(await paymentsOf(user.id)).toHaveLength(1);
    expect(await creditsOf(user.id)).toHaveLength(1);
    expect(await ledgerOf(user.id)).toEqual({ balance: 1000, sum: 1000 });
    await expect(page.getByTestId("balance")).toHaveText("$10.00");
  });

  test("an unverified customer sees the notice, cannot buy, and can ask for a new link", async ({ page }) => {
    const user = await createCustomer({ verified: false });
    await signInAs(page, user, "/dashboard/buy-credits");
    await expect(page.getByTestId("verify-email-notice")).toBeVisible();
    await expect(page.locator('[data-testid^="package-"]')).toHaveCount(4);
    for (const button of await page.getByRole("button", { name: "Purchase" }).all()) await expect(button).toBeDisabled();

    const since = Date.now();
    await page.getByRole("button", { name: "Resend verification email" }).click();
    await expect(page.getByText(`We sent a new verification link to ${user.email}.`)).toBeVisible();
    const mail = await waitForMail(mailbox(), user.email, /verify/i, { after: since });
    expect(mail.subject).toMatch(/verify/i);
    expect(await paymentsOf(user.id)).toHaveLength(0);
  });

  test("fits a 360 px screen and has no detectable accessibility violations", async ({ page }) => {
    const user = await createCustomer();
    await page.setViewportSize({ width: 360, height: 800 });
    await signInAs(page, user, "/dashboard/buy-credits");
    await card(page, "package-100").getByRole("button", { name: "Purchase" }).click();
    await expect(page.getByTestId("payment-status")).toHaveAttribute("data-phase", "paid");
    await expectNoHorizontalScroll(page);
    await expectNoAxeViolations(page);
  });
});

test.describe("Overview", () => {
  test("the balance changes live when an admin credits the customer", async ({ page }) => {
    const user = await createCustomer({ balanceCents: 1000 });
    await signInAs(page, user, "/dashboard");
    const balance = page.getByTestId("overview-balance");
    await expect(balance).toHaveText("$10.00");
    await expect(page.getByRole("link", { name: /View all: Recent Transactions/ })).toHaveAttribute("href", "/dashboard/transactions");
    await expect(page.getByRole("link", { name: /View all: Active Proxies/ })).toHaveAttribute("href", "/dashboard/proxies");

    await adjustBalance(user.id, 2345, "Goodwill credit from e2e");
    await expect(balance).toHaveText("$33.45");
    // The lists behind the balance follow too (no reload).
    await expect(page.getByText("Goodwill credit from e2e")).toBeVisible();
    expect(await ledgerOf(user.id)).toEqual({ balance: 3345, sum: 3345 });
  });

  test("fits a 360 px screen with proxies listed", async ({ page }) => {
    const user = await createCustomer({ balanceCents: 5000 });
    const su = await superuserClient();
    const [id] = await addStock({ type: "RESIDENTIAL", country: "DE", count: 1 });
    await su.collection("proxies").update(id ?? "", { host: `a-very-long-proxy-host-name-${Date.now()}.residential.e2e.test` });
    setE2eProxyColumns([id ?? ""], { status: "ASSIGNED", assigned_to_user_id: user.id });
    await page.setViewportSize({ width: 360, height: 800 });
    await signInAs(page, user, "/dashboard");
    // The Active Proxies list (Testing Your Proxies shows the host in its command too).
    const active = page.getByRole("region", { name: "Active Proxies" });
    await expect(active.getByText(/a-very-long-proxy-host-name/)).toBeVisible();
    await expectNoHorizontalScroll(page);
  });
});
