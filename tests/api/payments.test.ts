// Buying credits against a real PocketBase: the test provider of the embedded default, and
// Stripe Checkout against stripe-mock on loopback with webhook events signed here with the
// endpoint secret (bad signature, stale timestamp, replays, amount mismatch). Commissions
// for referred customers. Every test ends with each balance equal to the sum of its ledger.
import { randomUUID } from "node:crypto";
import type { CheckoutResult } from "@/features/credits/api";
import type { PaymentRecord } from "@/lib/pocketbase-types";
import { describe, expect, it } from "vitest";
import { errorOf, statusOf, fieldErrorsOf } from "../support/pocketbase.ts";
import { checkout, customer, ledgerOf, post, referredCustomer } from "../support/shop.ts";
import { deliverStripe, paidSession, stripeEvent, stripeSignature } from "../support/stripe-mock.ts";
import { useShop } from "../support/use-shop.ts";

describe("the test provider (no Stripe keys, PAYMENTS_TEST_MODE=true)", () => {
  const shop = useShop();

  it("lists the packages and says which provider is used", async () => {
    const buyer = await customer(shop);
    const res = await buyer.pb.send("/api/v1/credits/packages", {});
    expect(res).toMatchObject({ provider: "test", currency: "usd" });
    expect(res["packages"]).toEqual([
      { id: "package-10", credits_cents: 1000, price_cents: 1000, bonus_cents: 0, popular: false },
      { id: "package-25", credits_cents: 2500, price_cents: 2400, bonus_cents: 100, popular: false },
      { id: "package-50", credits_cents: 5000, price_cents: 4500, bonus_cents: 500, popular: true },
      { id: "package-100", credits_cents: 10000, price_cents: 8500, bonus_cents: 1500, popular: false },
    ]);
  });

  it("completes at once: credits and bonus as two ledger rows, the money paid on the payment", async () => {
    const buyer = await customer(shop);
    const res = await checkout(buyer.pb, "package-25");
    expect(res.checkout_url).toBeNull();
    expect(res.balance_cents).toBe(2600);
    expect(res.payment).toMatchObject({
      user_id: buyer.id,
      package_id: "package-25",
      amount_cents: 2400,
      credits_cents: 2500,
      bonus_cents: 100,
      provider: "test",
      status: "paid",
      provider_payment_id: `test_${res.payment.id}`,
    });
    expect(res.payment["paid_at"]).toBeTruthy();
    const { rows, balance } = await ledgerOf(shop, buyer.id);
    expect(balance).toBe(2600);
    expect(rows.map((r) => [r["type"], r["amount_cents"], r["stripe_payment_intent_id"], r["reference"]])).toEqual([
      ["CREDIT", 2500, `test_${res.payment.id}`, `payment:${res.payment.id}`],
      ["CREDIT", 100, "", `payment-bonus:${res.payment.id}`],
    ]);
    // The ledger names the package as Buy Credits does (issue #28), never by its id.
    expect(rows.map((r) => r["description"])).toEqual([
      "Purchased the $25.00 Credits package for $24.00",
      "Bonus credits with the $25.00 Credits package",
    ]);
    // The customer reads their own payment; nobody writes payments through the API.
    expect((await buyer.pb.collection("payments").getOne(res.payment.id))["status"]).toBe("paid");
    expect(await statusOf(() => buyer.pb.collection("payments").update(res.payment.id, { status: "failed" }))).toBe(403);
    expect(await statusOf(() => buyer.pb.collection("payments").create({ user_id: buyer.id, package_id: "package-10" }))).toBe(403);
  });

  it("charges the server's price whatever the browser sends, and refuses unknown packages", async () => {
    const buyer = await customer(shop);
    const res = await post<CheckoutResult>(buyer.pb, "/api/v1/credits/checkout", {
      package_id: "package-10",
      price_cents: 1,
      amount_cents: 1,
      credits_cents: 1_000_000,
    });
    expect(res.payment).toMatchObject({ amount_cents: 1000, credits_cents: 1000 });
    const err = await errorOf(() => checkout(buyer.pb, "package-1000"));
    expect(err.status).toBe(400);
    expect(fieldErrorsOf(err)["package_id"]["code"]).toBe("validation_invalid_package");
    expect((await ledgerOf(shop, buyer.id)).balance).toBe(1000);
  });

  it("credits once per Idempotency-Key, also under concurrent retries", async () => {
    const buyer = await customer(shop);
    const key = randomUUID();
    const answers = await Promise.all(Array.from({ length: 20 }, () => checkout(buyer.pb, "package-50", key)));
    expect(new Set(answers.map((a) => a.payment.id)).size).toBe(1);
    expect((await ledgerOf(shop, buyer.id)).balance).toBe(5500);
    expect(await shop.su.collection("payments").getFullList({ filter: `user_id = "${buyer.id}"` })).toHaveLength(1);
  });

  it("earns no commission: test payments move no money (security review #13, finding 2)", async () => {
    const affiliateUser = await customer(shop);
    const affiliate = await shop.su.collection("affiliates").getFirstListItem(`user_id = "${affiliateUser.id}"`);
    const referred = await referredCustomer(shop, affiliate["code"] as string);
    await checkout(referred.pb, "package-100");
    expect(await shop.su.collection("affiliates").getOne(affiliate.id)).toMatchObject({
      total_earnings_cents: 0,
      pending_earnings_cents: 0,
    });
    expect(await affiliateUser.pb.collection("commissions").getFullList()).toHaveLength(0);
  });

  it("needs a verified e-mail and an Idempotency-Key", async () => {
    const unverified = await customer(shop, 0, { verified: false });
    expect(await statusOf(() => checkout(unverified.pb, "package-10"))).toBe(403);
    const buyer = await customer(shop);
    expect(await statusOf(() => checkout(buyer.pb, "package-10", null))).toBe(400);
    expect(await statusOf(() => checkout(shop.tpb.client(), "package-10"))).toBe(401);
    expect((await ledgerOf(shop, unverified.id)).rows).toHaveLength(0);
    expect((await ledgerOf(shop, buyer.id)).rows).toHaveLength(0);
  });
});

describe("Stripe Checkout (stripe-mock on loopback)", () => {
  const WEBHOOK_SECRET = "whsec_test_proxyshop";
  const shop = useShop({ stripe: WEBHOOK_SECRET });

  function sessionEvent(payment: PaymentRecord, overrides: Record<string, unknown> = {}, type = "checkout.session.completed") {
    return stripeEvent(type, paidSession(payment, { id: "cs_test_1", ...overrides }));
  }

  function deliver(payload: string, signature = stripeSignature(payload, WEBHOOK_SECRET)) {
    return deliverStripe(shop.tpb.url, payload, signature);
  }

  /** A checkout paid through Stripe: the signed checkout.session.completed delivered. */
  async function paid(pb: Parameters<typeof post>[0], packageId: string) {
    const res = await checkout(pb, packageId);
    expect(((await (await deliver(sessionEvent(res.payment))).json()) as { outcome: string }).outcome).toBe("credited");
    return res;
  }

  it("pays the referring affiliate 20% of the money a Stripe payment paid (not of the bonus) as a pending commission", async () => {
    const affiliateUser = await customer(shop);
    const affiliate = await shop.su.collection("affiliates").getFirstListItem(`user_id = "${affiliateUser.id}"`);
    const referred = await referredCustomer(shop, affiliate["code"] as string);
    const first = await paid(referred.pb, "package-25");
    await paid(referred.pb, "package-100");

    const after = await shop.su.collection("affiliates").getOne(affiliate.id);
    expect(after).toMatchObject({ total_earnings_cents: 480 + 1700, pending_earnings_cents: 480 + 1700, total_referrals: 1 });
    const referral = await shop.su.collection("referrals").getFirstListItem(`referred_user_id = "${referred.id}"`);
    expect(referral).toMatchObject({ commission_cents: 2180, status: "pending" });
    const commissions = await affiliateUser.pb.collection("commissions").getFullList({ sort: "created" });
    expect(commissions.map((c) => [c["payment_id"], c["amount_cents"], c["status"]])).toEqual([
      [first.payment.id, 480, "pending"],
      [expect.any(String), 1700, "pending"],
    ]);
    // The affiliate page's figures.
    const summary = await affiliateUser.pb.send("/api/v1/affiliate", {});
    expect(summary).toMatchObject({
      code: affiliate["code"],
      total_referrals: 1,
      total_earnings_cents: 2180,
      pending_earnings_cents: 2180,
      paid_earnings_cents: 0,
      this_month_earnings_cents: 2180,
      program: { commission_percent: 20, cookie_days: 30, minimum_payout_cents: 5000, payout_schedule: "monthly" },
    });
    expect(summary["recent_referrals"]).toEqual([
      {
        id: referral.id,
        created: referral["created"],
        name: "Rita R.",
        email: expect.stringMatching(/^r\*\*\*@api\.test$/),
        commission_cents: 2180,
        status: "pending",
      },
    ]);
    // The referred customer cannot see the affiliate's commissions; nobody earns from their own purchases.
    expect(await referred.pb.collection("commissions").getFullList()).toHaveLength(0);
    await paid(affiliateUser.pb, "package-10");
    expect((await shop.su.collection("affiliates").getOne(affiliate.id))["total_earnings_cents"]).toBe(2180);
  });

  it("opens a Checkout Session at the server's price and credits nothing until the webhook", async () => {
    const buyer = await customer(shop);
    const res = await checkout(buyer.pb, "package-25");
    expect(res.checkout_url).toMatch(/^https:\/\/checkout\.stripe\.com\//);
    expect(res.payment).toMatchObject({ provider: "stripe", status: "pending", amount_cents: 2400 });
    expect(res.payment["provider_session_id"]).toMatch(/^cs_/);
    expect(res.balance_cents).toBe(0);
    // A retry with the same key gets the same payment and session.
    const key = randomUUID();
    const a = await checkout(buyer.pb, "package-10", key);
    const b = await checkout(buyer.pb, "package-10", key);
    expect(b.payment.id).toBe(a.payment.id);
    expect(b.checkout_url).toBe(a.checkout_url);
    expect((await ledgerOf(shop, buyer.id)).rows).toHaveLength(0);
  });

  it("credits a verified webhook once, however often it is delivered, with the payment intent on the CREDIT row", async () => {
    const buyer = await customer(shop);
    const { payment } = await checkout(buyer.pb, "package-50");
    const payload = sessionEvent(payment);
    const responses = await Promise.all(Array.from({ length: 20 }, () => deliver(payload)));
    expect(responses.map((r) => r.status)).toEqual(Array(20).fill(200));
    const outcomes = await Promise.all(responses.map(async (r) => ((await r.json()) as { outcome: string }).outcome));
    expect(outcomes.filter((o) => o === "credited")).toHaveLength(1);
    expect(outcomes.filter((o) => o === "already_paid")).toHaveLength(19);

    const { rows, balance } = await ledgerOf(shop, buyer.id);
    expect(balance).toBe(5500);
    expect(rows.map((r) => [r["amount_cents"], r["stripe_payment_intent_id"]])).toEqual([
      [5000, `pi_${payment.id}`],
      [500, ""],
    ]);
    expect(await shop.su.collection("payments").getOne(payment.id)).toMatchObject({
      status: "paid",
      provider_payment_id: `pi_${payment.id}`,
    });
  });

  it("refuses a bad signature, a stale timestamp and an unsigned event, crediting nothing", async () => {
    const buyer = await customer(shop);
    const { payment } = await checkout(buyer.pb, "package-100");
    const payload = sessionEvent(payment);

    const bad = await deliver(payload, stripeSignature(payload, "whsec_someone_else"));
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { message: string }).message).toBe("Invalid Stripe signature.");

    const tampered = await deliver(payload.replace('"amount_total":8500', '"amount_total":1'), stripeSignature(payload, WEBHOOK_SECRET));
    expect(tampered.status).toBe(400);

    const stale = await deliver(payload, stripeSignature(payload, WEBHOOK_SECRET, Math.floor(Date.now() / 1000) - 3600));
    expect(stale.status).toBe(400);
    expect(((await stale.json()) as { message: string }).message).toMatch(/timestamp is too old/);

    const unsigned = await fetch(`${shop.tpb.url}/api/v1/payments/stripe/webhook`, { method: "POST", body: payload });
    expect(unsigned.status).toBe(400);

    // A customer cannot credit themselves through the webhook route with their session either.
    expect(await statusOf(() => buyer.pb.send("/api/v1/payments/stripe/webhook", { method: "POST", body: JSON.parse(payload) }))).toBe(400);

    expect((await ledgerOf(shop, buyer.id)).rows).toHaveLength(0);
    expect((await shop.su.collection("payments").getOne(payment.id))["status"]).toBe("pending");
  });

  it("marks a payment failed when the amount paid differs, or the checkout expires, and never credits it", async () => {
    const buyer = await customer(shop);
    const mismatch = (await checkout(buyer.pb, "package-25")).payment;
    const res = await deliver(sessionEvent(mismatch, { amount_total: 100 }));
    expect(((await res.json()) as { outcome: string }).outcome).toBe("mismatch");
    expect(await shop.su.collection("payments").getOne(mismatch.id)).toMatchObject({ status: "failed" });

    const expired = (await checkout(buyer.pb, "package-10")).payment;
    await deliver(sessionEvent(expired, { payment_status: "unpaid" }, "checkout.session.expired"));
    expect((await shop.su.collection("payments").getOne(expired.id))["status"]).toBe("failed");
    expect((await ledgerOf(shop, buyer.id)).rows).toHaveLength(0);
  });

  it("waits for delayed payment methods and credits on async_payment_succeeded", async () => {
    const buyer = await customer(shop);
    const { payment } = await checkout(buyer.pb, "package-10");
    const pending = await deliver(sessionEvent(payment, { payment_status: "unpaid" }));
    expect(((await pending.json()) as { outcome: string }).outcome).toBe("awaiting_payment");
    expect((await ledgerOf(shop, buyer.id)).rows).toHaveLength(0);
    await deliver(sessionEvent(payment, {}, "checkout.session.async_payment_succeeded"));
    expect((await ledgerOf(shop, buyer.id)).balance).toBe(1000);
  });
});
