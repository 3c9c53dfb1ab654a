// @ts-check
// Buying credits. One provider interface, two providers:
// - "stripe" when STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET are set: a Checkout Session
//   is created on the server at the server's price, and the balance is credited only by a
//   verified webhook (verifyStripeSignature);
// - "test" only when PAYMENTS_TEST_MODE=true and Stripe is not configured (`npm start` on a
//   loopback host, the test harnesses): no money moves, the payment completes at once, and
//   it never earns commission;
// - "none" otherwise: buying credits is refused (503), nothing is charged.
// Both providers credit through completePayment, once per payment however often it is called;
// the receipt mail (lib/money/mails.js creditReceipt) goes out after the commit of the
// call that credited (checkout for the test provider, the webhook for Stripe), never again.
// Stripe's side (the Checkout Session, the webhook) is lib/money/stripe.js; its refunds and
// chargebacks are reversed by lib/money/reversals.js.

/** @type {typeof import("./ledger.js")} */
const ledger = require(`${__hooks}/lib/money/ledger.js`);

/**
 * The credit packages (spec section 3). Credits are cents of balance; price is what the
 * customer pays, in US cents.
 * @type {ReadonlyArray<{ id: string, credits_cents: number, price_cents: number, bonus_cents: number, popular: boolean }>}
 */
const PACKAGES = [
  { id: "package-10", credits_cents: 1000, price_cents: 1000, bonus_cents: 0, popular: false },
  { id: "package-25", credits_cents: 2500, price_cents: 2400, bonus_cents: 100, popular: false },
  { id: "package-50", credits_cents: 5000, price_cents: 4500, bonus_cents: 500, popular: true },
  { id: "package-100", credits_cents: 10000, price_cents: 8500, bonus_cents: 1500, popular: false },
];

const CURRENCY = "usd";

/** @param {string} name */
function env(name) {
  return ($os.getenv(name) || "").trim();
}

/** @returns {"stripe" | "test" | "none"} */
function providerName() {
  if (env("STRIPE_SECRET_KEY") && env("STRIPE_WEBHOOK_SECRET")) return "stripe";
  return env("PAYMENTS_TEST_MODE") === "true" ? "test" : "none";
}

/** What the checkout answers (503) when no payment provider is set up. */
const NOT_SET_UP_MESSAGE =
  "Buying credits is not set up on this shop yet, so nothing was charged. Please try again later or contact support.";

/**
 * Why the Stripe settings cannot work (one of the two variables without the other), or "".
 * PocketBase refuses to start with this (money.pb.js).
 */
function stripeConfigProblem() {
  const key = env("STRIPE_SECRET_KEY");
  const secret = env("STRIPE_WEBHOOK_SECRET");
  if (key && !secret) {
    return "STRIPE_SECRET_KEY is set but STRIPE_WEBHOOK_SECRET is missing: set both to take payments with Stripe, or neither.";
  }
  if (secret && !key) {
    return "STRIPE_WEBHOOK_SECRET is set but STRIPE_SECRET_KEY is missing: set both to take payments with Stripe, or neither.";
  }
  return "";
}

/** Throws the 503 when no payment provider is set up. */
function assertCanSell() {
  if (providerName() === "none") throw new ApiError(503, NOT_SET_UP_MESSAGE);
}

/**
 * The package with this id. The checkout's package_id is one of them: the document lists
 * them, and the request validation (pocketbase/devapi) answers any other id with the
 * contract's message before the hook runs.
 * @param {unknown} id
 */
function findPackage(id) {
  const pkg = PACKAGES.find((p) => p.id === id);
  if (!pkg) throw new Error(`No credit package ${String(id)}`);
  return pkg;
}

/**
 * Creates the pending payment of one checkout attempt, with its Idempotency-Key, inside the
 * caller's transaction. With the test provider it completes at once in the same transaction.
 * @param {CoreApp} txApp
 * @param {core.Record} user
 * @param {(typeof PACKAGES)[number]} pkg
 * @param {{ key: string, hash: string }} idempotency
 * @returns {string} the payment id
 */
function createPayment(txApp, user, pkg, idempotency) {
  assertCanSell();
  const provider = providerName();
  const payment = new Record(txApp.findCachedCollectionByNameOrId("payments"));
  payment.set("user_id", user.id);
  payment.set("package_id", pkg.id);
  payment.set("amount_cents", pkg.price_cents);
  payment.set("currency", CURRENCY);
  payment.set("credits_cents", pkg.credits_cents);
  payment.set("bonus_cents", pkg.bonus_cents);
  payment.set("provider", provider);
  payment.set("status", "pending");
  payment.set("idempotency_key", idempotency.key);
  payment.set("request_hash", idempotency.hash);
  txApp.save(payment);
  if (provider === "test") {
    completePayment(txApp, payment.id, { providerPaymentId: `test_${payment.id}`, amountCents: pkg.price_cents, currency: CURRENCY });
  }
  return payment.id;
}

/**
 * Marks the payment paid and credits it, inside its own (nested) transaction: the
 * credits as one CREDIT ledger row carrying the provider's payment id, the bonus as a
 * second row, and the referring affiliate's commission. A payment already paid is left
 * alone, so a webhook delivered twice or twenty times credits once. A payment whose
 * amount or currency differs from what was charged is marked failed, never credited.
 * @param {CoreApp} app
 * @param {string} paymentId
 * @param {{ providerPaymentId: string, amountCents: number, currency: string, sessionId?: string }} paid
 * @returns {"credited" | "already_paid" | "mismatch"}
 */
function completePayment(app, paymentId, paid) {
  /** @type {"credited" | "already_paid" | "mismatch"} */
  let outcome = "credited";
  app.runInTransaction((txApp) => {
    const payment = txApp.findRecordById("payments", paymentId);
    // Paid, and perhaps refunded or disputed since: credited once, whatever comes later.
    if (!["pending", "failed"].includes(payment.getString("status"))) {
      outcome = "already_paid";
      return;
    }
    if (paid.sessionId) payment.set("provider_session_id", paid.sessionId);
    if (paid.amountCents !== payment.getInt("amount_cents") || paid.currency.toLowerCase() !== payment.getString("currency")) {
      payment.set("status", "failed");
      payment.set(
        "failure_reason",
        `Paid ${paid.amountCents} ${paid.currency} but ${payment.getInt("amount_cents")} ${payment.getString("currency")} was due`,
      );
      txApp.save(payment);
      outcome = "mismatch";
      return;
    }
    payment.set("status", "paid");
    payment.set("paid_at", new DateTime());
    payment.set("provider_payment_id", paid.providerPaymentId);
    payment.set("failure_reason", "");
    txApp.save(payment);

    const userId = payment.getString("user_id");
    // The package by the name Buy Credits gives it ("$50.00 Credits"), never its id.
    const packageName = `${ledger.formatUsd(payment.getInt("credits_cents"))} Credits`;
    let { balanceCents } = ledger.applyLedgerEntry(txApp, {
      userId,
      type: "CREDIT",
      amountCents: payment.getInt("credits_cents"),
      description: `Purchased the ${packageName} package for ${ledger.formatUsd(payment.getInt("amount_cents"))}`,
      stripePaymentIntentId: paid.providerPaymentId,
      reference: `payment:${payment.id}`,
    });
    const bonus = payment.getInt("bonus_cents");
    if (bonus > 0) {
      balanceCents = ledger.applyLedgerEntry(txApp, {
        userId,
        type: "CREDIT",
        amountCents: bonus,
        description: `Bonus credits with the ${packageName} package`,
        reference: `payment-bonus:${payment.id}`,
      }).balanceCents;
    }
    require(`${__hooks}/lib/affiliate/affiliate.js`).recordCommission(txApp, payment);
    // The customer's payment.succeeded webhooks, committed with the credit (once per payment).
    require(`${__hooks}/lib/webhooks/events.js`).paymentSucceeded(txApp, payment, balanceCents);
  });
  return outcome;
}

/**
 * Marks a pending payment failed (expired or declined checkout). Paid payments stay paid.
 * @param {CoreApp} app
 * @param {string} paymentId
 * @param {string} reason
 */
function failPayment(app, paymentId, reason) {
  app.runInTransaction((txApp) => {
    const payment = txApp.findRecordById("payments", paymentId);
    if (payment.getString("status") !== "pending") return;
    payment.set("status", "failed");
    payment.set("failure_reason", reason);
    txApp.save(payment);
  });
}

/**
 * GET /api/v1/credits/packages -> {provider: "stripe"|"test"|"none", currency, packages: [...]}
 * "none": buying credits is not set up (the checkout answers 503 with not_set_up_message).
 * @param {core.RequestEvent} e
 */
function packages(e) {
  require(`${__hooks}/lib/core/api.js`).customer(e);
  const provider = providerName();
  return e.json(200, {
    provider,
    currency: CURRENCY,
    packages: PACKAGES,
    ...(provider === "none" ? { not_set_up_message: NOT_SET_UP_MESSAGE } : {}),
  });
}

module.exports = {
  PACKAGES,
  env,
  providerName,
  stripeConfigProblem,
  assertCanSell,
  findPackage,
  createPayment,
  completePayment,
  failPayment,
  packages,
};
