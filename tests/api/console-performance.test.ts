// The console's real performance figures (issue #16): Analytics' Performance Metrics and
// growth captions, and the Overview's gateway line and traffic notice, from the gateway's
// metering (gateway_stats, proxy_usage rows written here as the superuser through the
// records API, as the gateway's own rows look) and from rows moved into the previous period
// (users' and proxies' creation, payments' paid_at, written in data.db). Each shop starts
// empty: first the "no data" answers, then exact figures.
import type { AnalyticsData, Growth } from "@/features/console-analytics/api";
import type { AdminOverview } from "@/features/console-overview/api";
import type PocketBase from "pocketbase";
import { describe, expect, it } from "vitest";
import { adminGet } from "../support/admin.ts";
import { setColumns } from "../support/proxy-columns.ts";
import { addStock, checkout, customer, DAY, iso } from "../support/shop.ts";
import { hourText } from "../support/usage-rows.ts";
import { useShop } from "../support/use-shop.ts";

const HOUR = 3_600_000;

/** Rows are written for the current hour: never start within a minute of its end. */
async function clearOfTheHourEnd(): Promise<void> {
  const left = HOUR - (Date.now() % HOUR);
  if (left < 60_000) await new Promise((resolve) => setTimeout(resolve, left + 1_000));
}

/** A histogram of the 13 connect-time buckets with `counts` at the given indexes. */
function histogram(counts: Record<number, number>): number[] {
  return Array.from({ length: 13 }, (_, i) => counts[i] ?? 0);
}

async function statsRow(
  su: PocketBase,
  row: { gateway: string; hour: number; ok?: number; failed?: number; refused?: number; histogram?: number[]; up: number },
): Promise<void> {
  await su.collection("gateway_stats").create({
    gateway: row.gateway,
    hour: hourText(row.hour),
    connections_ok: row.ok ?? 0,
    connections_failed: row.failed ?? 0,
    connections_refused: row.refused ?? 0,
    connect_ms_histogram: row.histogram ?? histogram({}),
    up_seconds: row.up,
  });
}

async function usageRow(
  su: PocketBase,
  row: { proxy: string; hour: number; up: number; down: number; connections: number; failed?: number },
): Promise<void> {
  await su.collection("proxy_usage").create({
    proxy_id: row.proxy,
    user_id: "",
    hour: hourText(row.hour),
    bytes_up: row.up,
    bytes_down: row.down,
    connections: row.connections,
    failed_connections: row.failed ?? 0,
  });
}

const noChange = (n = 0): Growth => ({ current: n, previous: n, change_percent: 0, caption: "No change" });

/**
 * The Overview's gateway_today: `up` and `down` bytes, `ok` and `failed` connections (the one
 * count, issue #28: connections = ok + failed), `refused` clients apart, `rate`% of them good.
 */
function gatewayDay(day: { up: number; down: number; ok: number; failed: number; refused: number; rate: number | null }) {
  const { up, down, ok, failed, refused, rate } = day;
  const bytes = { bytes_up: up, bytes_down: down, bytes: up + down };
  const connections = { connections: ok + failed, failed_connections: failed, connections_ok: ok, connections_failed: failed };
  return { ...bytes, ...connections, connections_refused: refused, success_rate_percent: rate } satisfies AdminOverview["gateway_today"];
}

describe("performance figures from the gateway's metering (GET /api/admin/analytics)", () => {
  const shop = useShop({ ledger: false });

  it("says there is no data on an empty shop instead of inventing figures", async () => {
    const week = await adminGet<AnalyticsData>(shop.admin, "/api/admin/analytics", { days: 7 });
    expect(week.performance).toEqual({
      connections_ok: 0,
      connections_failed: 0,
      connections_refused: 0,
      success_rate_percent: null,
      connect_ms_histogram: histogram({}),
      median_connect: null,
      uptime_percent: null,
      gateways: [],
      traffic: { bytes_up: 0, bytes_down: 0, bytes: 0, connections: 0, failed_connections: 0 },
      traffic_growth: noChange(),
      connections_growth: noChange(),
    });
    // The only account is the admin, made now: new in this period, none in the previous one.
    expect(week.growth).toEqual({
      users: { current: 1, previous: 0, change_percent: null, caption: "New" },
      revenue: noChange(),
      proxies: noChange(),
      avg_revenue_per_user: noChange(),
    });

    const overview = await adminGet<AdminOverview>(shop.admin, "/api/admin/overview");
    expect(overview.gateway_today).toEqual(gatewayDay({ up: 0, down: 0, ok: 0, failed: 0, refused: 0, rate: null }));
    expect(overview.traffic_month).toEqual(noChange());
  });

  it("answers the success rate, median connect time, each gateway's uptime, traffic and growth against the previous period", async () => {
    await clearOfTheHourEnd();
    const now = Date.now();
    const hour = Math.floor(now / HOUR) * HOUR;
    const today = Math.floor(now / DAY) * DAY;
    const start = today - 6 * DAY; // the 7-day period's first UTC day
    const inPrevious = start - DAY; // the previous period is as long, just before it
    const su = shop.su;

    // gw-a reported first in the previous period (not counted now), then in two hours of this one.
    await statsRow(su, { gateway: "gw-a", hour: start - 2 * DAY, ok: 10, failed: 5, histogram: histogram({ 12: 10 }), up: 1800 });
    await statsRow(su, { gateway: "gw-a", hour: start, ok: 300, failed: 10, histogram: histogram({ 2: 100, 3: 200 }), up: 3600 });
    await statsRow(su, {
      gateway: "gw-a",
      hour: hour - HOUR,
      ok: 670,
      failed: 20,
      refused: 4,
      histogram: histogram({ 4: 150, 5: 200, 6: 200, 7: 100, 8: 20 }),
      up: 3600,
    });
    // gw-b started 10 minutes ago (its first row is this hour's).
    await statsRow(su, { gateway: "gw-b", hour, up: 600 });

    await usageRow(su, { proxy: "p1", hour: start + HOUR, up: 1000, down: 9000, connections: 5, failed: 1 });
    await usageRow(su, { proxy: "p2", hour, up: 500, down: 1500, connections: 3 });
    await usageRow(su, { proxy: "p1", hour: inPrevious, up: 2000, down: 2000, connections: 4 });

    // Accounts: the admin and two customers new in this period, two in the previous one.
    const a = await customer(shop);
    await customer(shop);
    const c = await customer(shop);
    const d = await customer(shop);
    setColumns(shop.tpb, "users", [c.id, d.id], { created: iso(inPrevious) });
    // Money kept (Stripe payments): 2400 paid now, 1000 in the previous period.
    const paidNow = await checkout(a.pb, "package-25");
    const paidBefore = await checkout(c.pb, "package-10");
    expect([paidNow.payment.amount_cents, paidBefore.payment.amount_cents]).toEqual([2400, 1000]);
    setColumns(shop.tpb, "payments", [paidNow.payment.id], { provider: "stripe", paid_at: iso(now) });
    setColumns(shop.tpb, "payments", [paidBefore.payment.id], { provider: "stripe", paid_at: iso(inPrevious) });
    // Proxies: 4 added in this period, 2 in the previous one.
    await addStock(shop, { type: "DATACENTER", country: "DE", count: 4 });
    const older = await addStock(shop, { type: "DATACENTER", country: "DE", count: 2 });
    setColumns(shop.tpb, "proxies", older, { created: iso(inPrevious) });

    const week = await adminGet<AnalyticsData>(shop.admin, "/api/admin/analytics", { days: 7 });
    const perf = week.performance;
    // 970 reached their target, 30 failed: 97%. Half of the 970 timed connections (485) had
    // connected by the 50 ms bucket (100 + 200 + 150 + 200 = 650; 450 by 20 ms).
    expect(perf.connections_ok).toBe(970);
    expect(perf.connections_failed).toBe(30);
    expect(perf.success_rate_percent).toBe(97);
    expect(perf.connect_ms_histogram).toEqual([0, 0, 100, 200, 150, 200, 200, 100, 20, 0, 0, 0, 0]);
    expect(perf.median_connect).toEqual({ at_most_ms: 50, over_ms: null });

    // Uptime: gw-a was up 2 of the period's hours so far (it reported before the period, so
    // the whole period counts); gw-b every second since it started. The figure is their average.
    expect(perf.gateways.map((g) => g.gateway)).toEqual(["gw-a", "gw-b"]);
    const [gwA, gwB] = perf.gateways;
    expect(gwA).toMatchObject({ gateway: "gw-a", up_seconds: 7200, since: iso(start) });
    expect(Math.abs(gwA!.seconds - (Date.now() - start) / 1000)).toBeLessThan(10);
    expect(gwA!.uptime_percent).toBe(Math.round((7200 / gwA!.seconds) * 1000) / 10);
    expect(gwA!.uptime_percent).toBeLessThan(1.5); // 2 h of at least 6 days
    expect(gwB).toMatchObject({ gateway: "gw-b", up_seconds: 600, seconds: 600, uptime_percent: 100 });
    expect(perf.uptime_percent).toBe(Math.round(((gwA!.uptime_percent! + 100) / 2) * 10) / 10);

    // Traffic: 12,000 bytes now, 4,000 before. Connections are counted one way (issue #28): the
    // gateways' attempts, 970 reached + 30 failed = 1,000 now against 10 + 5 before, whatever
    // proxy_usage's own per-proxy counts say; the 4 clients refused (407/429) stand apart.
    expect(perf.traffic).toEqual({ bytes_up: 1500, bytes_down: 10500, bytes: 12000, connections: 1000, failed_connections: 30 });
    expect(perf.connections_refused).toBe(4);
    expect(perf.traffic_growth).toEqual({ current: 12000, previous: 4000, change_percent: 200, caption: "+200% vs previous 7 days" });
    expect(perf.connections_growth).toEqual({ current: 1000, previous: 15, change_percent: 6567, caption: "+6,567% vs previous 7 days" });

    // Cards: 3 new accounts against 2 (+50%), $24.00 kept against $10.00 (+140%), 4 proxies
    // added against 2 (+100%), revenue per account 2400 / 5 = 480 against 1000 / 2 = 500 (-4%).
    expect(week).toMatchObject({ total_users: 5, total_revenue_cents: 3400, total_proxies: 6, period_new_users: 3 });
    expect(week.growth).toEqual({
      users: { current: 3, previous: 2, change_percent: 50, caption: "+50% vs previous 7 days" },
      revenue: { current: 2400, previous: 1000, change_percent: 140, caption: "+140% vs previous 7 days" },
      proxies: { current: 4, previous: 2, change_percent: 100, caption: "+100% vs previous 7 days" },
      avg_revenue_per_user: { current: 480, previous: 500, change_percent: -4, caption: "-4% vs previous 7 days" },
    });

    // 90 days: everything is in the period, nothing before it. gw-a's first row (5 failed of
    // 15, all slower than 5 s) now counts: 980 of 1015 (96.55%), and the median is unchanged.
    const quarter = await adminGet<AnalyticsData>(shop.admin, "/api/admin/analytics", { days: 90 });
    expect(quarter.performance).toMatchObject({
      connections_ok: 980,
      connections_failed: 35,
      success_rate_percent: 96.6,
      median_connect: { at_most_ms: 50, over_ms: null },
      traffic: { bytes: 16000, connections: 1015, failed_connections: 35 },
      traffic_growth: { current: 16000, previous: 0, change_percent: null, caption: "New" },
    });
    // gw-a has reported since the end of its first hour minus its 1800 up seconds.
    expect(quarter.performance.gateways[0]).toMatchObject({ gateway: "gw-a", up_seconds: 9000, since: iso(start - 2 * DAY + 1_800_000) });
    expect(quarter.growth.users).toEqual({ current: 5, previous: 0, change_percent: null, caption: "New" });
  });

  it("puts the median in the open last bucket when most connections took over 5 s", async () => {
    // More connections slower than 5 s (two hours ago) than all the timed ones above together.
    const before = await adminGet<AnalyticsData>(shop.admin, "/api/admin/analytics", { days: 90 });
    const timed = before.performance.connect_ms_histogram.reduce((sum, n) => sum + n, 0);
    const twoHoursAgo = Math.floor(Date.now() / HOUR) * HOUR - 2 * HOUR;
    await statsRow(shop.su, { gateway: "gw-slow", hour: twoHoursAgo, ok: timed + 1, histogram: histogram({ 12: timed + 1 }), up: 3600 });
    const after = await adminGet<AnalyticsData>(shop.admin, "/api/admin/analytics", { days: 90 });
    expect(after.performance.median_connect).toEqual({ at_most_ms: null, over_ms: 5000 });
  });
});

describe("the Overview's gateway figures (GET /api/admin/overview)", () => {
  const shop = useShop({ ledger: false });

  it("counts today's connections, traffic and success rate, and this month's traffic against the same days of last month", async () => {
    await clearOfTheHourEnd();
    const now = Date.now();
    const hour = Math.floor(now / HOUR) * HOUR;
    const today = Math.floor(now / DAY) * DAY;
    const date = new Date(now);
    const lastMonthStart = Date.UTC(date.getUTCFullYear(), date.getUTCMonth() - 1, 1);

    await statsRow(shop.su, { gateway: "gw-a", hour, ok: 6, failed: 2, refused: 3, histogram: histogram({ 3: 6 }), up: 60 });
    // Yesterday's connections are not today's.
    await statsRow(shop.su, { gateway: "gw-a", hour: today - HOUR, ok: 100, failed: 0, histogram: histogram({ 3: 100 }), up: 3600 });
    // proxy_usage's per-proxy count differs (5): the Overview counts connections as Analytics does.
    await usageRow(shop.su, { proxy: "p1", hour, up: 1000, down: 2000, connections: 5, failed: 2 });
    // The first hour of last month is within the same days of last month, whatever today is.
    await usageRow(shop.su, { proxy: "p1", hour: lastMonthStart, up: 500, down: 1500, connections: 1 });

    const overview = await adminGet<AdminOverview>(shop.admin, "/api/admin/overview");
    expect(overview.gateway_today).toEqual(gatewayDay({ up: 1000, down: 2000, ok: 6, failed: 2, refused: 3, rate: 75 }));
    expect(overview.traffic_month).toEqual({
      current: 3000,
      previous: 2000,
      change_percent: 50,
      caption: "+50% vs the same days of last month",
    });

    // Another 20,000 bytes this hour: 23,000 against 2,000, the percentage grouped by thousands.
    await usageRow(shop.su, { proxy: "p2", hour, up: 0, down: 20_000, connections: 1 });
    const later = await adminGet<AdminOverview>(shop.admin, "/api/admin/overview");
    expect(later.traffic_month).toEqual({
      current: 23_000,
      previous: 2000,
      change_percent: 1050,
      caption: "+1,050% vs the same days of last month",
    });
  });
});
