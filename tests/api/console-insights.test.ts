// The console's Audit Logs and Affiliate Management routes against a real PocketBase: who
// may call them (anonymous 401, customer 403 with nothing changed, admin 200), audit log
// paging, search, filter and summary, the affiliates list and stats, referrals, and paying
// a referral (cases/affiliate-payouts.ts). Audit rows stay immutable for admins and
// superusers. The analytics figures are in console-analytics.test.ts.
import { randomUUID } from "node:crypto";
import type { AuditPage } from "@/features/console-logs/api";
import type { SystemAlerts } from "@/features/console-overview/api";
import type PocketBase from "pocketbase";
import { describe, expect, it } from "vitest";
import { adminGet, auditRows } from "../support/admin.ts";
import { createTestUser, errorOf, signIn, statusOf, fieldErrorsOf } from "../support/pocketbase.ts";
import { setColumns } from "../support/proxy-columns.ts";
import { addStock, checkout, credit, customer, iso, payWithStripe, referredCustomer, setProxyColumns } from "../support/shop.ts";
import { useShop } from "../support/use-shop.ts";
import { affiliatePayoutCases, pay } from "./cases/affiliate-payouts.ts";

describe("the console insights routes (one shop)", () => {
  // Commissions come only from real payments (security review #13, finding 2): this shop
  // takes Stripe payments, against stripe-mock, credited by signed webhook events.
  const WEBHOOK_SECRET = "whsec_test_insights";
  const shop = useShop({ stripe: WEBHOOK_SECRET });
  const paidByStripe = (pb: PocketBase, packageId: string) => payWithStripe(shop, pb, packageId, WEBHOOK_SECRET);

  describe("who may call them", () => {
    it("refuses anonymous callers (401) and customers (403), answers admins", async () => {
      const buyer = await customer(shop);
      const affiliate = await shop.su.collection("affiliates").getFirstListItem(`user_id = "${buyer.id}"`);
      const reads = [
        "/api/admin/analytics",
        "/api/admin/audit-logs",
        "/api/admin/audit-logs/summary",
        "/api/admin/affiliates",
        `/api/admin/affiliates/${affiliate.id}/referrals`,
      ];
      for (const path of reads) {
        expect(await statusOf(() => adminGet(shop.tpb.client(), path)), `anonymous ${path}`).toBe(401);
        expect(await statusOf(() => adminGet(buyer.pb, path)), `customer ${path}`).toBe(403);
        expect(await statusOf(() => adminGet(shop.admin, path)), `admin ${path}`).toBe(200);
      }
      expect(await statusOf(() => adminGet(shop.admin, "/api/admin/affiliates/nope/referrals"))).toBe(404);
    });

    it("refuses the pay route to anonymous callers and customers, changing nothing", async () => {
      const owner = await customer(shop);
      const code = (await shop.su.collection("affiliates").getFirstListItem(`user_id = "${owner.id}"`))["code"] as string;
      const referred = await referredCustomer(shop, code);
      await paidByStripe(referred.pb, "package-10");
      const referral = await shop.su.collection("referrals").getFirstListItem(`referred_user_id = "${referred.id}"`);
      const logsBefore = (await auditRows(shop.su, `action = "referrals.pay"`)).length;

      expect(await statusOf(() => pay(shop.tpb.client(), referral.id))).toBe(401);
      expect(await statusOf(() => pay(owner.pb, referral.id))).toBe(403);
      expect(await statusOf(() => pay(referred.pb, referral.id))).toBe(403);

      expect(await shop.su.collection("referrals").getOne(referral.id)).toMatchObject({ status: "pending", commission_cents: 200 });
      const commissions = await shop.su.collection("commissions").getFullList({ filter: `referral_id = "${referral.id}"` });
      expect(commissions.map((c) => c["status"])).toEqual(["pending"]);
      expect(await shop.su.collection("affiliates").getFirstListItem(`user_id = "${owner.id}"`)).toMatchObject({
        pending_earnings_cents: 200,
        total_earnings_cents: 200,
      });
      expect(await auditRows(shop.su, `action = "referrals.pay"`)).toHaveLength(logsBefore);
    });
  });

  describe("GET /api/admin/audit-logs", () => {
    it("lists entries newest first, 20 a page, with the admin's e-mail and names", async () => {
      const other = await createTestUser(shop.su, { is_admin: true, first_name: "Olga", last_name: "Auditor" });
      const otherPb = await signIn(shop.tpb, other);
      const target = await customer(shop);
      for (let i = 0; i < 23; i++) {
        await otherPb.send(`/api/admin/users/${target.id}/balance`, {
          method: "POST",
          headers: { "Idempotency-Key": randomUUID() },
          body: { transaction_type: "CREDIT", amount_cents: 100 + i, description: `paging credit ${i}` },
        });
      }
      // (The other admin's sign-in is an entry of theirs too: the credits are filtered by action.)
      const credits = { action: "users.balance_credit" };
      const first = await adminGet<AuditPage>(shop.admin, "/api/admin/audit-logs", { search: other.email, ...credits });
      expect(first).toMatchObject({ page: 1, perPage: 20, totalItems: 23, totalPages: 2 });
      expect(first.items).toHaveLength(20);
      expect(first.items[0]).toMatchObject({
        action: "users.balance_credit",
        target_type: "users",
        target_id: target.id,
        admin_id: other.id,
        admin_email: other.email,
        admin_first_name: "Olga",
        admin_last_name: "Auditor",
        details: { amount_cents: 122, description: "paging credit 22", balance_after_cents: expect.any(Number) },
      });
      const second = await adminGet<AuditPage>(shop.admin, "/api/admin/audit-logs", { search: other.email, page: 2, ...credits });
      expect(second.items).toHaveLength(3);
      const amounts = [...first.items, ...second.items].map((e) => (e.details as { amount_cents: number }).amount_cents);
      expect(amounts).toEqual(Array.from({ length: 23 }, (_, i) => 122 - i));
      const created = [...first.items, ...second.items].map((e) => e.created);
      expect(created).toEqual([...created].sort().reverse());
      // Search by name, full name, target id and details text.
      expect((await adminGet<AuditPage>(shop.admin, "/api/admin/audit-logs", { search: "olga auditor", ...credits })).totalItems).toBe(23);
      expect((await adminGet<AuditPage>(shop.admin, "/api/admin/audit-logs", { search: target.id })).totalItems).toBe(23);
      const byDetails = await adminGet<AuditPage>(shop.admin, "/api/admin/audit-logs", { search: "paging credit 17" });
      expect(byDetails.items.map((e) => (e.details as { amount_cents: number }).amount_cents)).toEqual([117]);
      // LIKE wildcards are taken literally.
      expect((await adminGet<AuditPage>(shop.admin, "/api/admin/audit-logs", { search: "paging_credit" })).totalItems).toBe(0);
    });

    it("filters by exact action and searches actions and target types", async () => {
      const marker = `Marker site ${randomUUID()}`;
      const row = await shop.su.collection("settings").getFirstListItem('key = "site_description"');
      await shop.admin.collection("settings").update(row.id, { value: marker });
      const updates = await adminGet<AuditPage>(shop.admin, "/api/admin/audit-logs", { action: "settings.update" });
      expect(updates.totalItems).toBeGreaterThanOrEqual(1);
      expect(updates.items.every((e) => e.action === "settings.update")).toBe(true);
      expect(updates.items[0]).toMatchObject({ target_type: "settings", target_id: row.id });
      expect(updates.items[0]?.details).toMatchObject({ changes: { value: { to: marker } } });
      expect((await adminGet<AuditPage>(shop.admin, "/api/admin/audit-logs", { action: "settings" })).totalItems).toBe(0);
      const found = await adminGet<AuditPage>(shop.admin, "/api/admin/audit-logs", { search: marker, action: "settings.update" });
      expect(found.items.map((e) => e.target_id)).toEqual([row.id]);
      const credits = await adminGet<AuditPage>(shop.admin, "/api/admin/audit-logs", {
        search: "settings",
        action: "users.balance_credit",
      });
      expect(credits.totalItems).toBe(0);
      const err = await errorOf(() => adminGet(shop.admin, "/api/admin/audit-logs", { search: "x".repeat(201) }));
      expect(err.status).toBe(400);
      expect(fieldErrorsOf(err)).toMatchObject({ search: { message: "Search text must be at most 200 characters." } });
    });

    it("summarises today, the last 7 days, active admins and the action names", async () => {
      const before = await adminGet<{ today: number; this_week: number; active_admins: number; actions: string[] }>(
        shop.admin,
        "/api/admin/audit-logs/summary",
      );
      const fresh = await signIn(shop.tpb, await createTestUser(shop.su, { is_admin: true }));
      const target = await customer(shop);
      await fresh.send(`/api/admin/users/${target.id}/balance`, {
        method: "POST",
        headers: { "Idempotency-Key": randomUUID() },
        body: { transaction_type: "CREDIT", amount_cents: 500, description: "summary credit" },
      });
      await fresh.send(`/api/admin/users/${target.id}/balance`, {
        method: "POST",
        headers: { "Idempotency-Key": randomUUID() },
        body: { transaction_type: "DEBIT", amount_cents: 200, description: "summary debit" },
      });
      const after = await adminGet<typeof before>(shop.admin, "/api/admin/audit-logs/summary");
      // customer() funds nothing here, so the admin's sign-in and the two changes above are the only new entries.
      expect(after.today - before.today).toBe(3);
      expect(after.this_week - before.this_week).toBe(3);
      expect(after.active_admins - before.active_admins).toBe(1);
      expect(after.actions).toContain("users.balance_credit");
      expect(after.actions).toContain("users.balance_debit");
      expect(after.actions).toEqual([...after.actions].sort());
      expect(new Set(after.actions).size).toBe(after.actions.length);
    });

    it("answers the gateway's uptime of the last 7 days, null before any gateway reported", async () => {
      type Summary = { uptime_percent: number | null };
      expect((await adminGet<Summary>(shop.admin, "/api/admin/audit-logs/summary")).uptime_percent).toBeNull();
      // A gateway up for the whole of the previous hour, with no report yet for this one:
      // up 3,600 s of the (60 to 120 minutes) since it started.
      const previousHour = new Date(Date.now() - 3_600_000);
      previousHour.setUTCMinutes(0, 0, 0);
      await shop.su
        .collection("gateway_stats")
        .create({ gateway: "audit-gw", hour: previousHour.toISOString().replace("T", " "), connections_ok: 1, up_seconds: 3600 });
      const uptime = (await adminGet<Summary>(shop.admin, "/api/admin/audit-logs/summary")).uptime_percent;
      const expected = (3600 / ((Date.now() - previousHour.getTime()) / 1000)) * 100;
      expect(uptime).toBeGreaterThanOrEqual(50);
      expect(Math.abs((uptime ?? 0) - expected)).toBeLessThan(1);
      expect(uptime).toBeLessThanOrEqual(100);
    });

    it("keeps audit rows immutable for admins and superusers", async () => {
      const target = await customer(shop);
      await credit(shop, target.id, 300);
      const [row] = await auditRows(shop.su, `target_id = "${target.id}"`);
      if (!row) throw new Error("no audit row");
      for (const pb of [shop.admin, shop.su]) {
        expect(await statusOf(() => pb.collection("audit_logs").update(row.id, { action: "tampered" }))).toBe(403);
        expect(await statusOf(() => pb.collection("audit_logs").delete(row.id))).toBe(403);
        expect(
          await statusOf(() =>
            pb.collection("audit_logs").create({ admin_id: target.id, action: "forged", target_type: "users", target_id: target.id }),
          ),
        ).toBe(403);
      }
      expect(await shop.su.collection("audit_logs").getOne(row.id)).toMatchObject({
        action: "users.balance_credit",
        details: row["details"],
      });
      expect(await auditRows(shop.su, `action = "forged"`)).toHaveLength(0);
    });
  });

  describe("GET /api/admin/system-alerts (issue #28, 14)", () => {
    const alerts = () => adminGet<SystemAlerts>(shop.admin, "/api/admin/system-alerts");

    it("refuses anonymous callers (401) and customers (403)", async () => {
      const c = await customer(shop);
      expect(await statusOf(() => adminGet(shop.tpb.client(), "/api/admin/system-alerts"))).toBe(401);
      expect(await statusOf(() => adminGet(c.pb, "/api/admin/system-alerts"))).toBe(403);
    });

    it("reads failing upstreams, silent gateways, failed payments, waiting tickets and growth from the system", async () => {
      const before = await alerts();
      // An upstream the gateway marked failing (as SQLSource.ReportUpstream writes it).
      const [dead] = await addStock(shop, { type: "DATACENTER", count: 1 });
      const failedAt = iso(Date.now() - 60_000);
      setProxyColumns(shop.tpb, [dead!], {
        exit: "upstream",
        upstream_host: "198.51.100.9",
        upstream_port: 8080,
        upstream_failed_at: failedAt,
        upstream_error: "connection refused",
      });
      // A gateway last seen 10 minutes ago, and one seen just now (in contact).
      const name = `silent-${randomUUID().slice(0, 8)}`;
      const hash = () => randomUUID().replace(/-/g, "").padEnd(64, "0");
      await shop.su.collection("gateway_tokens").create({ name, token_hash: hash(), last_seen_at: iso(Date.now() - 600_000) });
      await shop.su.collection("gateway_tokens").create({ name: `${name}-live`, token_hash: hash(), last_seen_at: iso(Date.now()) });
      // A checkout that failed, and a customer's ticket nobody answered.
      const payer = await customer(shop);
      const { payment } = await checkout(payer.pb, "package-10");
      setColumns(shop.tpb, "payments", [payment.id], { status: "failed", updated: iso(Date.now()) });
      await payer.pb.send("/api/v1/support/tickets", {
        method: "POST",
        body: { subject: "Still waiting", message: "Is anyone there to help?", priority: "medium" },
      });

      const after = await alerts();
      expect(after.failing_upstreams.count).toBe(before.failing_upstreams.count + 1);
      expect(after.failing_upstreams.items).toContainEqual({
        id: dead,
        upstream_host: "198.51.100.9",
        upstream_port: 8080,
        status: "AVAILABLE",
        error: "connection refused",
        failed_at: failedAt,
      });
      expect(after.silent_gateways.map((g) => g.name)).toContain(name);
      expect(after.silent_gateways.map((g) => g.name)).not.toContain(`${name}-live`);
      expect(after.failed_payments.count).toBe(before.failed_payments.count + 1);
      expect(after.failed_payments.amount_cents).toBe(before.failed_payments.amount_cents + payment.amount_cents);
      expect(after.waiting_tickets.count).toBe(before.waiting_tickets.count + 1);
      expect(after.growth.customers.current).toBeGreaterThanOrEqual(before.growth.customers.current + 1);

      // The gateway's next success clears its mark (ReportUpstream with no error): the alert goes.
      setProxyColumns(shop.tpb, [dead!], { upstream_failed_at: "", upstream_error: "" });
      const cleared = await alerts();
      expect(cleared.failing_upstreams.count).toBe(before.failing_upstreams.count);
      expect(cleared.failing_upstreams.items.map((u) => u.id)).not.toContain(dead);
    });
  });

  describe("affiliates and referral payouts", () => affiliatePayoutCases(shop, paidByStripe));
});
