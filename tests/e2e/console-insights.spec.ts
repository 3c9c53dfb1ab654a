// The console's Affiliate Management, Audit Logs and Analytics pages end to end: a referred
// customer pays by Stripe (a payment written in data.db, support/payments.ts: test payments
// earn no commission) and the admin pays the referral on the page (the earnings move, the
// payout is audited; the affiliate's payout method shows; a referral below the $50.00
// minimum payout has no Pay button); a later Stripe refund shows as a clawback and a legacy test-payment
// commission with a Test badge; a balance credit made by API shows on the audit log page
// with its details; analytics draws both charts, shows revenue by the money kept from Stripe
// payments with test payments apart, and the period selector changes the request. Axe and a
// 360 px screen on each page.
import { randomUUID } from "node:crypto";
import { expect, test, type Page } from "@playwright/test";
import { createAdmin, createCustomer, signInAs, uniqueEmail, userClient } from "./support/customers.ts";
import { api } from "./support/api.ts";
import { legacyTestCommission, stripePayment, stripeRefund } from "./support/payments.ts";
import { superuserClient } from "./support/pocketbase.ts";
import { expectNoAxeViolations, expectNoHorizontalScroll } from "./support/checks.ts";
import type { AnalyticsData } from "@/features/console-analytics/api";

test.describe.configure({ timeout: 90_000 });

async function checkNarrowScreen(page: Page): Promise<void> {
  await page.setViewportSize({ width: 360, height: 800 });
  await expectNoHorizontalScroll(page);
  await page.setViewportSize({ width: 1280, height: 900 });
}

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

test("the audit log page lists a balance credit just made, with its details", async ({ page }) => {
  const admin = await createAdmin("Morgan");
  const adminPb = await userClient(admin);
  const target = await createCustomer();
  const description = `Goodwill credit ${randomUUID().slice(0, 8)}`;
  await adminPb.send(`/api/admin/users/${target.id}/balance`, {
    method: "POST",
    headers: { "Idempotency-Key": randomUUID() },
    body: { transaction_type: "CREDIT", amount_cents: 1234, description },
  });
  await adminPb.send(`/api/admin/users/${target.id}/balance`, {
    method: "POST",
    headers: { "Idempotency-Key": randomUUID() },
    body: { transaction_type: "DEBIT", amount_cents: 34, description: "Correction" },
  });

  await page.setViewportSize({ width: 1280, height: 900 });
  await signInAs(page, admin, "/console/logs");
  await expect(page.getByRole("heading", { name: "Audit Logs" })).toBeVisible();
  // The gateway's measured uptime over the last 7 days (the same figure the server answers).
  const { uptime_percent } = await adminPb.send<{ uptime_percent: number | null }>("/api/admin/audit-logs/summary", {});
  await expect(page.getByTestId("audit-uptime")).toHaveText(uptime_percent === null ? "No data" : `${uptime_percent}%`);
  await expect(page.getByTestId("audit-today")).not.toHaveText("0");
  await expect(page.getByTestId("audit-entry").first()).toBeVisible();

  await page.getByLabel("Search", { exact: true }).fill(description);
  const entry = page.getByTestId("audit-entry");
  await expect(entry).toHaveCount(1);
  await expect(page.getByTestId("audit-count")).toHaveText("1 entry");
  await expect(entry.getByTestId("audit-action")).toHaveText("Users Balance Credit");
  await expect(entry.getByText("users", { exact: true })).toBeVisible();
  await expect(entry).toContainText("Morgan Admin");
  await expect(entry).toContainText(admin.email);
  await expect(entry.getByTestId("audit-target")).toHaveText(target.id.slice(0, 8));
  const details = entry.getByTestId("audit-details");
  await expect(details).toContainText(`"description": "${description}"`);
  await expect(details).toContainText(`"amount_cents": 1234`);
  await expect(details).toContainText(`"balance_after_cents": 1234`);

  // The action filter offers the actions in title case and filters on the server.
  await page.getByLabel("Action", { exact: true }).selectOption({ label: "Users Balance Debit" });
  await expect(page.getByText("No audit log entries found")).toBeVisible();
  await page.getByLabel("Action", { exact: true }).selectOption({ label: "Users Balance Credit" });
  await expect(entry).toHaveCount(1);

  await expectNoAxeViolations(page);
  await checkNarrowScreen(page);
});

test("analytics draws both charts, the gateway's real figures, and the period selector changes the request", async ({ page }) => {
  // The gateway's metering as it writes it: a gateway of this test reporting this hour (40
  // connections, 38 reached their target, most within 20 ms) and traffic now and in the
  // previous 30 days (issue #16).
  const su = await superuserClient();
  const hour = Math.floor(Date.now() / 3_600_000) * 3_600_000;
  const hourText = (ms: number) => new Date(ms).toISOString().replace("T", " ");
  const tag = randomUUID().slice(0, 8);
  await su.collection("gateway_stats").create({
    gateway: `e2e-${tag}`,
    hour: hourText(hour),
    connections_ok: 38,
    connections_failed: 2,
    connect_ms_histogram: [0, 0, 10, 20, 8, 0, 0, 0, 0, 0, 0, 0, 0],
    up_seconds: 60,
  });
  await su
    .collection("proxy_usage")
    .create({ proxy_id: `e2e${tag}`, hour: hourText(hour), bytes_up: 2048, bytes_down: 10240, connections: 38 });
  await su
    .collection("proxy_usage")
    .create({ proxy_id: `e2e${tag}`, hour: hourText(hour - 40 * 86_400_000), bytes_up: 1024, connections: 1 });

  const admin = await createAdmin("Rowan");
  await page.setViewportSize({ width: 1280, height: 900 });
  const first = page.waitForResponse((r) => r.url().includes("/api/admin/analytics?days=30"));
  await signInAs(page, admin, "/console/analytics");
  // The figures the page was answered (the gateway may flush more while the test runs).
  const shown = (await (await first).json()) as AnalyticsData;
  await expect(page.getByRole("heading", { name: "Analytics" })).toBeVisible();
  await expect(page.getByTestId("user-growth-chart").locator("canvas")).toHaveCount(1);
  await expect(page.getByTestId("revenue-chart").locator("canvas")).toHaveCount(1);

  // The cards match the server's all-time figures.
  const adminPb = await userClient(admin);
  const figures = await adminPb.send<{
    total_users: number;
    total_proxies: number;
    total_revenue_cents: number;
    test_payments_cents: number;
  }>("/api/admin/analytics", { query: { days: 30 } });
  await expect(page.getByTestId("card-users")).toHaveText(new Intl.NumberFormat("en-US").format(figures.total_users));
  await expect(page.getByTestId("card-proxies")).toHaveText(new Intl.NumberFormat("en-US").format(figures.total_proxies));
  // Total Revenue is the money kept from Stripe payments; the test payments of this run
  // (Buy Credits, the affiliate tests) are shown apart, labelled as no money moved.
  const usd = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" });
  await expect(page.getByTestId("card-revenue")).toHaveText(usd.format(figures.total_revenue_cents / 100));
  if (figures.test_payments_cents > 0) {
    await expect(page.getByTestId("analytics-test-payments")).toContainText(
      `Test payments (no money moved): ${usd.format(figures.test_payments_cents / 100)}, not counted in revenue.`,
    );
  }
  // Their captions are the server's comparison with the previous 30 days, no longer the
  // spec's fixed "+12%", "+8%", "+25%", "Stable".
  for (const [card, growth] of [
    ["Total Users", shown.growth.users],
    ["Total Revenue", shown.growth.revenue],
    ["Total Proxies", shown.growth.proxies],
    ["Avg Revenue/User", shown.growth.avg_revenue_per_user],
  ] as const) {
    await expect(page.getByRole("group", { name: card })).toContainText(growth.caption);
  }
  // Every account of this run signed up today: new against the previous 30 days.
  await expect(page.getByRole("group", { name: "Total Users" })).toContainText("New");

  // Performance Metrics: the gateway's figures of the period, as the server counted them.
  const perf = shown.performance;
  const oneDecimal = new Intl.NumberFormat("en-US", { maximumFractionDigits: 1 });
  expect(perf.connections_ok).toBeGreaterThanOrEqual(38);
  expect(perf.success_rate_percent).not.toBeNull();
  await expect(page.getByTestId("perf-success")).toHaveText(`${oneDecimal.format(perf.success_rate_percent!)}%`);
  await expect(page.getByRole("region", { name: "Performance Metrics" })).toContainText(
    `${new Intl.NumberFormat("en-US").format(perf.connections_ok)} of ${new Intl.NumberFormat("en-US").format(perf.connections_ok + perf.connections_failed)} connections reached their target`,
  );
  expect(perf.median_connect?.at_most_ms).toBeGreaterThan(0);
  await expect(page.getByTestId("perf-median")).toHaveText(`≤ ${perf.median_connect!.at_most_ms} ms`);
  expect(perf.uptime_percent).not.toBeNull();
  await expect(page.getByTestId("perf-uptime")).toHaveText(`${oneDecimal.format(perf.uptime_percent!)}%`);
  expect(perf.traffic.bytes).toBeGreaterThanOrEqual(12288);
  await expect(page.getByTestId("perf-traffic")).toHaveText(/^[\d,]+(\.\d)? (KB|MB|GB|TB)$/);
  await expect(page.getByTestId("perf-connections")).toHaveText(new Intl.NumberFormat("en-US").format(perf.traffic.connections));
  // Traffic of the previous 30 days (this test's row at least): a change or none, never "New".
  expect(perf.traffic_growth.caption).toMatch(/^([+-]\d{1,3}(,\d{3})*% vs previous 30 days|No change)$/);
  await expect(page.getByRole("region", { name: "Performance Metrics" })).toContainText(perf.traffic_growth.caption);
  const performance = page.getByRole("region", { name: "Performance Metrics" });
  await expect(performance).not.toContainText("45ms");
  // Today's sign-ups (this admin at least) are in the user growth data.
  await expect(page.getByTestId("user-growth-summary")).toContainText(/\d+ new users?/);

  const userGrowth = page.getByRole("region", { name: "User Growth" });
  await userGrowth.getByText("Show data").click();
  await expect(userGrowth.getByRole("row")).toHaveCount(31);

  const week = page.waitForRequest((r) => r.url().includes("/api/admin/analytics?days=7"));
  await page.getByLabel("Period", { exact: true }).selectOption({ label: "Last 7 days" });
  await week;
  await expect(performance).toContainText("The proxy gateway's metering, last 7 days");
  await expect(userGrowth.getByRole("row")).toHaveCount(8);
  await expect(page.getByTestId("user-growth-chart").locator("canvas")).toHaveCount(1);
  await expect(page.getByTestId("revenue-chart").locator("canvas")).toHaveCount(1);
  const revenue = page.getByRole("region", { name: "Daily Revenue" });
  await revenue.getByText("Show data").click();
  // Whole dollars in the daily revenue list.
  await expect(revenue.getByRole("row").nth(1).getByRole("cell").nth(1)).toHaveText(/^\$[\d,]+$/);

  await expectNoAxeViolations(page);
  await checkNarrowScreen(page);
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
