// Security review #13, the payment findings, against a real PocketBase:
// - finding 2: the test provider runs only with PAYMENTS_TEST_MODE=true and without Stripe;
//   with neither, buying credits is refused and nothing is written; one Stripe variable
//   alone stops PocketBase from starting; test payments never earn commission.
// - finding 4: Stripe refunds and chargebacks (charge.refunded, charge.dispute.created /
//   .closed) reverse the credits (DEBIT rows that may leave a debt blocking purchases) and
//   the affiliate's commission, once per event whatever the order or number of deliveries.
// - finding 10 (payment side): the card's fingerprint is stored on the payment.
import { randomUUID } from "node:crypto";
import type { PaymentRecord } from "@/lib/pocketbase-types";
import { describe, expect, it } from "vitest";
import { errorOf, startTestPocketBase } from "../support/pocketbase.ts";
import { addStock, checkout, customer, ledgerOf, post, purchase, referredCustomer } from "../support/shop.ts";
import { deliverStripe, paidSession, stripeEvent, stripeSignature } from "../support/stripe-mock.ts";
import { useShop } from "../support/use-shop.ts";

describe("finding 2: no payment provider unless Stripe is configured or PAYMENTS_TEST_MODE=true", () => {
  const shop = useShop({ env: { PAYMENTS_TEST_MODE: "", STRIPE_SECRET_KEY: "", STRIPE_WEBHOOK_SECRET: "" }, ledger: false });

  it("finding 2: without Stripe and without PAYMENTS_TEST_MODE the checkout is refused (503) and nothing is written", async () => {
    const buyer = await customer(shop);
    const packages = await buyer.pb.send("/api/v1/credits/packages", {});
    expect(packages).toMatchObject({
      provider: "none",
      not_set_up_message:
        "Buying credits is not set up on this shop yet, so nothing was charged. Please try again later or contact support.",
    });
    const err = await errorOf(() => checkout(buyer.pb, "package-100"));
    expect(err.status).toBe(503);
    expect(err.response["message"]).toBe(
      "Buying credits is not set up on this shop yet, so nothing was charged. Please try again later or contact support.",
    );
    expect(await shop.su.collection("payments").getFullList({ filter: `user_id = "${buyer.id}"` })).toHaveLength(0);
    const { rows, balance } = await ledgerOf(shop, buyer.id);
    expect(rows).toHaveLength(0);
    expect(balance).toBe(0);
    // The webhook route stays closed too.
    const hook = await fetch(`${shop.tpb.url}/api/v1/payments/stripe/webhook`, { method: "POST", body: "{}" });
    expect(hook.status).toBe(404);
  });
});

describe("finding 2: one Stripe variable without the other", () => {
  it("finding 2: PocketBase refuses to start and names the missing variable", async () => {
    await expect(startTestPocketBase({ STRIPE_SECRET_KEY: "sk_test_half", STRIPE_WEBHOOK_SECRET: "" })).rejects.toThrow(
      /STRIPE_SECRET_KEY is set but STRIPE_WEBHOOK_SECRET is missing/,
    );
    await expect(startTestPocketBase({ STRIPE_SECRET_KEY: "", STRIPE_WEBHOOK_SECRET: "whsec_half" })).rejects.toThrow(
      /STRIPE_WEBHOOK_SECRET is set but STRIPE_SECRET_KEY is missing/,
    );
  });
});

describe("finding 2: the test provider (PAYMENTS_TEST_MODE=true)", () => {
  const shop = useShop({ env: { PAYMENTS_TEST_MODE: "true" } });

  it("finding 2: test-provider payments credit the buyer but never earn commission", async () => {
    const affiliateUser = await customer(shop);
    const affiliate = await shop.su.collection("affiliates").getFirstListItem(`user_id = "${affiliateUser.id}"`);
    const referred = await referredCustomer(shop, affiliate["code"] as string);
    const res = await checkout(referred.pb, "package-100");
    expect(res.payment).toMatchObject({ provider: "test", status: "paid" });
    expect((await ledgerOf(shop, referred.id)).rows.find((r) => r["reference"] === `payment:${res.payment.id}`)?.["amount_cents"]).toBe(
      10000,
    );
    expect(await shop.su.collection("commissions").getFullList({ filter: `payment_id = "${res.payment.id}"` })).toHaveLength(0);
    expect(await shop.su.collection("affiliates").getOne(affiliate.id)).toMatchObject({
      total_earnings_cents: 0,
      pending_earnings_cents: 0,
    });
    const referral = await shop.su.collection("referrals").getFirstListItem(`referred_user_id = "${referred.id}"`);
    expect(referral["commission_cents"]).toBe(0);
  });
});

describe("finding 4: Stripe refunds and chargebacks (stripe-mock on loopback)", () => {
  const WEBHOOK_SECRET = "whsec_test_reversals";
  const shop = useShop({ stripe: WEBHOOK_SECRET });
  const event = stripeEvent;

  async function deliver(payload: string): Promise<string> {
    const res = await deliverStripe(shop.tpb.url, payload, stripeSignature(payload, WEBHOOK_SECRET));
    const body = (await res.json()) as { outcome: string; message?: string };
    expect(res.status, body.message).toBe(200);
    return body.outcome;
  }

  /** Delivers the same event three times (as Stripe may), one after the other; the outcomes. */
  async function deliverThrice(payload: string): Promise<string[]> {
    return [await deliver(payload), await deliver(payload), await deliver(payload)];
  }

  /** A paid Stripe payment of `buyer` (checkout + checkout.session.completed). */
  async function paidPayment(buyer: { pb: Parameters<typeof post>[0] }, packageId: string): Promise<PaymentRecord> {
    const { payment } = await checkout(buyer.pb, packageId);
    const completed = event("checkout.session.completed", paidSession(payment));
    expect(await deliver(completed)).toBe("credited");
    return shop.su.collection("payments").getOne<PaymentRecord>(payment.id);
  }

  const refunded = (payment: PaymentRecord, amountRefunded: number) =>
    event("charge.refunded", {
      id: `ch_${payment.id}`,
      object: "charge",
      payment_intent: payment["provider_payment_id"],
      amount: payment["amount_cents"],
      amount_refunded: amountRefunded,
      currency: "usd",
      refunded: amountRefunded >= payment["amount_cents"],
      payment_method_details: { card: { fingerprint: "fp_from_charge" } },
    });

  const dispute = (payment: PaymentRecord, type: "created" | "closed", status: string, amount = payment["amount_cents"]) =>
    event(`charge.dispute.${type}`, {
      id: `dp_${payment.id}`,
      object: "dispute",
      charge: `ch_${payment.id}`,
      payment_intent: payment["provider_payment_id"],
      amount,
      currency: "usd",
      status,
    });

  /** The reversal rows of a user: [type, amount, reference]. */
  async function reversalRows(userId: string) {
    const { rows } = await ledgerOf(shop, userId);
    return rows.filter((r) => String(r["reference"]).startsWith("reversal:")).map((r) => [r["type"], r["amount_cents"], r["reference"]]);
  }

  it("finding 10: a credited Stripe payment stores the card's fingerprint from its payment intent", async () => {
    const buyer = await customer(shop);
    const payment = await paidPayment(buyer, "package-10");
    // Hidden from the customer; the superuser sees it. stripe-mock answers this canned fingerprint.
    expect(payment["card_fingerprint"]).toBe("AOB934RVNwzk6xtn");
    const own = await buyer.pb.collection("payments").getOne(payment.id);
    expect(own["card_fingerprint"]).toBeUndefined();
  });

  it("finding 4: a Stripe refund reverses the credits once (three deliveries), leaving a debt that blocks purchases until credits are bought", async () => {
    const buyer = await customer(shop);
    const payment = await paidPayment(buyer, "package-25"); // pays 2400, credits 2500 + 100 bonus
    const [proxyId] = await addStock(shop, { count: 1 });
    const bought = await purchase(buyer.pb, { type: "RESIDENTIAL", country: "US", quantity: 1 });
    expect(bought.proxies.map((p) => p.id)).toEqual([proxyId]);
    const spent = 2600 - bought.balance_cents;

    expect(await deliverThrice(refunded(payment, 2400))).toEqual(["reversed", "already_reversed", "already_reversed"]);
    expect(await reversalRows(buyer.id)).toEqual([["DEBIT", -2600, `reversal:${payment.id}:refund:2400`]]);
    const { rows, balance } = await ledgerOf(shop, buyer.id);
    expect(balance).toBe(-spent);
    expect(rows.at(-1)?.["description"]).toBe(
      `Payment refunded by Stripe (payment ${payment.id.slice(0, 8).toUpperCase()}): $26.00 in credits reversed`,
    );
    expect(await shop.su.collection("payments").getOne(payment.id)).toMatchObject({ status: "refunded", refunded_cents: 2400 });
    // The customer sees the DEBIT row like any other.
    const own = await buyer.pb.collection("transactions").getFullList({ sort: "-created" });
    expect(own.some((r) => r["reference"] === `reversal:${payment.id}:refund:2400`)).toBe(true);

    // The debt blocks purchases, with a message that adds up.
    await addStock(shop, { count: 1 });
    const err = await errorOf(() => purchase(buyer.pb, { type: "RESIDENTIAL", country: "US", quantity: 1 }));
    expect(err.status).toBe(400);
    expect(err.response["message"]).toMatch(/Insufficient balance/);
    expect(err.response["message"]).toContain(`-$${(spent / 100).toFixed(2)}`);
    expect((await ledgerOf(shop, buyer.id)).balance).toBe(-spent);

    // Buying credits settles it.
    await paidPayment(buyer, "package-10");
    expect((await ledgerOf(shop, buyer.id)).balance).toBe(1000 - spent);
  });

  it("finding 4: partial refunds reverse their share from the cumulative amount; a late or replayed partial refund reverses nothing twice", async () => {
    const buyer = await customer(shop);
    const payment = await paidPayment(buyer, "package-50"); // pays 4500, credits 5000 + 500 bonus
    const partial = refunded(payment, 1500); // a third of the money: a third of 5500
    expect(await deliverThrice(partial)).toEqual(["reversed", "already_reversed", "already_reversed"]);
    expect(await shop.su.collection("payments").getOne(payment.id)).toMatchObject({ status: "partially_refunded", refunded_cents: 1500 });
    const full = refunded(payment, 4500);
    expect(await deliverThrice(full)).toEqual(["reversed", "already_reversed", "already_reversed"]);
    // The partial refund delivered again after the full one changes nothing.
    expect(await deliver(partial)).toBe("already_reversed");
    expect(await reversalRows(buyer.id)).toEqual([
      ["DEBIT", -1833, `reversal:${payment.id}:refund:1500`],
      ["DEBIT", -3667, `reversal:${payment.id}:refund:4500`],
    ]);
    expect((await ledgerOf(shop, buyer.id)).balance).toBe(0);
    expect(await shop.su.collection("payments").getOne(payment.id)).toMatchObject({ status: "refunded", refunded_cents: 4500 });
  });

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
    const first = await paidPayment(referred, "package-100"); // commission 1700
    const referral = await shop.su.collection("referrals").getFirstListItem(`referred_user_id = "${referred.id}"`);
    const pay = () =>
      shop.admin.send(`/api/admin/referrals/${referral.id}/pay`, { method: "POST", headers: { "Idempotency-Key": randomUUID() } });
    await pay();
    expect(await shop.su.collection("affiliates").getOne(affiliate.id)).toMatchObject({
      pending_earnings_cents: 0,
      total_earnings_cents: 1700,
    });

    expect(await deliverThrice(refunded(first, 4250))).toEqual(["reversed", "already_reversed", "already_reversed"]); // half
    const clawback = await shop.su.collection("commissions").getFirstListItem(`payment_id = "${first.id}" && reference != ""`);
    expect(clawback).toMatchObject({ amount_cents: -850, status: "pending", reference: "refund:4250" });
    expect(await shop.su.collection("affiliates").getOne(affiliate.id)).toMatchObject({
      pending_earnings_cents: -850,
      total_earnings_cents: 850,
    });
    // Nothing to pay while the clawback outweighs the pending commission.
    const refused = await errorOf(() => pay());
    expect(refused.status).toBe(409);
    expect(refused.response["message"]).toMatch(/clawbacks of refunded or charged-back payments outweigh/);

    await paidPayment(referred, "package-25"); // commission 480
    await paidPayment(referred, "package-50"); // commission 900
    const payout = await pay();
    expect(payout["payout"]["amount_cents"]).toBe(480 + 900 - 850);
    expect(await shop.su.collection("affiliates").getOne(affiliate.id)).toMatchObject({
      pending_earnings_cents: 0,
      total_earnings_cents: 1700 - 850 + 480 + 900,
    });
  });
});
