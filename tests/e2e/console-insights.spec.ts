// The console's Audit Logs and Analytics pages end to end: a balance credit made by API shows
// on the audit log page with its details; analytics draws both charts, shows revenue by the
// money kept from Stripe payments with test payments apart, and the period selector changes
// the request. Axe and a 360 px screen on each page. Affiliate Management is in
// console-affiliates.spec.ts.
import { randomUUID } from "node:crypto";
import { expect, test } from "@playwright/test";
import { createAdmin, createCustomer, signInAs, userClient } from "./support/customers.ts";

import { superuserClient } from "./support/pocketbase.ts";
import { checkNarrowScreen, expectNoAxeViolations } from "./support/checks.ts";
import type { AnalyticsData } from "@/features/console-analytics/api";

test.describe.configure({ timeout: 90_000 });

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
    connections_refused: 3,
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
  // One count of connections (issue #28): the tile is the success rate's whole, refusals apart.
  expect(perf.traffic.connections).toBe(perf.connections_ok + perf.connections_failed);
  expect(perf.connections_refused).toBeGreaterThanOrEqual(3);
  await expect(page.getByTestId("perf-refused")).toHaveText(
    `${new Intl.NumberFormat("en-US").format(perf.connections_refused)} clients refused (407/429), not counted`,
  );
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
