// Credits bought under the soak load: a checkout, and with Stripe the signed
// checkout.session.completed webhook (sometimes delivered twice), recorded in the Book.
import { paidSession, stripeEvent, stripeSignature } from "../../support/stripe-mock.ts";
import type { Actor, LoadOptions } from "./load.ts";
import { nextKey, nextSeq, send } from "./load-send.ts";
import type { Prng } from "./soak-client.ts";

const PACKAGE_CENTS: Record<string, number> = { "package-10": 1000, "package-25": 2600 };

export async function buyCredits(options: LoadOptions, actor: Actor, rng: Prng): Promise<void> {
  const packageId = rng.chance(0.8) ? "package-10" : "package-25";
  const res = await send(
    options,
    { key: nextKey(options, actor), kind: "checkout", userId: actor.id, body: { package_id: packageId } },
    "/api/v1/credits/checkout",
    actor.token,
  );
  if (!res.answer) return;
  const payment = res.answer.body["payment"] as Record<string, unknown>;
  const paymentId = String(payment["id"]);
  res.entry.paymentId = paymentId;
  const paid = payment["status"] === "paid";
  options.book.payments.set(paymentId, { userId: actor.id, cents: PACKAGE_CENTS[packageId] ?? 0, paid, key: res.entry.key });
  if (options.provider === "test") {
    if (!paid) options.book.problems.push(`test-provider payment ${paymentId} answered ${String(payment["status"])}`);
    return;
  }
  // Stripe: the customer pays on Stripe's page, Stripe calls the webhook (sometimes twice).
  const deliveries = rng.chance(0.2) ? 2 : 1;
  for (let i = 0; i < deliveries; i++) await deliverWebhook(options, payment);
}

/** Stripe's checkout.session.completed for `payment` (one event id per payment). */
export function sessionCompleted(payment: Record<string, unknown>): string {
  const id = String(payment["id"]);
  const session = payment["provider_session_id"];
  return stripeEvent(
    "checkout.session.completed",
    paidSession({ ...payment, id }, { id: typeof session === "string" && session ? session : `cs_${id}`, payment_intent: `pi_${id}` }),
    `evt_${id}`,
  );
}

export { stripeSignature };

async function deliverWebhook(options: LoadOptions, payment: Record<string, unknown>): Promise<void> {
  const paymentId = String(payment["id"]);
  const payload = sessionCompleted(payment);
  const secret = options.webhookSecret ?? "";
  // Each delivery is a request of its own (the same event, signed once; a retry after no answer resends it).
  const key = `webhook:${paymentId}:${nextSeq()}`;
  const res = await send(
    options,
    { key, kind: "webhook", userId: String(payment["user_id"]), body: null, paymentId },
    "/api/v1/payments/stripe/webhook",
    undefined,
    { headers: { "stripe-signature": stripeSignature(payload, secret) }, raw: payload },
  );
  const outcome = res.answer?.body["outcome"];
  if (res.answer && outcome !== "credited" && outcome !== "already_paid") {
    options.book.problems.push(`webhook for ${paymentId} answered outcome ${String(outcome)}`);
  }
  const known = options.book.payments.get(paymentId);
  if (res.answer && known) known.paid = true;
}
