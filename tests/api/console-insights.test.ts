// The console's Analytics, Audit Logs and Affiliate Management routes against a real
// PocketBase: who may call them (anonymous 401, customer 403 with nothing changed, admin
// 200), analytics numbers over a known set of rows, audit log paging, search, filter and
// summary, the affiliates list and stats, referrals, and paying a referral (one audit row,
// commissions paid, earnings moved, paying twice pays once, key replays, nothing pending,
// demo mode). Audit rows stay immutable for admins and superusers.
import { randomUUID } from "node:crypto";
import type PocketBase from "pocketbase";
import type { RecordModel } from "pocketbase";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { adminGet, adminSend } from "../support/admin.ts";
import { startStripeMock, stripeEnv, stripeSignature, type StripeMock } from "../support/stripe-mock.ts";
import { createTestUser, errorOf, signIn, startTestPocketBase, statusOf, type TestPocketBase } from "../support/pocketbase.ts";
import {
  addStock,
  checkout,
  credit,
  customer,
  expectEveryBalanceMatchesItsLedger,
  ledgerOf,
  post,
  purchase,
  referredCustomer,
  shopClients,
  type Shop,
} from "../support/shop.ts";

interface Analytics {
  days: number;
  total_users: number;
  total_revenue_cents: number;
  total_proxies: number;
  avg_revenue_per_user_cents: number;
  period_new_users: number;
  period_revenue_cents: number;
  user_growth: { date: string; count: number }[];
  revenue: { date: string; cents: number }[];
  proxy_usage: { by_type: Record<string, number>; by_country: { country: string; count: number }[] };
}

interface Page<T> {
  items: T[];
  page: number;
  perPage: number;
  totalItems: number;
  totalPages: number;
}

interface AuditEntry {
  id: string;
  action: string;
  target_type: string;
  target_id: string;
  details: Record<string, unknown> | null;
  created: string;
  admin_id: string;
  admin_email: string;
  admin_first_name: string;
  admin_last_name: string;
}

interface AffiliateRow {
  id: string;
  user_id: string;
  user_email: string;
  user_first_name: string;
  user_last_name: string;
  code: string;
  total_earnings_cents: number;
  pending_earnings_cents: number;
  paid_earnings_cents: number;
  total_referrals: number;
}

interface AffiliateStats {
  total_affiliates: number;
  commission_paid_cents: number;
  pending_payouts_cents: number;
  total_referrals: number;
}

interface ReferralRow {
  id: string;
  affiliate_id: string;
  referred_user_id: string;
  user_email: string;
  user_first_name: string;
  user_last_name: string;
  user_verified: boolean;
  commission_cents: number;
  pending_cents: number;
  test_commission_cents: number;
  status: string;
  created: string;
  paid_at: string;
}

interface PayResponse {
  payout: { id: string; referral_id: string; affiliate_id: string; admin_id: string; amount_cents: number; commission_ids: string[] };
  referral: ReferralRow;
  affiliate: AffiliateRow;
}

const todayUtc = () => new Date().toISOString().slice(0, 10);

async function setDemoMode(su: PocketBase, on: boolean): Promise<void> {
  const row = await su.collection("settings").getFirstListItem('key = "demo_mode"');
  await su.collection("settings").update(row.id, { value: on ? "true" : "false" });
}

/** POST the pay route with fetch, to read the Idempotent-Replayed header. */
async function payRaw(tpb: TestPocketBase, pb: PocketBase, referralId: string, key: string) {
  const res = await fetch(`${tpb.url}/api/admin/referrals/${referralId}/pay`, {
    method: "POST",
    headers: { Authorization: pb.authStore.token, "Idempotency-Key": key },
  });
  return { status: res.status, replayed: res.headers.get("Idempotent-Replayed"), body: (await res.json()) as PayResponse };
}

const pay = (pb: PocketBase, referralId: string, key: string = randomUUID()) =>
  pb.send<PayResponse>(`/api/admin/referrals/${referralId}/pay`, { method: "POST", headers: { "Idempotency-Key": key } });

async function auditRows(su: PocketBase, filter: string): Promise<RecordModel[]> {
  return su.collection("audit_logs").getFullList({ filter, sort: "created" });
}

describe("GET /api/admin/analytics (a fresh shop with known rows)", () => {
  let tpb: TestPocketBase;
  let shop: Shop;

  beforeAll(async () => {
    tpb = await startTestPocketBase();
    shop = await shopClients(tpb);
  });
  afterAll(async () => {
    await tpb?.stop();
  });

  it("counts users, money received (not credits or bonuses), proxies and proxy usage, per UTC day", async () => {
    const empty = await adminGet<Analytics>(shop.admin, "/api/admin/analytics", { days: 7 });
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

    const week = await adminGet<Analytics>(shop.admin, "/api/admin/analytics", { days: 7 });
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
      const period = await adminGet<Analytics>(shop.admin, "/api/admin/analytics", { days });
      expect(period.days).toBe(days);
      expect(period.user_growth).toHaveLength(days);
      expect(period.revenue).toHaveLength(days);
      expect(period.revenue.at(-1)).toEqual({ date: today, cents: 0 });
      expect(period.total_revenue_cents).toBe(0);
    }
    // No days: the last 30.
    expect((await adminGet<Analytics>(shop.admin, "/api/admin/analytics")).days).toBe(30);
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
    const result = await adminGet<Analytics>(shop.admin, "/api/admin/analytics", { days: 7 });
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
      expect(err.response["data"]).toEqual({ days: { code: "validation_invalid_period", message: "Days must be 7, 30 or 90." } });
    }
  });
});

describe("the console insights routes (one shop)", () => {
  // Commissions come only from real payments (security review #13, finding 2): this shop
  // takes Stripe payments, against stripe-mock, credited by signed webhook events.
  const WEBHOOK_SECRET = "whsec_test_insights";
  let stripe: StripeMock;
  let tpb: TestPocketBase;
  let shop: Shop;

  beforeAll(async () => {
    stripe = await startStripeMock();
    tpb = await startTestPocketBase(stripeEnv(stripe, WEBHOOK_SECRET));
    shop = await shopClients(tpb);
  });
  afterAll(async () => {
    await tpb?.stop();
    await stripe?.stop();
  });

  /** A Stripe checkout of `packageId`, paid: Stripe's signed checkout.session.completed delivered. */
  async function paidByStripe(pb: PocketBase, packageId: string): Promise<void> {
    const { payment } = await post<{ payment: RecordModel }>(pb, "/api/v1/credits/checkout", { package_id: packageId });
    const payload = JSON.stringify({
      id: `evt_${randomUUID()}`,
      type: "checkout.session.completed",
      data: {
        object: {
          id: payment["provider_session_id"],
          object: "checkout.session",
          client_reference_id: payment.id,
          payment_status: "paid",
          amount_total: payment["amount_cents"],
          currency: "usd",
          payment_intent: `pi_${payment.id}`,
        },
      },
    });
    const res = await fetch(`${tpb.url}/api/v1/payments/stripe/webhook`, {
      method: "POST",
      headers: { "content-type": "application/json", "stripe-signature": stripeSignature(payload, WEBHOOK_SECRET) },
      body: payload,
    });
    expect(res.status).toBe(200);
  }
  afterEach(async () => {
    await expectEveryBalanceMatchesItsLedger(shop.su);
  });

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
        expect(await statusOf(() => adminGet(tpb.client(), path)), `anonymous ${path}`).toBe(401);
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

      expect(await statusOf(() => pay(tpb.client(), referral.id))).toBe(401);
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
      const otherPb = await signIn(tpb, other);
      const target = await customer(shop);
      for (let i = 0; i < 23; i++) {
        await otherPb.send(`/api/admin/users/${target.id}/balance`, {
          method: "POST",
          headers: { "Idempotency-Key": randomUUID() },
          body: { transaction_type: "CREDIT", amount_cents: 100 + i, description: `paging credit ${i}` },
        });
      }
      const first = await adminGet<Page<AuditEntry>>(shop.admin, "/api/admin/audit-logs", { search: other.email });
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
      const second = await adminGet<Page<AuditEntry>>(shop.admin, "/api/admin/audit-logs", { search: other.email, page: 2 });
      expect(second.items).toHaveLength(3);
      const amounts = [...first.items, ...second.items].map((e) => (e.details as { amount_cents: number }).amount_cents);
      expect(amounts).toEqual(Array.from({ length: 23 }, (_, i) => 122 - i));
      const created = [...first.items, ...second.items].map((e) => e.created);
      expect(created).toEqual([...created].sort().reverse());
      // Search by name, full name, target id and details text.
      expect((await adminGet<Page<AuditEntry>>(shop.admin, "/api/admin/audit-logs", { search: "olga auditor" })).totalItems).toBe(23);
      expect((await adminGet<Page<AuditEntry>>(shop.admin, "/api/admin/audit-logs", { search: target.id })).totalItems).toBe(23);
      const byDetails = await adminGet<Page<AuditEntry>>(shop.admin, "/api/admin/audit-logs", { search: "paging credit 17" });
      expect(byDetails.items.map((e) => (e.details as { amount_cents: number }).amount_cents)).toEqual([117]);
      // LIKE wildcards are taken literally.
      expect((await adminGet<Page<AuditEntry>>(shop.admin, "/api/admin/audit-logs", { search: "paging_credit" })).totalItems).toBe(0);
    });

    it("filters by exact action and searches actions and target types", async () => {
      const marker = `Marker site ${randomUUID()}`;
      const row = await shop.su.collection("settings").getFirstListItem('key = "site_description"');
      await shop.admin.collection("settings").update(row.id, { value: marker });
      const updates = await adminGet<Page<AuditEntry>>(shop.admin, "/api/admin/audit-logs", { action: "settings.update" });
      expect(updates.totalItems).toBeGreaterThanOrEqual(1);
      expect(updates.items.every((e) => e.action === "settings.update")).toBe(true);
      expect(updates.items[0]).toMatchObject({ target_type: "settings", target_id: row.id });
      expect(updates.items[0]?.details).toMatchObject({ changes: { value: { to: marker } } });
      expect((await adminGet<Page<AuditEntry>>(shop.admin, "/api/admin/audit-logs", { action: "settings" })).totalItems).toBe(0);
      const found = await adminGet<Page<AuditEntry>>(shop.admin, "/api/admin/audit-logs", { search: marker, action: "settings.update" });
      expect(found.items.map((e) => e.target_id)).toEqual([row.id]);
      const credits = await adminGet<Page<AuditEntry>>(shop.admin, "/api/admin/audit-logs", {
        search: "settings",
        action: "users.balance_credit",
      });
      expect(credits.totalItems).toBe(0);
      const err = await errorOf(() => adminGet(shop.admin, "/api/admin/audit-logs", { search: "x".repeat(201) }));
      expect(err.status).toBe(400);
      expect(err.response["data"]).toMatchObject({ search: { message: "Search text must be at most 200 characters." } });
    });

    it("summarises today, the last 7 days, active admins and the action names", async () => {
      const before = await adminGet<{ today: number; this_week: number; active_admins: number; actions: string[] }>(
        shop.admin,
        "/api/admin/audit-logs/summary",
      );
      const fresh = await signIn(tpb, await createTestUser(shop.su, { is_admin: true }));
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
      // customer() funds nothing here, so the two changes above are the only new entries.
      expect(after.today - before.today).toBe(2);
      expect(after.this_week - before.this_week).toBe(2);
      expect(after.active_admins - before.active_admins).toBe(1);
      expect(after.actions).toContain("users.balance_credit");
      expect(after.actions).toContain("users.balance_debit");
      expect(after.actions).toEqual([...after.actions].sort());
      expect(new Set(after.actions).size).toBe(after.actions.length);
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

  describe("affiliates and referral payouts", () => {
    async function affiliateOf(userId: string): Promise<RecordModel> {
      return shop.su.collection("affiliates").getFirstListItem(`user_id = "${userId}"`);
    }

    async function listAffiliates(query: Record<string, string | number> = {}) {
      return adminGet<Page<AffiliateRow> & { stats: AffiliateStats }>(shop.admin, "/api/admin/affiliates", query);
    }

    it("lists affiliates with referrals or earnings, searchable, with the programme's stats", async () => {
      const before = await listAffiliates();
      const owner = await customer(shop);
      const ownerUser = await shop.su.collection("users").update(owner.id, { first_name: "Ines", last_name: "Affiliate" });
      const affiliate = await affiliateOf(owner.id);
      const idle = await customer(shop); // no referrals: not listed
      const unverifiedOnly = await customer(shop);
      await referredCustomer(shop, (await affiliateOf(unverifiedOnly.id))["code"] as string, { verified: false });

      const referred = await referredCustomer(shop, affiliate["code"] as string);
      await paidByStripe(referred.pb, "package-25"); // 480
      await paidByStripe(referred.pb, "package-10"); // 200

      const found = await listAffiliates({ search: owner.email });
      expect(found.items).toEqual([
        {
          id: affiliate.id,
          user_id: owner.id,
          user_email: owner.email,
          user_first_name: "Ines",
          user_last_name: "Affiliate",
          code: affiliate["code"],
          total_earnings_cents: 680,
          pending_earnings_cents: 680,
          paid_earnings_cents: 0,
          total_referrals: 1,
        },
      ]);
      expect(found.totalItems).toBe(1);
      for (const search of [affiliate["code"] as string, (affiliate["code"] as string).toLowerCase(), "ines affiliate", "INES"]) {
        expect(
          (await listAffiliates({ search })).items.map((a) => a.id),
          search,
        ).toContain(affiliate.id);
      }
      expect((await listAffiliates({ search: idle.email })).items).toEqual([]);
      expect((await listAffiliates({ search: unverifiedOnly.email })).items).toEqual([]);
      expect((await listAffiliates({ search: `none-${randomUUID()}` })).totalItems).toBe(0);

      const after = await listAffiliates();
      expect(after.stats.total_affiliates - before.stats.total_affiliates).toBe(1);
      expect(after.stats.pending_payouts_cents - before.stats.pending_payouts_cents).toBe(680);
      expect(after.stats.commission_paid_cents - before.stats.commission_paid_cents).toBe(0);
      expect(after.stats.total_referrals - before.stats.total_referrals).toBe(1);
      expect(after.totalItems).toBe(after.stats.total_affiliates);
      // Most pending first.
      const pending = after.items.map((a) => a.pending_earnings_cents);
      expect(pending).toEqual([...pending].sort((x, y) => y - x));
      expect(ownerUser["email"]).toBe(owner.email);
    });

    it("lists an affiliate's referrals newest first with the referred users and what is pending", async () => {
      const owner = await customer(shop);
      const affiliate = await affiliateOf(owner.id);
      const first = await referredCustomer(shop, affiliate["code"] as string, { first: "Fiona" });
      const second = await referredCustomer(shop, affiliate["code"] as string, { first: "Sam" });
      await paidByStripe(second.pb, "package-50"); // 900
      const res = await adminGet<Page<ReferralRow> & { affiliate: AffiliateRow }>(
        shop.admin,
        `/api/admin/affiliates/${affiliate.id}/referrals`,
      );
      expect(res.affiliate).toMatchObject({
        id: affiliate.id,
        user_email: owner.email,
        total_earnings_cents: 900,
        pending_earnings_cents: 900,
      });
      expect(res.totalItems).toBe(2);
      expect(res.items).toEqual([
        {
          id: expect.any(String),
          affiliate_id: affiliate.id,
          referred_user_id: second.id,
          user_email: second.email,
          user_first_name: "Sam",
          user_last_name: "Referred",
          user_verified: true,
          commission_cents: 900,
          pending_cents: 900,
          test_commission_cents: 0,
          status: "pending",
          created: expect.any(String),
          paid_at: "",
          flags: [],
        },
        expect.objectContaining({ referred_user_id: first.id, user_first_name: "Fiona", commission_cents: 0, pending_cents: 0 }),
      ]);
      const paged = await adminGet<Page<ReferralRow>>(shop.admin, `/api/admin/affiliates/${affiliate.id}/referrals`, {
        perPage: 1,
        page: 2,
      });
      expect(paged.items.map((r) => r.referred_user_id)).toEqual([first.id]);
      expect(paged.totalPages).toBe(2);
    });

    it("pays a referral once: commissions paid, earnings moved, one audit row, no balance change", async () => {
      const owner = await customer(shop);
      const affiliate = await affiliateOf(owner.id);
      const referred = await referredCustomer(shop, affiliate["code"] as string);
      await paidByStripe(referred.pb, "package-25"); // 480
      await paidByStripe(referred.pb, "package-10"); // 200
      const referral = await shop.su.collection("referrals").getFirstListItem(`referred_user_id = "${referred.id}"`);
      const ledgersBefore = [await ledgerOf(shop, owner.id), await ledgerOf(shop, referred.id)];
      const statsBefore = (await listAffiliates()).stats;

      expect(await statusOf(() => shop.admin.send(`/api/admin/referrals/${referral.id}/pay`, { method: "POST" }))).toBe(400);
      expect((await shop.su.collection("referrals").getOne(referral.id))["status"]).toBe("pending");

      const key = randomUUID();
      const first = await payRaw(tpb, shop.admin, referral.id, key);
      expect(first.status).toBe(200);
      expect(first.replayed).toBe("false");
      expect(first.body.payout).toMatchObject({ referral_id: referral.id, affiliate_id: affiliate.id, amount_cents: 680 });
      expect(first.body.payout.commission_ids).toHaveLength(2);
      expect(first.body.referral).toMatchObject({ id: referral.id, status: "paid", commission_cents: 680, pending_cents: 0 });
      expect(first.body.referral.paid_at).not.toBe("");
      expect(first.body.affiliate).toMatchObject({ total_earnings_cents: 680, pending_earnings_cents: 0, paid_earnings_cents: 680 });

      const stored = await shop.su.collection("referrals").getOne(referral.id);
      expect(stored).toMatchObject({ status: "paid", commission_cents: 680 });
      expect(stored["paid_at"]).not.toBe("");
      const commissions = await shop.su.collection("commissions").getFullList({ filter: `referral_id = "${referral.id}"` });
      expect(commissions.map((c) => c["status"])).toEqual(["paid", "paid"]);
      expect(commissions.every((c) => c["paid_at"] !== "")).toBe(true);
      expect(commissions.map((c) => c.id).sort()).toEqual([...first.body.payout.commission_ids].sort());
      expect(await affiliateOf(owner.id)).toMatchObject({ total_earnings_cents: 680, pending_earnings_cents: 0 });
      const summary = await owner.pb.send("/api/v1/affiliate", {});
      expect(summary).toMatchObject({ total_earnings_cents: 680, pending_earnings_cents: 0, paid_earnings_cents: 680 });
      expect(summary["recent_referrals"]).toEqual([expect.objectContaining({ id: referral.id, status: "paid" })]);

      // A payout record only: nobody's balance or ledger moved.
      expect([await ledgerOf(shop, owner.id), await ledgerOf(shop, referred.id)]).toEqual(ledgersBefore);
      const statsAfter = (await listAffiliates()).stats;
      expect(statsAfter.commission_paid_cents - statsBefore.commission_paid_cents).toBe(680);
      expect(statsAfter.pending_payouts_cents - statsBefore.pending_payouts_cents).toBe(-680);

      const logs = await auditRows(shop.su, `action = "referrals.pay" && target_id = "${referral.id}"`);
      expect(logs).toHaveLength(1);
      expect(logs[0]).toMatchObject({
        target_type: "referrals",
        details: {
          amount_cents: 680,
          payout_id: first.body.payout.id,
          affiliate_id: affiliate.id,
          affiliate_user_id: owner.id,
          affiliate_email: owner.email,
          referred_user_id: referred.id,
          referred_email: referred.email,
          affiliate_pending_before_cents: 680,
          affiliate_pending_after_cents: 0,
        },
      });

      // The same key again: the first payout, nothing more paid, no second audit row.
      const replay = await payRaw(tpb, shop.admin, referral.id, key);
      expect(replay.status).toBe(200);
      expect(replay.replayed).toBe("true");
      expect(replay.body.payout.id).toBe(first.body.payout.id);
      expect(replay.body.payout.amount_cents).toBe(680);
      // A new key: already paid.
      const again = await errorOf(() => pay(shop.admin, referral.id));
      expect(again.status).toBe(409);
      expect(again.message).toBe("This referral is already paid: it has no pending commission.");
      expect(await auditRows(shop.su, `action = "referrals.pay" && target_id = "${referral.id}"`)).toHaveLength(1);
      expect(await affiliateOf(owner.id)).toMatchObject({ total_earnings_cents: 680, pending_earnings_cents: 0 });
      expect(await shop.su.collection("referral_payouts").getFullList({ filter: `referral_id = "${referral.id}"` })).toHaveLength(1);

      // The key of this payout for another referral: refused.
      const other = await referredCustomer(shop, affiliate["code"] as string);
      await paidByStripe(other.pb, "package-10");
      const otherReferral = await shop.su.collection("referrals").getFirstListItem(`referred_user_id = "${other.id}"`);
      expect(await statusOf(() => pay(shop.admin, otherReferral.id, key))).toBe(422);
      expect((await shop.su.collection("referrals").getOne(otherReferral.id))["status"]).toBe("pending");

      // A later commission makes the referral pending again; paying it pays only the new one.
      await paidByStripe(referred.pb, "package-10"); // 200
      expect(await shop.su.collection("referrals").getOne(referral.id)).toMatchObject({ status: "pending", commission_cents: 880 });
      const second = await pay(shop.admin, referral.id);
      expect(second.payout.amount_cents).toBe(200);
      expect(second.referral).toMatchObject({ status: "paid", commission_cents: 880, pending_cents: 0 });
      expect(await affiliateOf(owner.id)).toMatchObject({ total_earnings_cents: 1080, pending_earnings_cents: 200 });
      expect(await auditRows(shop.su, `action = "referrals.pay" && target_id = "${referral.id}"`)).toHaveLength(2);
    });

    it("pays once when two payouts of one referral race", async () => {
      const owner = await customer(shop);
      const affiliate = await affiliateOf(owner.id);
      const referred = await referredCustomer(shop, affiliate["code"] as string);
      await paidByStripe(referred.pb, "package-50"); // 900
      const referral = await shop.su.collection("referrals").getFirstListItem(`referred_user_id = "${referred.id}"`);
      const statuses = await Promise.all([0, 1, 2].map(() => statusOf(() => pay(shop.admin, referral.id))));
      expect(statuses.sort()).toEqual([200, 409, 409]);
      expect(await affiliateOf(owner.id)).toMatchObject({ total_earnings_cents: 900, pending_earnings_cents: 0 });
      expect(await auditRows(shop.su, `action = "referrals.pay" && target_id = "${referral.id}"`)).toHaveLength(1);
    });

    it("refuses a referral with nothing earned (400), an unknown one (404) and any payout in demo mode", async () => {
      const owner = await customer(shop);
      const affiliate = await affiliateOf(owner.id);
      const idle = await referredCustomer(shop, affiliate["code"] as string);
      const idleReferral = await shop.su.collection("referrals").getFirstListItem(`referred_user_id = "${idle.id}"`);
      const nothing = await errorOf(() => pay(shop.admin, idleReferral.id));
      expect(nothing.status).toBe(400);
      expect(nothing.message).toBe("This referral has no pending commission to pay.");
      expect(await statusOf(() => pay(shop.admin, "nosuchreferral1"))).toBe(404);

      const buyer = await referredCustomer(shop, affiliate["code"] as string);
      await paidByStripe(buyer.pb, "package-10");
      const referral = await shop.su.collection("referrals").getFirstListItem(`referred_user_id = "${buyer.id}"`);
      await setDemoMode(shop.su, true);
      try {
        const refused = await errorOf(() => pay(shop.admin, referral.id));
        expect(refused.status).toBe(403);
        expect(refused.message).toBe("Demo mode is on: the console is read-only and changes are not saved.");
        // Reads still work.
        expect(await statusOf(() => adminGet(shop.admin, "/api/admin/affiliates"))).toBe(200);
        expect(await statusOf(() => adminGet(shop.admin, "/api/admin/analytics"))).toBe(200);
      } finally {
        await setDemoMode(shop.su, false);
      }
      expect(await shop.su.collection("referrals").getOne(referral.id)).toMatchObject({ status: "pending", commission_cents: 200 });
      expect(await affiliateOf(owner.id)).toMatchObject({ pending_earnings_cents: 200 });
      expect(await auditRows(shop.su, `action = "referrals.pay" && target_id = "${referral.id}"`)).toHaveLength(0);
      expect(await auditRows(shop.su, `action = "referrals.pay" && target_id = "${idleReferral.id}"`)).toHaveLength(0);
      // Out of demo mode it pays.
      expect((await pay(shop.admin, referral.id)).payout.amount_cents).toBe(200);
    });

    it("keeps payout records out of reach of the records API", async () => {
      const [payout] = await shop.su.collection("referral_payouts").getFullList({ sort: "-created" });
      if (!payout) throw new Error("no payout yet");
      expect(await statusOf(() => shop.su.collection("referral_payouts").update(payout.id, { amount_cents: 1 }))).toBe(403);
      expect(await statusOf(() => shop.su.collection("referral_payouts").delete(payout.id))).toBe(403);
      expect(await statusOf(() => shop.admin.collection("referral_payouts").update(payout.id, { amount_cents: 1 }))).toBe(403);
      expect((await shop.admin.collection("referral_payouts").getOne(payout.id))["amount_cents"]).toBe(payout["amount_cents"]);
      const buyer = await customer(shop);
      expect(await buyer.pb.collection("referral_payouts").getFullList()).toEqual([]);
      // Admin reads of the payout exist, writes go through the pay route only.
      expect(await statusOf(() => adminSend(shop.admin, "/api/admin/referrals/x/pay"))).toBe(400);
    });
  });
});
