// Usage and limits where customers and admins see them (issue #16): GET
// /api/v1/proxies/{id}/usage (the owner's hourly rows, totals and this month; admins every
// row; 404 for anyone else; ranges checked), GET /api/v1/proxies/usage-summary (My Proxies'
// month figures in one request), the console's proxy detail, the admin's limits on a proxy
// (audited) and on a plan (copied onto the proxies a purchase assigns, kept by renewals), and
// the gateway refusing a proxy whose plan's monthly quota the month's usage rows used up
// (usage-quota.test.ts).
import type { AdminProxyDetail } from "@/features/console-proxies/api";
import type { PurchaseResult } from "@/features/buy-proxies/api";
import { describe, expect, it } from "vitest";
import { adminSend } from "../support/admin.ts";
import { errorOf, fieldErrorsOf } from "../support/pocketbase.ts";
import { addStock, customer, post, proxyBuyer, purchase, setProxyColumns, type Shop } from "../support/shop.ts";
import { useShop } from "../support/use-shop.ts";
import { insertUsageRows } from "../support/usage-rows.ts";
import { proxyConsole } from "./cases/console-proxies-kit.ts";
import { dbDate, GB, HOUR, hourIso, monthStart, nextMonth, type Month, type Totals, type Usage } from "./cases/usage-kit.ts";

describe("usage of a proxy", () => {
  const shop = useShop();
  const { edit, detail, audits, tag } = proxyConsole(shop);
  const usage = (pb: Shop["admin"], id: string, query: Record<string, string> = {}) =>
    pb.send<Usage>(`/api/v1/proxies/${id}/usage`, { query });

  it("answers the owner's hourly rows of the range with totals and the month; admins every row; 404 for anyone else", async () => {
    const { user, proxies } = await proxyBuyer(shop, { count: 1 });
    const id = proxies[0]!.id;
    const now = Date.now();
    // Bought 40 hours ago (the term's start: the month counts from it).
    setProxyColumns(shop.tpb, [id], { term_started_at: dbDate(now - 40 * HOUR) });
    const rows = [
      { proxy_id: id, user_id: user.id, hour: now, bytes_up: 1000, bytes_down: 5000, connections: 3, failed_connections: 1 },
      { proxy_id: id, user_id: user.id, hour: now - 2 * HOUR, bytes_up: 100, bytes_down: 200, connections: 1 },
      // The proxy's earlier owner: neither counted in this owner's month nor shown to them.
      { proxy_id: id, user_id: "earlierowner00", hour: now - 3 * HOUR, bytes_up: 40, bytes_down: 10, connections: 1 },
      { proxy_id: id, user_id: user.id, hour: now - 30 * HOUR, bytes_up: 7, bytes_down: 3, connections: 1 },
    ];
    insertUsageRows(shop.tpb, rows);
    const monthBytes = rows
      .filter((r) => r.user_id === user.id && Math.floor(r.hour / HOUR) * HOUR >= monthStart(now))
      .reduce((sum, r) => sum + r.bytes_up + r.bytes_down, 0);

    const mine = await usage(user.pb, id);
    expect(mine.hours.map((h) => h.hour)).toEqual([hourIso(now - 2 * HOUR), hourIso(now)]);
    expect(mine.hours[1]).toEqual({
      hour: hourIso(now),
      bytes_up: 1000,
      bytes_down: 5000,
      bytes: 6000,
      connections: 3,
      failed_connections: 1,
    });
    expect(mine.totals).toEqual({ bytes_up: 1100, bytes_down: 5200, bytes: 6300, connections: 4, failed_connections: 1 });
    expect(mine.month).toEqual({
      bytes: monthBytes,
      quota_bytes: 0,
      max_connections: 0,
      quota_reached: false,
      renews_on: new Date(nextMonth(now)).toISOString().slice(0, 10),
      // The card shows failures (issue #28): how many this month, the latest and why.
      failed_connections: 1,
      last_failure: { at: hourIso(now), reason: "A site it was asked to reach could not be reached." },
    });
    expect(Date.parse(mine.to) - Date.parse(mine.from)).toBe(24 * HOUR);

    // A range of its own: the row 30 hours ago is in it, no hour is invented.
    const longer = await usage(user.pb, id, { from: new Date(now - 31 * HOUR).toISOString(), to: new Date(now + HOUR).toISOString() });
    expect(longer.hours).toHaveLength(3);
    expect(longer.totals.bytes).toBe(6310);

    const asAdmin = await usage(shop.admin, id);
    expect(asAdmin.hours).toHaveLength(3);
    expect(asAdmin.totals.bytes).toBe(6350);

    const stranger = await customer(shop);
    const refused = await errorOf(() => usage(stranger.pb, id));
    expect(refused.status).toBe(404);
    expect(refused.message).toBe("No proxy with this id is assigned to you.");
    expect((await errorOf(() => usage(user.pb, "nosuchproxy0000"))).status).toBe(404);
    expect((await errorOf(() => shop.tpb.client().send(`/api/v1/proxies/${id}/usage`, {}))).status).toBe(401);
  });

  it("refuses a range it cannot read, upside down or longer than 31 days, saying so", async () => {
    const { user, proxies } = await proxyBuyer(shop, { count: 1 });
    const id = proxies[0]!.id;
    const messageOf = async (query: Record<string, string>) => {
      const err = await errorOf(() => usage(user.pb, id, query));
      expect(err.status).toBe(400);
      return err.message;
    };
    expect(await messageOf({ from: "yesterday" })).toBe("From must be an ISO 8601 date and time, e.g. 2026-11-01T00:00:00Z.");
    expect(await messageOf({ to: "2026-13-45T99:00:00Z" })).toBe("To must be an ISO 8601 date and time, e.g. 2026-11-01T00:00:00Z.");
    expect(await messageOf({ from: "2026-11-02T00:00:00Z", to: "2026-11-01T00:00:00Z" })).toBe("From must be before to.");
    expect(await messageOf({ from: "2026-09-01", to: "2026-10-03" })).toBe(
      "The range may be at most 31 days; ask for a shorter range (several, for a longer period).",
    );
    const month = await usage(user.pb, id, { from: "2026-09-01", to: "2026-10-02T00:00:00Z" });
    expect(month).toMatchObject({ from: "2026-09-01T00:00:00.000Z", to: "2026-10-02T00:00:00.000Z", hours: [] });
    const offset = await usage(user.pb, id, { from: "2026-09-01T02:00:00+02:00", to: "2026-09-02T00:00:00Z" });
    expect(offset.from).toBe("2026-09-01T00:00:00.000Z");
  });

  it("sums this month of every ASSIGNED proxy of the caller in one answer, with its quota and cap", async () => {
    const { user, proxies } = await proxyBuyer(shop, { count: 3 });
    const [full, capped, expired] = proxies.map((p) => p.id) as [string, string, string];
    const other = await proxyBuyer(shop, { count: 1 });
    setProxyColumns(shop.tpb, [full], { bandwidth_quota_bytes: 2000 });
    setProxyColumns(shop.tpb, [capped], { max_connections: 4 });
    setProxyColumns(shop.tpb, [expired], { status: "EXPIRED" });
    const now = Date.now();
    insertUsageRows(shop.tpb, [
      { proxy_id: full, user_id: user.id, hour: now, bytes_up: 500, bytes_down: 1500, failed_connections: 2 },
      { proxy_id: full, user_id: user.id, hour: now - 40 * 24 * HOUR, bytes_up: 9999 }, // an earlier month
      // A fractional count (never the gateway's, but a hand-written row) is read whole, not a failed answer.
      { proxy_id: capped, user_id: user.id, hour: now, bytes_down: 10.6 },
      { proxy_id: expired, user_id: user.id, hour: now, bytes_down: 10 },
    ]);
    // An exit the gateway marked failing is the latest failure, in words, never its error text.
    setProxyColumns(shop.tpb, [full], { upstream_failed_at: dbDate(now), upstream_error: "dial tcp 10.9.9.9:1: connection refused" });
    const summary = await user.pb.send<Record<string, Omit<Month, "renews_on">>>("/api/v1/proxies/usage-summary", {});
    expect(Object.keys(summary).sort()).toEqual([full, capped].sort());
    expect(summary[full]).toMatchObject({ bytes: 2000, quota_bytes: 2000, max_connections: 0, quota_reached: true, failed_connections: 2 });
    expect(summary[full]!.last_failure?.reason).toBe("The proxy's exit did not answer: connections fail until it answers again.");
    expect(JSON.stringify(summary)).not.toContain("10.9.9.9");
    expect(summary[capped]).toMatchObject({ bytes: 10, quota_bytes: 0, max_connections: 4, quota_reached: false });
    expect(summary[capped]).toMatchObject({ failed_connections: 0, last_failure: null });
    const others = await other.user.pb.send<Record<string, Month>>("/api/v1/proxies/usage-summary", {});
    expect(Object.keys(others)).toEqual([other.proxies[0]!.id]);
    expect(others[other.proxies[0]!.id]).toMatchObject({ bytes: 0, quota_reached: false });
  });

  it("finding 12: counts a proxy's month from its current owner's term, so a resold proxy starts at zero for its new owner, everywhere; a renewal keeps the term", async () => {
    const first = await proxyBuyer(shop, { count: 1 });
    const id = first.proxies[0]!.id;
    const stored = async () => shop.su.collection("proxies").getOne(id, { fields: "term_started_at" });
    const boughtAt = (await stored())["term_started_at"] as string;
    expect(Date.parse(boughtAt.replace(" ", "T"))).toBeGreaterThan(Date.now() - 60_000);
    setProxyColumns(shop.tpb, [id], { bandwidth_quota_bytes: 1000 });
    insertUsageRows(shop.tpb, [{ proxy_id: id, user_id: first.user.id, hour: Date.now(), bytes_up: 100, bytes_down: 900, connections: 2 }]);
    const summaryOf = async (pb: Shop["admin"]) => (await pb.send<Record<string, Month>>("/api/v1/proxies/usage-summary", {}))[id];
    const { token } = await adminSend<{ token: string }>(shop.admin, "/api/admin/gateway-tokens", { name: `usage-${tag()}` });
    // What the gateways enforce the quota with (GET /api/gateway/month-usage, SQLSource.MonthUsage).
    const gatewayMonth = async () => {
      const month = encodeURIComponent(new Date(monthStart()).toISOString());
      const res = await fetch(`${shop.tpb.url}/api/gateway/month-usage?month=${month}`, { headers: { Authorization: `Bearer ${token}` } });
      expect(res.status).toBe(200);
      return ((await res.json()) as { used: Record<string, number> }).used[id] ?? 0;
    };
    expect(await summaryOf(first.user.pb)).toMatchObject({ bytes: 1000, quota_reached: true });
    expect(await gatewayMonth()).toBe(1000);

    // Released to stock and bought by another customer in the same hour.
    await edit(id, { status: "AVAILABLE" });
    const second = await customer(shop, 10_000);
    const bought = await purchase(second.pb, { type: "RESIDENTIAL", country: first.country, quantity: 1 });
    expect(bought.proxies.map((p) => p.id)).toEqual([id]);
    setProxyColumns(shop.tpb, [id], { bandwidth_quota_bytes: 1000 });
    const fresh = { bytes: 0, quota_bytes: 1000, quota_reached: false };
    expect(await summaryOf(second.pb)).toMatchObject(fresh);
    expect((await usage(second.pb, id)).month).toMatchObject(fresh);
    const shown = (await detail(id)) as AdminProxyDetail & { usage: { month: Month } };
    expect(shown.usage.month).toMatchObject(fresh);
    expect(await gatewayMonth()).toBe(0);
    // The hour's traffic is still there: the first owner's row stays theirs.
    expect((await usage(shop.admin, id)).totals.bytes).toBe(1000);
    expect((await usage(second.pb, id)).hours).toEqual([]);

    // The new owner's traffic of the same hour, as a gateway writes it, counts from zero.
    const hour = new Date(Math.floor(Date.now() / HOUR) * HOUR).toISOString();
    const flushed = await fetch(`${shop.tpb.url}/api/gateway/usage`, {
      method: "POST",
      headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
      body: JSON.stringify({
        gateway: "usage-test",
        hour,
        proxies: { [id]: { owner_id: second.id, bytes_up: 50, bytes_down: 250, connections: 1, failed: 0 } },
        counts: { ok: 1, failed: 0, histogram: [] },
        up_seconds: 5,
      }),
    });
    expect(flushed.status).toBe(200);
    expect(await summaryOf(second.pb)).toMatchObject({ bytes: 300, quota_reached: false });
    expect(await gatewayMonth()).toBe(300);
    const ownHours = (await usage(second.pb, id)).hours;
    expect(ownHours.map((h) => [h.hour, h.bytes])).toEqual([[hourIso(Date.now()), 300]]);
    // Admins see the hour whole: both owners' rows added.
    expect((await usage(shop.admin, id)).hours.map((h) => [h.bytes, h.connections])).toEqual([[1300, 3]]);

    // A renewal is the same term: the month keeps counting.
    const termStart = (await stored())["term_started_at"];
    await post(second.pb, "/api/v1/proxies/renew", { proxy_ids: [id] });
    expect((await stored())["term_started_at"]).toBe(termStart);
    expect(await summaryOf(second.pb)).toMatchObject({ bytes: 300 });
    expect(await gatewayMonth()).toBe(300);
  });

  it("lets an admin set a proxy's quota and cap (audited, checked) and shows its usage in the detail", async () => {
    const { user, proxies } = await proxyBuyer(shop, { count: 1 });
    const id = proxies[0]!.id;
    insertUsageRows(shop.tpb, [{ proxy_id: id, user_id: user.id, hour: Date.now(), bytes_up: 300, bytes_down: 700, connections: 2 }]);
    const answer = await edit(id, { bandwidth_quota_gb: 10, max_connections: 5 });
    expect(answer).toMatchObject({ bandwidth_quota_bytes: 10 * GB, max_connections: 5 });
    const rows = await audits("proxies.update", id);
    expect(rows.at(-1)?.["details"]).toEqual({
      changes: { bandwidth_quota_gb: { from: 0, to: 10 }, max_connections: { from: 0, to: 5 } },
    });
    const shown = (await detail(id)) as AdminProxyDetail & { usage: { month: Month; last_24h: Totals } };
    expect(shown.usage.month).toMatchObject({ bytes: 1000, quota_bytes: 10 * GB, max_connections: 5, quota_reached: false });
    expect(shown.usage.last_24h).toEqual({ bytes_up: 300, bytes_down: 700, bytes: 1000, connections: 2, failed_connections: 0 });
    const mine = await user.pb.collection("proxies").getOne(id);
    expect(mine).toMatchObject({ bandwidth_quota_bytes: 10 * GB, max_connections: 5 });

    // An unchanged value is no change; 0 lifts a limit.
    await edit(id, { bandwidth_quota_gb: 10 });
    expect((await audits("proxies.update", id)).at(-1)?.["details"]).toEqual({ changes: {} });
    await edit(id, { max_connections: 0 });
    expect((await audits("proxies.update", id)).at(-1)?.["details"]).toEqual({ changes: { max_connections: { from: 5, to: 0 } } });

    const quotaMessage = "Bandwidth quota must be a whole number of GB from 0 to 1,000,000 (0 = unlimited).";
    const capMessage = "Max concurrent connections must be a whole number from 0 to 100,000 (0 = unlimited).";
    for (const bad of [-1, 1.5, 1_000_001, "5", null]) {
      const err = await errorOf(() => edit(id, { bandwidth_quota_gb: bad }));
      expect([err.status, err.message]).toEqual([400, quotaMessage]);
    }
    for (const bad of [-1, 100_001, 2.5, true]) {
      const err = await errorOf(() => edit(id, { max_connections: bad }));
      expect([err.status, err.message]).toEqual([400, capMessage]);
    }
    expect(await detail(id)).toMatchObject({ bandwidth_quota_bytes: 10 * GB, max_connections: 0 });

    // A quota in MB (issue #28: a 500 MB trial), stored in bytes as the gateway reads them.
    expect(await edit(id, { bandwidth_quota_mb: 500 })).toMatchObject({ bandwidth_quota_bytes: 500 * 2 ** 20 });
    expect((await audits("proxies.update", id)).at(-1)?.["details"]).toEqual({
      changes: { bandwidth_quota_mb: { from: 10 * 1024, to: 500 } },
    });
    const mbMessage = "Bandwidth quota must be a whole number of MB from 0 to 1,024,000,000 (0 = unlimited).";
    for (const bad of [-1, 0.5, 1_024_000_001]) {
      const err = await errorOf(() => edit(id, { bandwidth_quota_mb: bad }));
      expect([err.status, err.message]).toEqual([400, mbMessage]);
    }
    const both = await errorOf(() => edit(id, { bandwidth_quota_gb: 1, bandwidth_quota_mb: 500 }));
    expect([both.status, both.message]).toEqual([400, "Send the bandwidth quota once: in GB or in MB, not both."]);
    expect(await detail(id)).toMatchObject({ bandwidth_quota_bytes: 500 * 2 ** 20 });
  });

  it("checks a plan's limits, copies them onto the proxies a purchase assigns, and a renewal keeps the proxy's", async () => {
    const plans = shop.admin.collection("pricing_plans");
    const planBody = { name: `HTTP ${tag()}`, type: "HTTP", price_cents: 250, features: ["Plain HTTP"], active: true };
    const bad = await errorOf(() => plans.create({ ...planBody, bandwidth_quota_gb: 1.5, max_connections: 100_001 }));
    expect(bad.status).toBe(400);
    expect(fieldErrorsOf(bad)).toMatchObject({
      bandwidth_quota_gb: { message: "Bandwidth quota must be a whole number of GB from 0 to 1,000,000 (0 = unlimited)." },
      max_connections: { message: "Max concurrent connections must be a whole number from 0 to 100,000 (0 = unlimited)." },
    });
    const plan = await plans.create({ ...planBody, bandwidth_quota_gb: 2, max_connections: 3 });
    try {
      const country = `Q${tag().slice(-6)}`;
      await addStock(shop, { type: "HTTP", country, count: 2 });
      const buyer = await customer(shop, 10_000);
      const order = await purchase(buyer.pb, { type: "HTTP", country, quantity: 2 });
      for (const p of order.proxies) {
        expect(await buyer.pb.collection("proxies").getOne(p.id)).toMatchObject({ bandwidth_quota_bytes: 2 * GB, max_connections: 3 });
      }
      // The admin changes one proxy; a renewal keeps what the proxy has, even after the plan changed.
      const [first] = order.proxies;
      await edit(first!.id, { max_connections: 7 });
      await plans.update(plan.id, { bandwidth_quota_gb: 0, max_connections: 0 });
      await post<PurchaseResult>(buyer.pb, "/api/v1/proxies/renew", { proxy_ids: [first!.id] });
      expect(await buyer.pb.collection("proxies").getOne(first!.id)).toMatchObject({ bandwidth_quota_bytes: 2 * GB, max_connections: 7 });
    } finally {
      await plans.delete(plan.id);
    }
  });
});
