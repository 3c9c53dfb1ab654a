// Stripe webhook deliveries and the events of refunds and disputes, for the reversal cases of
// security-payments.test.ts (its shop with stripe-mock, signed with `webhookSecret`).
import type { PaymentRecord } from "@/lib/pocketbase-types";
import { expect } from "vitest";
import { checkout, ledgerOf, type post } from "../../support/shop.ts";
import { deliverStripe, paidSession, stripeEvent, stripeSignature } from "../../support/stripe-mock.ts";
import type { ShopFixture } from "../../support/use-shop.ts";

export type StripeReversalKit = ReturnType<typeof stripeReversalKit>;

export function stripeReversalKit(shop: ShopFixture, webhookSecret: string) {
  const event = stripeEvent;

  async function deliver(payload: string): Promise<string> {
    const res = await deliverStripe(shop.tpb.url, payload, stripeSignature(payload, webhookSecret));
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
  return { deliver, deliverThrice, paidPayment, refunded, dispute, reversalRows };
}
