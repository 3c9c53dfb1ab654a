// @ts-check
// The credits checkout (POST /api/v1/credits/checkout): a payment behind the customer's
// Idempotency-Key, credited at once by the test provider or opened as a Stripe checkout. Its
// own module so that lib/money/payments.js (the payments, also used by Stripe's webhook in
// lib/money/stripe.js) and stripe.js do not require each other.

/** @type {typeof import("./payments.js")} */
const payments = require(`${__hooks}/lib/money/payments.js`);

/**
 * What the checkout route answers: the payment, the checkout URL (Stripe) and the balance.
 * @param {CoreApp} app
 * @param {string} paymentId
 */
function checkoutResponse(app, paymentId) {
  const payment = app.findRecordById("payments", paymentId);
  const balance = require(`${__hooks}/lib/money/ledger.js`).balanceRecord(app, payment.getString("user_id")).getInt("balance_cents");
  return { payment, checkout_url: payment.getString("checkout_url") || null, balance_cents: balance };
}

/**
 * POST /api/v1/credits/checkout {package_id}  Idempotency-Key
 * -> {payment, checkout_url (Stripe; null for the test provider), balance_cents}
 *
 * The price comes from the server's package list, never from the browser. Without a payment
 * provider (neither Stripe nor PAYMENTS_TEST_MODE=true): 503, nothing written. A replay
 * answers the same payment (and opens its Stripe checkout if the first attempt could not).
 * @param {core.RequestEvent} e
 */
function checkout(e) {
  /** @type {typeof import("../core/api.js")} */
  const api = require(`${__hooks}/lib/core/api.js`);
  /** @type {typeof import("../core/idempotency.js")} */
  const idempotency = require(`${__hooks}/lib/core/idempotency.js`);
  const user = api.actingCustomer(e, { verified: true });
  payments.assertCanSell();
  const key = api.idempotencyKey(e);
  const pkg = payments.findPackage(api.jsonBody(e)["package_id"]);
  const { earlier, result } = idempotency.once(
    e.app,
    { userId: user.id, key, route: "POST /api/v1/credits/checkout", input: { package_id: pkg.id }, collection: "payments" },
    (txApp, keyed) => payments.createPayment(txApp, user, pkg, keyed),
  );
  const paymentId = earlier ?? result ?? "";
  // The test provider credits at once: its receipt, after the commit and never on a replay.
  if (!earlier) require(`${__hooks}/lib/money/mails.js`).creditReceipt(e.app, paymentId);
  const payment = e.app.findRecordById("payments", paymentId);
  if (payment.getString("provider") === "stripe" && payment.getString("status") === "pending" && !payment.getString("checkout_url")) {
    require(`${__hooks}/lib/money/stripe.js`).openStripeCheckout(e.app, payment, user);
  }
  e.response.header().set("Idempotent-Replayed", String(!!earlier));
  return e.json(200, checkoutResponse(e.app, paymentId));
}

module.exports = { checkout };
