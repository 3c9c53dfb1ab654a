// The console's Affiliate Management page end to end: a referred customer pays by Stripe (a
// payment written in data.db, support/payments.ts: test payments earn no commission) and the
// admin pays the referral on the page (the earnings move, the payout is audited; the
// affiliate's payout method shows; a referral below the $50.00 minimum payout has no Pay
// button); a later Stripe refund shows as a clawback and a legacy test-payment commission
// with a Test badge; a referral whose two accounts signed up from one address is flagged.
// Axe and a 360 px screen. The Audit Logs and Analytics pages are in console-insights.spec.ts.
import { randomUUID } from "node:crypto";
import { expect, test } from "@playwright/test";
import { createAdmin, createCustomer, signInAs, uniqueEmail, userClient } from "./support/customers.ts";
import { api } from "./support/api.ts";
import { legacyTestCommission, stripePayment, stripeRefund } from "./support/payments.ts";
import { superuserClient } from "./support/pocketbase.ts";
import { checkNarrowScreen, expectNoAxeViolations } from "./support/checks.ts";

test.describe.configure({ timeout: 90_000 });

test("an admin pays a referred customer's commission on the Affiliate Management page", async ({ page }) => {
  const su = await superuserClient();
  const owner = await createCustomer({ firstName: "Parker" });
  const affiliate = await su.collection("affiliates").getFirstListItem(su.filter("user_id = {:id}", { id: owner.id }));
  const code = affiliate["code"] as string;

  // The affiliate says how to pay them.
  const ownerPb = await userClient(owner);
  await ownerPb.send("/api/v1/affiliate/payout-method", { method: "PUT", body: { payout_method: "PayPal: parker@example.com" } });
  // The referred customer signs up with the code, verifies and pays 3 x $85.00 by Stripe
  // ($51.00 of commission: over the $50.00 minimum payout).
  const buyerEmail = uniqueEmail("buyer");
  const signup = await api<{ token: string; record: { id: string } }>("/api/shop/signup", {
    body: { first_name: "Blake", last_name: "Buyer", email: buyerEmail, country: "Germany", ref: code },
  });
  await su.collection("users").update(signup.record.id, { verified: true });
  for (let i = 0; i < 3; i++) stripePayment(signup.record.id, "package-100");
  // Another referral earns $2.00 only: below the minimum payout, it cannot be paid yet.
  const smallEmail = uniqueEmail("small-buyer");
  const small = await api<{ token: string; record: { id: string } }>("/api/shop/signup", {
    body: { first_name: "Sid", last_name: "Small", email: smallEmail, country: "Germany", ref: code },
  });
  await su.collection("users").update(small.record.id, { verified: true });
  stripePayment(small.record.id, "package-10");
  const buyerBalance = await su.collection("balances").getFirstListItem(su.filter("user_id = {:id}", { id: signup.record.id }));

  const admin = await createAdmin("Quinn");
  await page.setViewportSize({ width: 1280, height: 900 });
  await signInAs(page, admin, "/console/affiliates");
  await expect(page.getByRole("heading", { name: "Affiliate Management" })).toBeVisible();
  await expect(page.getByRole("group", { name: "Total Affiliates" })).toBeVisible();
  await expect(page.getByRole("group", { name: "Pending Payouts" })).not.toContainText("$0.00");

  await page.getByLabel("Search", { exact: true }).fill(owner.email);
  const row = page.getByTestId("affiliate-row");
  await expect(row).toHaveCount(1);
  await expect(row.getByRole("cell")).toHaveText(["Parker Customer", owner.email, code, /\$53\.00\s*\$53\.00 pending/, "2"]);

  await row.getByRole("button", { name: "Parker Customer" }).click();
  const panel = page.getByRole("region", { name: "Parker Customer" });
  await expect(panel.getByTestId("detail-total")).toHaveText("$53.00");
  await expect(panel.getByTestId("detail-pending")).toHaveText("$53.00");
  await expect(panel.getByTestId("detail-payout-method")).toHaveText("PayPal: parker@example.com");
  await expect(panel.getByTestId("referral-item")).toHaveCount(2);
  const smallReferral = panel.getByTestId("referral-item").filter({ hasText: smallEmail });
  await expect(smallReferral).toContainText("$2.00 pending");
  await expect(smallReferral).toContainText("Below the $50.00 minimum payout");
  await expect(smallReferral.getByRole("button", { name: /^Pay/ })).toHaveCount(0);
  const referral = panel.getByTestId("referral-item").filter({ hasText: buyerEmail });
  await expect(referral).toContainText("Blake Buyer");
  await expect(referral).toContainText(buyerEmail);
  await expect(referral).toContainText("Pending");

  await expectNoAxeViolations(page);
  await checkNarrowScreen(page);

  await referral.getByRole("button", { name: `Pay $51.00 for ${buyerEmail}` }).click();
  const dialog = page.getByRole("dialog", { name: "Pay commission" });
  await expect(dialog).toContainText(`Mark $51.00 of pending commission for ${buyerEmail} as paid?`);
  await expect(dialog).toContainText("PayPal: parker@example.com");
  await dialog.getByRole("button", { name: "Pay $51.00" }).click();
  await expect(dialog).toHaveCount(0);
  await expect(panel.getByRole("status")).toHaveText(`Paid $51.00 commission for ${buyerEmail}.`);
  await expect(panel.getByTestId("detail-pending")).toHaveText("$2.00");
  await expect(panel.getByTestId("detail-total")).toHaveText("$53.00");
  await expect(referral).toContainText("Paid");
  await expect(referral.getByRole("button", { name: /^Pay/ })).toHaveCount(0);
  await expect(row.getByRole("cell").nth(3)).toHaveText(/\$53\.00\s*\$2\.00 pending/);

  // Stored: earnings moved, commission and referral paid, one audit row, no balance changed.
  expect(await su.collection("affiliates").getOne(affiliate.id)).toMatchObject({ total_earnings_cents: 5300, pending_earnings_cents: 200 });
  const stored = await su.collection("referrals").getFirstListItem(su.filter("referred_user_id = {:id}", { id: signup.record.id }));
  expect(stored["status"]).toBe("paid");
  const commissions = await su.collection("commissions").getFullList({ filter: su.filter("referral_id = {:id}", { id: stored.id }) });
  expect(commissions.map((c) => [c["amount_cents"], c["status"]])).toEqual([
    [1700, "paid"],
    [1700, "paid"],
    [1700, "paid"],
  ]);
  const logs = await su
    .collection("audit_logs")
    .getFullList({ filter: su.filter("action = 'referrals.pay' && target_id = {:id}", { id: stored.id }) });
  expect(logs).toHaveLength(1);
  expect(logs[0]?.["details"]).toMatchObject({ amount_cents: 5100, referred_email: buyerEmail, affiliate_email: owner.email });
  const after = await su.collection("balances").getFirstListItem(su.filter("user_id = {:id}", { id: signup.record.id }));
  expect(after["balance_cents"]).toBe(buyerBalance["balance_cents"]);

  // The affiliate sees the payout on their own page.
  expect(await ownerPb.send("/api/v1/affiliate", {})).toMatchObject({ pending_earnings_cents: 200, paid_earnings_cents: 5100 });
});

test("finding 2 and 4: a Stripe refund after the payout shows as a clawback, a test payment's commission as Test and not owed", async ({
  page,
}) => {
  const su = await superuserClient();
  const owner = await createCustomer({ firstName: "Clove" });
  const affiliate = await su.collection("affiliates").getFirstListItem(su.filter("user_id = {:id}", { id: owner.id }));
  const buyerEmail = uniqueEmail("refunded-buyer");
  const signup = await api<{ token: string; record: { id: string } }>("/api/shop/signup", {
    body: { first_name: "Reese", last_name: "Refunded", email: buyerEmail, country: "Germany", ref: affiliate["code"] },
  });
  await su.collection("users").update(signup.record.id, { verified: true });
  // 3 x $85.00 by Stripe earn $51.00, which the admin pays out; then Stripe refunds one payment.
  const paymentId = stripePayment(signup.record.id, "package-100");
  stripePayment(signup.record.id, "package-100");
  stripePayment(signup.record.id, "package-100");
  const admin = await createAdmin("Sage");
  const adminPb = await userClient(admin);
  const referralRow = await su.collection("referrals").getFirstListItem(su.filter("referred_user_id = {:id}", { id: signup.record.id }));
  await adminPb.send(`/api/admin/referrals/${referralRow.id}/pay`, { method: "POST", headers: { "Idempotency-Key": randomUUID() } });
  stripeRefund(paymentId, 8500);
  // A $10.00 test-provider payment (no money moved), with the commission it earned before
  // test payments stopped earning (as the migration left it).
  const test = await api<{ payment: { id: string; provider: string } }>("/api/v1/credits/checkout", {
    token: signup.token,
    headers: { "Idempotency-Key": randomUUID() },
    body: { package_id: "package-10" },
  });
  expect(test.payment.provider).toBe("test");
  legacyTestCommission(test.payment.id);

  await page.setViewportSize({ width: 1280, height: 900 });
  await signInAs(page, admin, "/console/affiliates");
  await page.getByLabel("Search", { exact: true }).fill(owner.email);
  const row = page.getByTestId("affiliate-row");
  await expect(row).toHaveCount(1);
  await expect(row.getByTestId("affiliate-clawback")).toHaveText("$17.00 clawed back");
  await row.getByRole("button", { name: "Clove Customer" }).click();
  const panel = page.getByRole("region", { name: "Clove Customer" });
  await expect(panel.getByTestId("detail-total")).toHaveText("$34.00");
  await expect(panel.getByTestId("detail-pending")).toHaveText("-$17.00");
  await expect(panel.getByTestId("detail-clawback")).toContainText("$17.00 clawed back");
  const referral = panel.getByTestId("referral-item");
  await expect(referral).toHaveCount(1);
  await expect(referral.getByTestId("referral-clawback")).toContainText("$17.00 clawed back");
  await expect(referral.getByRole("button", { name: /^Pay/ })).toHaveCount(0);
  const testCommission = referral.getByTestId("referral-test-commission");
  await expect(testCommission.getByText("Test", { exact: true })).toBeVisible();
  await expect(testCommission).toContainText("$2.00 of commission from test payments (no money moved): not owed, never paid out.");
  await expectNoAxeViolations(page);
  await checkNarrowScreen(page);

  // Paying is refused: the clawback outweighs what is pending; nothing changes.
  const refused = await adminPb
    .send(`/api/admin/referrals/${referralRow.id}/pay`, { method: "POST", headers: { "Idempotency-Key": randomUUID() } })
    .catch((err: { status: number }) => err);
  expect((refused as { status: number }).status).toBe(409);
  expect(await su.collection("affiliates").getOne(affiliate.id)).toMatchObject({
    total_earnings_cents: 3400,
    pending_earnings_cents: -1700,
  });
});

test("a referral whose two accounts signed up from one address carries a warning badge (security review, finding 10)", async ({ page }) => {
  const su = await superuserClient();
  // Both sign up through the web server from this machine: the same client address.
  const ownerEmail = uniqueEmail("farm-owner");
  const owner = await api<{ record: { id: string } }>("/api/shop/signup", {
    body: { first_name: "Fern", last_name: "Farmer", email: ownerEmail, country: "Germany" },
  });
  const affiliate = await su.collection("affiliates").getFirstListItem(su.filter("user_id = {:id}", { id: owner.record.id }));
  const referredEmail = uniqueEmail("farm-referred");
  const referred = await api<{ record: { id: string } }>("/api/shop/signup", {
    body: { first_name: "Rory", last_name: "Referred", email: referredEmail, country: "Germany", ref: affiliate["code"] },
  });
  await su.collection("users").update(referred.record.id, { verified: true });

  const admin = await createAdmin("Harper");
  await signInAs(page, admin, "/console/affiliates");
  await page.getByLabel("Search", { exact: true }).fill(ownerEmail);
  const row = page.getByTestId("affiliate-row");
  await expect(row).toHaveCount(1);
  await row.getByRole("button", { name: "Fern Farmer" }).click();
  const referral = page.getByRole("region", { name: "Fern Farmer" }).getByTestId("referral-item");
  await expect(referral).toContainText(referredEmail);
  const flag = referral.getByTestId("referral-flag");
  await expect(flag).toHaveCount(1);
  await expect(flag).toContainText("Same sign-up address");
  await expect(flag).toContainText("The referrer and the referred customer signed up from the same network address.");
  await expectNoAxeViolations(page);
});
