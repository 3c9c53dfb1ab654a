// Affiliate Management's cases, run in console-insights.test.ts's shop: the affiliates list
// and its stats, referrals, and paying a referral (one audit row, commissions paid,
// earnings moved, paying twice pays once, key replays, nothing pending, demo mode). A payout
// is at least $50.00 (catalog.json affiliate.minimum_payout_cents; its own cases are in
// affiliate-payouts.test.ts): the paid referrals here earn 3 x $17.00 (earnMinimum).
import { randomUUID } from "node:crypto";
import type { AffiliatePage, PayoutResult, ReferralPage } from "@/features/console-affiliates/api";
import type PocketBase from "pocketbase";
import type { RecordModel } from "pocketbase";
import { expect, it } from "vitest";
import { adminGet, adminSend, auditRows, setDemoMode } from "../../support/admin.ts";
import { errorOf, statusOf, type TestPocketBase } from "../../support/pocketbase.ts";
import { customer, ledgerOf, referredCustomer, type Shop } from "../../support/shop.ts";

/** The pay route's answer: the payout as stored. */
interface PayResponse extends PayoutResult {
  payout: PayoutResult["payout"] & { referral_id: string; affiliate_id: string; admin_id: string; commission_ids: string[] };
}

/** POST the pay route with fetch, to read the Idempotent-Replayed header. */
async function payRaw(tpb: TestPocketBase, pb: PocketBase, referralId: string, key: string) {
  const res = await fetch(`${tpb.url}/api/admin/referrals/${referralId}/pay`, {
    method: "POST",
    headers: { Authorization: pb.authStore.token, "Idempotency-Key": key },
  });
  return { status: res.status, replayed: res.headers.get("Idempotent-Replayed"), body: (await res.json()) as PayResponse };
}

export const pay = (pb: PocketBase, referralId: string, key: string = randomUUID()) =>
  pb.send<PayResponse>(`/api/admin/referrals/${referralId}/pay`, { method: "POST", headers: { "Idempotency-Key": key } });

export function affiliatePayoutCases(shop: Shop, paidByStripe: (pb: PocketBase, packageId: string) => Promise<unknown>): void {
  async function affiliateOf(userId: string): Promise<RecordModel> {
    return shop.su.collection("affiliates").getFirstListItem(`user_id = "${userId}"`);
  }

  /** A new customer, their affiliates row and its code. */
  async function newAffiliate() {
    const owner = await customer(shop);
    const affiliate = await affiliateOf(owner.id);
    return { owner, affiliate, code: affiliate["code"] as string };
  }

  /** Three package-100 payments by the referred customer: $51.00 of commission, over the minimum payout. */
  async function earnMinimum(pb: PocketBase): Promise<number> {
    for (let i = 0; i < 3; i++) await paidByStripe(pb, "package-100");
    return 3 * 1700;
  }

  /** The referral of the customer `referredId` (each customer is referred once at the most). */
  const referralOf = (referredId: string) => shop.su.collection("referrals").getFirstListItem(`referred_user_id = "${referredId}"`);

  /** The audit rows of payouts of `referralId`. */
  const payoutAudits = (referralId: string) => auditRows(shop.su, `action = "referrals.pay" && target_id = "${referralId}"`);

  async function listAffiliates(query: Record<string, string | number> = {}) {
    return adminGet<AffiliatePage>(shop.admin, "/api/admin/affiliates", query);
  }

  it("lists affiliates with referrals or earnings, searchable, with the programme's stats", async () => {
    const before = await listAffiliates();
    const { owner, affiliate, code } = await newAffiliate();
    const ownerUser = await shop.su.collection("users").update(owner.id, { first_name: "Ines", last_name: "Affiliate" });
    const idle = await customer(shop); // no referrals: not listed
    const unverifiedOnly = await customer(shop);
    await referredCustomer(shop, (await affiliateOf(unverifiedOnly.id))["code"] as string, { verified: false });

    const referred = await referredCustomer(shop, code);
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
        payout_method: "",
      },
    ]);
    expect(found.totalItems).toBe(1);
    for (const search of [code, code.toLowerCase(), "ines affiliate", "INES"]) {
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
    const { owner, affiliate, code } = await newAffiliate();
    const first = await referredCustomer(shop, code, { first: "Fiona" });
    const second = await referredCustomer(shop, code, { first: "Sam" });
    await paidByStripe(second.pb, "package-50"); // 900
    const res = await adminGet<ReferralPage>(shop.admin, `/api/admin/affiliates/${affiliate.id}/referrals`);
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
    const paged = await adminGet<ReferralPage>(shop.admin, `/api/admin/affiliates/${affiliate.id}/referrals`, {
      perPage: 1,
      page: 2,
    });
    expect(paged.items.map((r) => r.referred_user_id)).toEqual([first.id]);
    expect(paged.totalPages).toBe(2);
  });

  it("pays a referral once: commissions paid, earnings moved, one audit row, no balance change", async () => {
    const { owner, affiliate, code } = await newAffiliate();
    const referred = await referredCustomer(shop, code);
    const earned = await earnMinimum(referred.pb); // 5100
    const referral = await referralOf(referred.id);
    const ledgersBefore = [await ledgerOf(shop, owner.id), await ledgerOf(shop, referred.id)];
    const statsBefore = (await listAffiliates()).stats;

    expect(await statusOf(() => shop.admin.send(`/api/admin/referrals/${referral.id}/pay`, { method: "POST" }))).toBe(400);
    expect((await shop.su.collection("referrals").getOne(referral.id))["status"]).toBe("pending");

    const key = randomUUID();
    const first = await payRaw(shop.tpb, shop.admin, referral.id, key);
    expect(first.status).toBe(200);
    expect(first.replayed).toBe("false");
    expect(first.body.payout).toMatchObject({ referral_id: referral.id, affiliate_id: affiliate.id, amount_cents: earned });
    expect(first.body.payout.commission_ids).toHaveLength(3);
    expect(first.body.referral).toMatchObject({ id: referral.id, status: "paid", commission_cents: earned, pending_cents: 0 });
    expect(first.body.referral.paid_at).not.toBe("");
    expect(first.body.affiliate).toMatchObject({ total_earnings_cents: earned, pending_earnings_cents: 0, paid_earnings_cents: earned });

    const stored = await shop.su.collection("referrals").getOne(referral.id);
    expect(stored).toMatchObject({ status: "paid", commission_cents: earned });
    expect(stored["paid_at"]).not.toBe("");
    const commissions = await shop.su.collection("commissions").getFullList({ filter: `referral_id = "${referral.id}"` });
    expect(commissions.map((c) => c["status"])).toEqual(["paid", "paid", "paid"]);
    expect(commissions.every((c) => c["paid_at"] !== "")).toBe(true);
    expect(commissions.map((c) => c.id).sort()).toEqual([...first.body.payout.commission_ids].sort());
    expect(await affiliateOf(owner.id)).toMatchObject({ total_earnings_cents: earned, pending_earnings_cents: 0 });
    const summary = await owner.pb.send("/api/v1/affiliate", {});
    expect(summary).toMatchObject({ total_earnings_cents: earned, pending_earnings_cents: 0, paid_earnings_cents: earned });
    expect(summary["recent_referrals"]).toEqual([expect.objectContaining({ id: referral.id, status: "paid" })]);

    // A payout record only: nobody's balance or ledger moved.
    expect([await ledgerOf(shop, owner.id), await ledgerOf(shop, referred.id)]).toEqual(ledgersBefore);
    const statsAfter = (await listAffiliates()).stats;
    expect(statsAfter.commission_paid_cents - statsBefore.commission_paid_cents).toBe(earned);
    expect(statsAfter.pending_payouts_cents - statsBefore.pending_payouts_cents).toBe(-earned);

    const logs = await payoutAudits(referral.id);
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatchObject({
      target_type: "referrals",
      details: {
        amount_cents: earned,
        payout_id: first.body.payout.id,
        affiliate_id: affiliate.id,
        affiliate_user_id: owner.id,
        affiliate_email: owner.email,
        referred_user_id: referred.id,
        referred_email: referred.email,
        affiliate_pending_before_cents: earned,
        affiliate_pending_after_cents: 0,
      },
    });

    // The same key again: the first payout, nothing more paid, no second audit row.
    const replay = await payRaw(shop.tpb, shop.admin, referral.id, key);
    expect(replay.status).toBe(200);
    expect(replay.replayed).toBe("true");
    expect(replay.body.payout.id).toBe(first.body.payout.id);
    expect(replay.body.payout.amount_cents).toBe(earned);
    // A new key: already paid.
    const again = await errorOf(() => pay(shop.admin, referral.id));
    expect(again.status).toBe(409);
    expect(again.message).toBe("This referral is already paid: it has no pending commission.");
    expect(await payoutAudits(referral.id)).toHaveLength(1);
    expect(await affiliateOf(owner.id)).toMatchObject({ total_earnings_cents: earned, pending_earnings_cents: 0 });
    expect(await shop.su.collection("referral_payouts").getFullList({ filter: `referral_id = "${referral.id}"` })).toHaveLength(1);

    // The key of this payout for another referral: refused.
    const other = await referredCustomer(shop, code);
    await paidByStripe(other.pb, "package-10");
    const otherReferral = await referralOf(other.id);
    expect(await statusOf(() => pay(shop.admin, otherReferral.id, key))).toBe(422);
    expect((await shop.su.collection("referrals").getOne(otherReferral.id))["status"]).toBe("pending");

    // A later commission makes the referral pending again; it waits for the minimum payout.
    await paidByStripe(referred.pb, "package-10"); // 200
    expect(await shop.su.collection("referrals").getOne(referral.id)).toMatchObject({ status: "pending", commission_cents: earned + 200 });
    const small = await errorOf(() => pay(shop.admin, referral.id));
    expect(small.status).toBe(400);
    expect(small.message).toBe("Payout must be at least $50.00: this referral has $2.00 pending.");
    // Once it reaches the minimum, paying it pays only the new commissions.
    const more = await earnMinimum(referred.pb);
    const second = await pay(shop.admin, referral.id);
    expect(second.payout.amount_cents).toBe(200 + more);
    expect(second.referral).toMatchObject({ status: "paid", commission_cents: earned + 200 + more, pending_cents: 0 });
    // (the other referral's $2.00 still pending)
    expect(await affiliateOf(owner.id)).toMatchObject({ total_earnings_cents: earned + 200 + more + 200, pending_earnings_cents: 200 });
    expect(await payoutAudits(referral.id)).toHaveLength(2);
  });

  it("pays once when two payouts of one referral race", async () => {
    const { owner, code } = await newAffiliate();
    const referred = await referredCustomer(shop, code);
    const earned = await earnMinimum(referred.pb);
    const referral = await referralOf(referred.id);
    const statuses = await Promise.all([0, 1, 2].map(() => statusOf(() => pay(shop.admin, referral.id))));
    expect(statuses.sort()).toEqual([200, 409, 409]);
    expect(await affiliateOf(owner.id)).toMatchObject({ total_earnings_cents: earned, pending_earnings_cents: 0 });
    expect(await payoutAudits(referral.id)).toHaveLength(1);
  });

  it("refuses a referral with nothing earned (400), an unknown one (404) and any payout in demo mode", async () => {
    const { owner, code } = await newAffiliate();
    const idle = await referredCustomer(shop, code);
    const idleReferral = await referralOf(idle.id);
    const nothing = await errorOf(() => pay(shop.admin, idleReferral.id));
    expect(nothing.status).toBe(400);
    expect(nothing.message).toBe("This referral has no pending commission to pay.");
    expect(await statusOf(() => pay(shop.admin, "nosuchreferral1"))).toBe(404);

    const buyer = await referredCustomer(shop, code);
    const earned = await earnMinimum(buyer.pb);
    const referral = await referralOf(buyer.id);
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
    expect(await shop.su.collection("referrals").getOne(referral.id)).toMatchObject({ status: "pending", commission_cents: earned });
    expect(await affiliateOf(owner.id)).toMatchObject({ pending_earnings_cents: earned });
    expect(await payoutAudits(referral.id)).toHaveLength(0);
    expect(await payoutAudits(idleReferral.id)).toHaveLength(0);
    // Out of demo mode it pays.
    expect((await pay(shop.admin, referral.id)).payout.amount_cents).toBe(earned);
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
}
