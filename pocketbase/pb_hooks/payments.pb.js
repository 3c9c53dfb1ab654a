// @ts-check
/// <reference path="../types/pocketbase.d.ts" />
// Buying credits (lib/money/payments.js): the packages, the checkout, and Stripe's webhook,
// the only way a Stripe payment credits a balance (and, with refunds and chargebacks,
// takes credits back).

// PocketBase refuses to start with one of STRIPE_SECRET_KEY / STRIPE_WEBHOOK_SECRET and not
// the other: the error names the missing one (a half-configured shop must not sell).
onBootstrap((e) => {
  e.next();
  /** @type {typeof import("./lib/money/payments.js")} */
  const payments = require(`${__hooks}/lib/money/payments.js`);
  const problem = payments.stripeConfigProblem();
  if (problem) throw new Error(problem);
});

// GET /api/v1/credits/packages -> {provider: "stripe"|"test"|"none", currency, packages: [...]}
// "none": buying credits is not set up (the checkout answers 503 with not_set_up_message).
routerAdd(
  "GET",
  "/api/v1/credits/packages",
  (e) => {
    require(`${__hooks}/lib/core/api.js`).customer(e);
    /** @type {typeof import("./lib/money/payments.js")} */
    const payments = require(`${__hooks}/lib/money/payments.js`);
    const provider = payments.providerName();
    return e.json(200, {
      provider,
      currency: "usd",
      packages: payments.PACKAGES,
      ...(provider === "none" ? { not_set_up_message: payments.NOT_SET_UP_MESSAGE } : {}),
    });
  },
  $apis.requireAuth("users"),
);

// POST /api/v1/credits/checkout {package_id}  Idempotency-Key
// -> {payment, checkout_url (Stripe; null for the test provider), balance_cents}
// The price comes from the server's package list, never from the browser. Without a payment
// provider (neither Stripe nor PAYMENTS_TEST_MODE=true): 503, nothing written.
routerAdd(
  "POST",
  "/api/v1/credits/checkout",
  (e) => {
    /** @type {typeof import("./lib/core/api.js")} */
    const api = require(`${__hooks}/lib/core/api.js`);
    /** @type {typeof import("./lib/money/payments.js")} */
    const payments = require(`${__hooks}/lib/money/payments.js`);
    /** @type {typeof import("./lib/money/idempotency.js")} */
    const idempotency = require(`${__hooks}/lib/money/idempotency.js`);
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
    const payment = e.app.findRecordById("payments", paymentId);
    if (payment.getString("provider") === "stripe" && payment.getString("status") === "pending" && !payment.getString("checkout_url")) {
      payments.openStripeCheckout(e.app, payment, user);
    }
    e.response.header().set("Idempotent-Replayed", String(!!earlier));
    return e.json(200, payments.checkoutResponse(e.app, paymentId));
  },
  $apis.requireAuth("users"),
);

// POST /api/v1/payments/stripe/webhook  (Stripe calls this; the Stripe-Signature header is
// the only credential). Bad signatures and stale timestamps get a 400 and change nothing.
// Events: checkout.session.completed / .async_payment_succeeded / .async_payment_failed /
// .expired credit or fail a payment; charge.refunded, charge.dispute.created and
// charge.dispute.closed reverse (or, for a dispute won, restore) its credits and commission.
// Each is idempotent: a replay, or a late event whose step was done, moves nothing.
routerAdd(
  "POST",
  "/api/v1/payments/stripe/webhook",
  (e) => {
    /** @type {typeof import("./lib/money/payments.js")} */
    const payments = require(`${__hooks}/lib/money/payments.js`);
    if (payments.providerName() !== "stripe") throw new NotFoundError("Stripe payments are not configured on this shop.");
    const raw = toString(e.request?.body, 1024 * 1024);
    payments.verifyStripeSignature(e.request?.header.get("Stripe-Signature") ?? "", raw);
    /** @type {any} */
    let event;
    try {
      event = JSON.parse(raw);
    } catch (_) {
      throw new BadRequestError("The webhook body is not JSON.");
    }
    const outcome = payments.handleStripeEvent(e.app, event);
    return e.json(200, { received: true, outcome });
  },
  $apis.bodyLimit(1024 * 1024),
);
