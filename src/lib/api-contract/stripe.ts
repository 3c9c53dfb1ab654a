// Stripe's webhook (pb_hooks/lib/money/stripe.js): Stripe calls it, customers never need it.
// It is in the document because it lives under /api/v1, so the contract covers every route.
import * as v from "valibot";
import { routeList, routesOf } from "./define";

const stripe = routesOf({ tag: "Stripe", scope: "public" });

export const receiveStripeWebhook = stripe.post("/payments/stripe/webhook", {
  summary: "Stripe's payment events (Stripe calls this; you never need it)",
  description:
    "Where Stripe reports checkouts, refunds and disputes of credit purchases. Its only credential is the Stripe-Signature header, checked against the shop's webhook secret: a bad signature or a stale timestamp is a 400 and changes nothing; 404 when the shop does not take Stripe payments. Every event is idempotent: a replay moves nothing.",
  // Stripe's body, whose credential is its signature: checked by the hook after the
  // signature, so an unsigned caller learns nothing from the shop's answer.
  validated: false,
  body: v.pipe(
    v.looseObject({
      id: v.string(),
      type: v.pipe(v.string(), v.description('e.g. "checkout.session.completed", "charge.refunded".')),
      data: v.looseObject({ object: v.record(v.string(), v.unknown()) }),
    }),
    v.title("StripeEvent"),
    v.description("A Stripe event as Stripe posts it."),
    v.examples([
      {
        id: "evt_1QExample",
        type: "checkout.session.completed",
        data: { object: { id: "cs_test_a1Example", object: "checkout.session", payment_status: "paid" } },
      },
    ]),
  ),
  response: v.pipe(
    v.object({
      received: v.literal(true),
      outcome: v.pipe(v.string(), v.description('What the event did, e.g. "credited", "already_paid", "reversed", "ignored".')),
    }),
    v.title("StripeWebhookReceipt"),
    v.examples([{ received: true, outcome: "credited" }]),
  ),
  errors: [404],
});

export const stripeRoutes = routeList({ receiveStripeWebhook });
