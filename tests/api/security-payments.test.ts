// Security review #13, the payment findings, against a real PocketBase:
// - finding 2: the test provider runs only with PAYMENTS_TEST_MODE=true and without Stripe;
//   with neither, buying credits is refused and nothing is written; one Stripe variable
//   alone stops PocketBase from starting; test payments never earn commission.
// - finding 4: Stripe refunds and chargebacks (charge.refunded, charge.dispute.created /
//   .closed) reverse the credits (DEBIT rows that may leave a debt blocking purchases) and
//   the affiliate's commission, once per event whatever the order or number of deliveries.
// - finding 10 (payment side): the card's fingerprint is stored on the payment.
import { describe, expect, it } from "vitest";
import { errorOf, startTestPocketBase } from "../support/pocketbase.ts";
import { addStock, checkout, customer, ledgerOf, purchase, referredCustomer } from "../support/shop.ts";
import { useShop } from "../support/use-shop.ts";
import { stripeDisputeCases } from "./cases/stripe-disputes.ts";
import { stripeReversalKit } from "./cases/stripe-reversals-kit.ts";

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
  const reversals = stripeReversalKit(shop, WEBHOOK_SECRET);
  const { deliver, deliverThrice, paidPayment, refunded, reversalRows } = reversals;

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

  stripeDisputeCases(shop, reversals);
});
