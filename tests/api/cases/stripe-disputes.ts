// Stripe disputes, revenue after reversals and clawbacks of paid-out commission (security
// review #13, finding 4), run in security-payments.test.ts's stripe-mock shop.
import { randomUUID } from "node:crypto";
import { expect, it } from "vitest";
import { errorOf } from "../../support/pocketbase.ts";
import { customer, ledgerOf, referredCustomer } from "../../support/shop.ts";
import type { ShopFixture } from "../../support/use-shop.ts";
import type { StripeReversalKit } from "./stripe-reversals-kit.ts";

export function stripeDisputeCases(
  shop: ShopFixture,
  { deliver, deliverThrice, paidPayment, refunded, dispute, reversalRows }: StripeReversalKit,
): void {
  it("finding 4: a dispute takes the credits back when opened and gives them back when won; the pending commission follows", async () => {
    const affiliateUser = await customer(shop);
    const affiliate = await shop.su.collection("affiliates").getFirstListItem(`user_id = "${affiliateUser.id}"`);
    const referred = await referredCustomer(shop, affiliate["code"] as string);
    const payment = await paidPayment(referred, "package-100"); // pays 8500: commission 1700
    expect(await shop.su.collection("affiliates").getOne(affiliate.id)).toMatchObject({ pending_earnings_cents: 1700 });

    expect(await deliverThrice(dispute(payment, "created", "needs_response"))).toEqual([
      "reversed",
      "already_reversed",
      "already_reversed",
    ]);
    expect(await shop.su.collection("payments").getOne(payment.id)).toMatchObject({
      status: "disputed",
      dispute_status: "open",
      disputed_cents: 8500,
    });
    const welcome = (await ledgerOf(shop, referred.id)).rows
      .filter((r) => r["reference"] === "welcome")
      .reduce((s, r) => s + (r["amount_cents"] as number), 0);
    expect((await ledgerOf(shop, referred.id)).balance).toBe(welcome);
    expect(await shop.su.collection("affiliates").getOne(affiliate.id)).toMatchObject({
      pending_earnings_cents: 0,
      total_earnings_cents: 0,
    });
    const commission = await shop.su.collection("commissions").getFirstListItem(`payment_id = "${payment.id}"`);
    expect(commission).toMatchObject({ amount_cents: 1700, reversed_cents: 1700, status: "reversed" });

    expect(await deliverThrice(dispute(payment, "closed", "won"))).toEqual(["restored", "already_closed", "already_closed"]);
    // The dispute opened again late changes nothing.
    expect(await deliver(dispute(payment, "created", "needs_response"))).toBe("already_closed");
    expect(await reversalRows(referred.id)).toEqual([
      ["DEBIT", -10000 - 1500, `reversal:${payment.id}:dispute:dp_${payment.id}`],
      ["CREDIT", 11500, `reversal:${payment.id}:dispute-won:dp_${payment.id}`],
    ]);
    expect((await ledgerOf(shop, referred.id)).balance).toBe(welcome + 11500);
    expect(await shop.su.collection("payments").getOne(payment.id)).toMatchObject({ status: "paid", dispute_status: "won" });
    expect(await shop.su.collection("affiliates").getOne(affiliate.id)).toMatchObject({
      pending_earnings_cents: 1700,
      total_earnings_cents: 1700,
    });
    const referral = await shop.su.collection("referrals").getFirstListItem(`referred_user_id = "${referred.id}"`);
    expect(referral["commission_cents"]).toBe(1700);
  });

  it("finding 4: a dispute closed (lost) before its opening arrives reverses once; closed (won) before opening reverses nothing", async () => {
    const buyer = await customer(shop);
    const lost = await paidPayment(buyer, "package-10");
    expect(await deliverThrice(dispute(lost, "closed", "lost"))).toEqual(["lost", "already_closed", "already_closed"]);
    expect(await deliverThrice(dispute(lost, "created", "needs_response"))).toEqual(["already_closed", "already_closed", "already_closed"]);
    expect(await reversalRows(buyer.id)).toEqual([["DEBIT", -1000, `reversal:${lost.id}:dispute:dp_${lost.id}`]]);
    expect(await shop.su.collection("payments").getOne(lost.id)).toMatchObject({ status: "disputed", dispute_status: "lost" });

    const won = await paidPayment(buyer, "package-10");
    expect(await deliver(dispute(won, "closed", "won"))).toBe("won");
    expect(await deliverThrice(dispute(won, "created", "needs_response"))).toEqual(["already_closed", "already_closed", "already_closed"]);
    expect((await reversalRows(buyer.id)).filter((r) => String(r[2]).includes(won.id))).toEqual([]);
    expect((await ledgerOf(shop, buyer.id)).balance).toBe(1000);
    expect(await shop.su.collection("payments").getOne(won.id)).toMatchObject({ status: "paid", dispute_status: "won" });
  });

  it("finding 2 and 4: revenue counts the money kept from Stripe payments (minus refunds and lost disputes), test payments apart", async () => {
    type Figures = { total_revenue_cents: number; test_payments_cents: number };
    const overview = () => shop.admin.send<Figures>("/api/admin/overview", {});
    const analytics = () => shop.admin.send<Figures & { period_revenue_cents: number }>("/api/admin/analytics", { query: { days: 7 } });
    const [o0, a0] = [await overview(), await analytics()];
    const buyer = await customer(shop);
    const kept = await paidPayment(buyer, "package-100"); // 8500
    const halfRefunded = await paidPayment(buyer, "package-50"); // 4500, 1500 refunded
    const lost = await paidPayment(buyer, "package-25"); // 2400, dispute lost
    const won = await paidPayment(buyer, "package-10"); // 1000, dispute won
    await deliver(refunded(halfRefunded, 1500));
    await deliver(dispute(lost, "created", "needs_response"));
    await deliver(dispute(lost, "closed", "lost"));
    await deliver(dispute(won, "created", "needs_response"));
    await deliver(dispute(won, "closed", "won"));
    expect(kept["status"]).toBe("paid");
    const [o1, a1] = [await overview(), await analytics()];
    const money = 8500 + 3000 + 0 + 1000;
    expect(o1.total_revenue_cents - o0.total_revenue_cents).toBe(money);
    expect(a1.total_revenue_cents - a0.total_revenue_cents).toBe(money);
    expect(a1.period_revenue_cents - a0.period_revenue_cents).toBe(money);
    expect(o1.test_payments_cents).toBe(0);
  });

  it("finding 4: a refund after the commission was paid out books a clawback that the next payout nets", async () => {
    const affiliateUser = await customer(shop);
    const affiliate = await shop.su.collection("affiliates").getFirstListItem(`user_id = "${affiliateUser.id}"`);
    const referred = await referredCustomer(shop, affiliate["code"] as string);
    // A payout is at least $50.00 (catalog.json affiliate.minimum_payout_cents): 3 x 1700.
    const first = await paidPayment(referred, "package-100"); // commission 1700
    await paidPayment(referred, "package-100");
    await paidPayment(referred, "package-100");
    const referral = await shop.su.collection("referrals").getFirstListItem(`referred_user_id = "${referred.id}"`);
    const pay = () =>
      shop.admin.send(`/api/admin/referrals/${referral.id}/pay`, { method: "POST", headers: { "Idempotency-Key": randomUUID() } });
    await pay();
    expect(await shop.su.collection("affiliates").getOne(affiliate.id)).toMatchObject({
      pending_earnings_cents: 0,
      total_earnings_cents: 5100,
    });

    expect(await deliverThrice(refunded(first, 4250))).toEqual(["reversed", "already_reversed", "already_reversed"]); // half
    const clawback = await shop.su.collection("commissions").getFirstListItem(`payment_id = "${first.id}" && reference != ""`);
    expect(clawback).toMatchObject({ amount_cents: -850, status: "pending", reference: "refund:4250" });
    expect(await shop.su.collection("affiliates").getOne(affiliate.id)).toMatchObject({
      pending_earnings_cents: -850,
      total_earnings_cents: 5100 - 850,
    });
    // Nothing to pay while the clawback outweighs the pending commission.
    const refused = await errorOf(() => pay());
    expect(refused.status).toBe(409);
    expect(refused.response["message"]).toMatch(/clawbacks of refunded or charged-back payments outweigh/);

    for (let i = 0; i < 3; i++) await paidPayment(referred, "package-100"); // commission 3 x 1700
    await paidPayment(referred, "package-50"); // commission 900
    const payout = await pay();
    expect(payout["payout"]["amount_cents"]).toBe(5100 + 900 - 850);
    expect(await shop.su.collection("affiliates").getOne(affiliate.id)).toMatchObject({
      pending_earnings_cents: 0,
      total_earnings_cents: 5100 - 850 + 5100 + 900,
    });
  });
}
