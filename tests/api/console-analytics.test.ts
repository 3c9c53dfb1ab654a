// The console's Analytics route (GET /api/admin/analytics) against a fresh shop with a
// known set of rows: users, money received, proxies and proxy usage, per UTC day. Who may
// call it is in console-insights.test.ts.
import type { AnalyticsData } from "@/features/console-analytics/api";
import { describe, expect, it } from "vitest";
import { adminGet } from "../support/admin.ts";
import { errorOf, fieldErrorsOf } from "../support/pocketbase.ts";
import { addStock, checkout, customer, purchase } from "../support/shop.ts";
import { useShop } from "../support/use-shop.ts";

const todayUtc = () => new Date().toISOString().slice(0, 10);

describe("GET /api/admin/analytics (a fresh shop with known rows)", () => {
  const shop = useShop({ ledger: false });

  it("counts users, money received (not credits or bonuses), proxies and proxy usage, per UTC day", async () => {
    const empty = await adminGet<AnalyticsData>(shop.admin, "/api/admin/analytics", { days: 7 });
    expect(empty).toMatchObject({ days: 7, total_users: 1, total_revenue_cents: 0, total_proxies: 0, avg_revenue_per_user_cents: 0 });

    // Three customers; an admin credit (not revenue), two paid checkouts with the test
    // provider (2400 + 1000, 2500 + 100 bonus + 1000 credited): test money, counted apart and
    // never as revenue (security review #13, finding 2; Stripe revenue is checked in
    // security-payments.test.ts), proxies bought with the credits.
    const a = await customer(shop, 5000);
    const b = await customer(shop);
    await customer(shop);
    await checkout(b.pb, "package-25");
    await checkout(b.pb, "package-10");
    await addStock(shop, { type: "RESIDENTIAL", country: "US", count: 3 });
    await addStock(shop, { type: "DATACENTER", country: "DE", count: 2 });
    await addStock(shop, { type: "SOCKS5", country: "FR", count: 1 });
    await purchase(a.pb, { type: "RESIDENTIAL", country: "US", quantity: 2 });
    await purchase(b.pb, { type: "DATACENTER", country: "DE", quantity: 1 });

    const week = await adminGet<AnalyticsData>(shop.admin, "/api/admin/analytics", { days: 7 });
    expect(week).toMatchObject({
      days: 7,
      total_users: 4,
      total_revenue_cents: 0,
      test_payments_cents: 3400,
      total_proxies: 6,
      avg_revenue_per_user_cents: 0,
      period_new_users: 4,
      period_revenue_cents: 0,
    });
    expect(week.user_growth).toHaveLength(7);
    expect(week.revenue).toHaveLength(7);
    const today = todayUtc();
    expect(week.user_growth.at(-1)).toEqual({ date: today, count: 4 });
    expect(week.revenue.at(-1)).toEqual({ date: today, cents: 0 });
    expect(week.user_growth.slice(0, 6).every((d) => d.count === 0)).toBe(true);
    expect(week.revenue.slice(0, 6).every((d) => d.cents === 0)).toBe(true);
    // Consecutive UTC days, oldest first.
    const dates = week.user_growth.map((d) => d.date);
    expect(dates).toEqual([...dates].sort());
    expect(new Set(dates).size).toBe(7);
    expect(Date.parse(`${today}T00:00:00Z`) - Date.parse(`${dates[0]}T00:00:00Z`)).toBe(6 * 86_400_000);
    expect(week.revenue.map((d) => d.date)).toEqual(dates);

    expect(week.proxy_usage.by_type).toEqual({ RESIDENTIAL: 2, DATACENTER: 1, SOCKS5: 0, HTTP: 0, HTTPS: 0 });
    expect(week.proxy_usage.by_country).toEqual([
      { country: "US", count: 2 },
      { country: "DE", count: 1 },
    ]);

    for (const days of [30, 90]) {
      const period = await adminGet<AnalyticsData>(shop.admin, "/api/admin/analytics", { days });
      expect(period.days).toBe(days);
      expect(period.user_growth).toHaveLength(days);
      expect(period.revenue).toHaveLength(days);
      expect(period.revenue.at(-1)).toEqual({ date: today, cents: 0 });
      expect(period.total_revenue_cents).toBe(0);
    }
    // No days: the last 30.
    expect((await adminGet<AnalyticsData>(shop.admin, "/api/admin/analytics")).days).toBe(30);
  });

  it("lists the top 5 countries by proxies in customers' hands", async () => {
    const buyer = await customer(shop, 100_000);
    const counts: [string, number][] = [
      ["JP", 6],
      ["BR", 5],
      ["AU", 4],
      ["CA", 3],
      ["UK", 3],
      ["FR", 1],
    ];
    for (const [country, n] of counts) {
      await addStock(shop, { type: "DATACENTER", country, count: n });
      await purchase(buyer.pb, { type: "DATACENTER", country, quantity: n });
    }
    const result = await adminGet<AnalyticsData>(shop.admin, "/api/admin/analytics", { days: 7 });
    expect(result.proxy_usage.by_country).toEqual([
      { country: "JP", count: 6 },
      { country: "BR", count: 5 },
      { country: "AU", count: 4 },
      { country: "CA", count: 3 },
      { country: "UK", count: 3 },
    ]);
    expect(result.proxy_usage.by_type["DATACENTER"]).toBe(23);
  });

  it("accepts only 7, 30 or 90 days", async () => {
    for (const days of ["0", "14", "abc", "7.0", "-7", "365"]) {
      const err = await errorOf(() => adminGet(shop.admin, "/api/admin/analytics", { days }));
      expect(err.status, days).toBe(400);
      expect(fieldErrorsOf(err)).toEqual({ days: { code: "validation_invalid_period", message: "Days must be 7, 30 or 90." } });
    }
  });
});
