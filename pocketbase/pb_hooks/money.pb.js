// @ts-check
/// <reference path="../types/pocketbase.d.ts" />
// Money is written by the server only. Balances and the ledger change together through
// lib/money/ledger.js (balance = sum of the user's transactions), referral rows and counts by
// the sign-up and verification hooks (lib/accounts/accounts.js). The records API refuses every
// write to them, superusers (the dashboard) included; request hooks fire only on API
// requests, so hooks saving with app.save() are unaffected. Balance changes go through
// POST /api/admin/users/{id}/balance.
//
// The money routes: buying credits (packages, checkout, Stripe's webhook), balance
// adjustments, order refunds and referral payouts. Code: lib/money/.

// balances and transactions: no API writes at all.
onRecordCreateRequest(
  () => {
    throw new ForbiddenError("Balances and ledger entries are written by the server only; use the admin balance route.");
  },
  "balances",
  "transactions",
);

onRecordUpdateRequest(
  () => {
    throw new ForbiddenError("Balances and ledger entries cannot be changed through the API; use the admin balance route.");
  },
  "balances",
  "transactions",
);

onRecordDeleteRequest(
  () => {
    throw new ForbiddenError("Balances and ledger entries cannot be deleted through the API.");
  },
  "balances",
  "transactions",
);

// referrals: created at sign-up, deleted with their user; nothing edits them by hand.
onRecordCreateRequest(() => {
  throw new ForbiddenError("Referrals are created by the server only.");
}, "referrals");

onRecordUpdateRequest(() => {
  throw new ForbiddenError("Referrals cannot be changed through the API.");
}, "referrals");

onRecordDeleteRequest(() => {
  throw new ForbiddenError("Referrals cannot be deleted through the API.");
}, "referrals");

// affiliates: one per user, made when the user is created and deleted with them. A
// superuser may change the code (the only field without money attached); the owner,
// the counts and the earnings are the server's.
onRecordCreateRequest(() => {
  throw new ForbiddenError("Affiliate accounts are created by the server only.");
}, "affiliates");

onRecordUpdateRequest((e) => {
  const record = e.record;
  if (record) {
    const stored = record.original();
    for (const field of ["user_id", "total_referrals", "total_earnings_cents", "pending_earnings_cents"]) {
      if (String(record.get(field)) !== String(stored.get(field))) {
        throw new ForbiddenError(`${field} is maintained by the server and cannot be changed through the API.`);
      }
    }
  }
  e.next();
}, "affiliates");

onRecordDeleteRequest(() => {
  throw new ForbiddenError("Affiliate accounts cannot be deleted through the API.");
}, "affiliates");

// Payments, orders and commissions are written by the purchase and payment routes only
// (lib/money/payments.js, lib/proxies/proxies.js, lib/affiliate/affiliate.js).
onRecordCreateRequest(
  () => {
    throw new ForbiddenError("Payments, orders and commissions are written by the server only.");
  },
  "payments",
  "proxy_orders",
  "commissions",
);

onRecordUpdateRequest(
  () => {
    throw new ForbiddenError("Payments, orders and commissions cannot be changed through the API.");
  },
  "payments",
  "proxy_orders",
  "commissions",
);

onRecordDeleteRequest(
  () => {
    throw new ForbiddenError("Payments, orders and commissions cannot be deleted through the API.");
  },
  "payments",
  "proxy_orders",
  "commissions",
);

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

// POST /api/admin/users/{id}/balance  {transaction_type: "CREDIT"|"DEBIT", amount_cents 1..100000000, description 1-500}
//   + Idempotency-Key (required, 1-255 visible ASCII characters)
//   -> {balance_cents, transaction}
// The console's "credit or debit a user" (update_user_balance_admin in the spec): one
// ledger entry plus its audit row (users.balance_credit|debit {amount_cents, description,
// balance_before_cents, balance_after_cents, transaction_id}), in one transaction. Shop
// admins only; refused in demo mode. The key is stored as the ledger row's reference
// ("adjustment:<sha256 of admin id and key>"): the same key with the same user, type,
// amount and description answers the first adjustment again (header
// `Idempotent-Replayed: true`, balance_cents as right after it) and moves nothing; the same
// key with anything else is refused (422). 400 for a bad field (named in data), a debit
// below zero ("Insufficient balance: ..."), a missing key; 404 unknown user.
// Code: lib/money/adjustments.js (validateAdjustment, adjustBalance).

routerAdd(
  "POST",
  "/api/admin/users/{id}/balance",
  (e) => {
    /** @type {typeof import("./lib/audit/admin.js")} */
    const admin = require(`${__hooks}/lib/audit/admin.js`);
    const caller = admin.requireAdminWrite(e);
    /** @type {typeof import("./lib/core/api.js")} */
    const api = require(`${__hooks}/lib/core/api.js`);
    /** @type {typeof import("./lib/money/adjustments.js")} */
    const adjustments = require(`${__hooks}/lib/money/adjustments.js`);
    const input = adjustments.validateAdjustment(api.jsonBody(e));
    const key = api.idempotencyKey(e);
    const result = adjustments.adjustBalance(e.app, caller.id, e.request?.pathValue("id") ?? "", input, key);
    e.response.header().set("Idempotent-Replayed", String(result.replayed));
    return e.json(200, { balance_cents: result.balance_cents, transaction: result.transaction });
  },
  $apis.requireAuth("users"),
);

// POST /api/admin/orders/{id}/refund  {reason: 3-500 chars, allow_late?: boolean}  Idempotency-Key
//   -> {order, transaction (the REFUND row), balance_cents (right after it), released
//      (proxies back in stock), shortened (proxies whose renewal was taken back)}
//   Rules in lib/money/refunds.js. 404 unknown order; 409 already refunded ("This order was
//   already refunded on ..."), older than 7 days without allow_late, or a purchase a later
//   renewal extended; same key + same request -> the first answer again with header
//   `Idempotent-Replayed: true`; same key, other request -> 422. Audit proxy_orders.refund
//   {user_id, order_number, kind, amount_cents, reason, within_promise, transaction_id,
//   balance_after_cents, proxies_released, proxies_shortened}.
routerAdd(
  "POST",
  "/api/admin/orders/{id}/refund",
  (e) => {
    /** @type {typeof import("./lib/audit/admin.js")} */
    const admin = require(`${__hooks}/lib/audit/admin.js`);
    const caller = admin.requireAdminWrite(e);
    /** @type {typeof import("./lib/core/api.js")} */
    const api = require(`${__hooks}/lib/core/api.js`);
    /** @type {typeof import("./lib/money/refunds.js")} */
    const refunds = require(`${__hooks}/lib/money/refunds.js`);
    const input = refunds.validateRefund(api.jsonBody(e));
    const key = api.idempotencyKey(e);
    const { replayed, view } = refunds.refund(e.app, {
      adminId: caller.id,
      orderId: e.request?.pathValue("id") ?? "",
      reason: input.reason,
      allowLate: input.allowLate,
      key,
    });
    e.response.header().set("Idempotent-Replayed", String(replayed));
    return e.json(200, view);
  },
  $apis.requireAuth("users"),
);

// POST /api/admin/referrals/{id}/pay  (no body)  Idempotency-Key
// -> {payout: {id, referral_id, affiliate_id, admin_id, amount_cents, commission_ids, created},
//     referral: (as in the referrals list), affiliate: (as in the affiliates list)}
// Marks every pending commission of the referral paid, the referral paid (paid_at), and
// lowers the affiliate's pending earnings by the amount, in one transaction with one audit
// row `referrals.pay`. A payout made outside the shop: no balance or ledger row changes.
// The same key again answers the first payout (header Idempotent-Replayed: true); the key
// used for another referral: 422. Nothing pending: 409 (already paid) or 400 (nothing
// earned). Unknown referral 404; demo mode 403; no or bad Idempotency-Key 400.
routerAdd(
  "POST",
  "/api/admin/referrals/{id}/pay",
  (e) => {
    /** @type {typeof import("./lib/audit/admin.js")} */
    const admin = require(`${__hooks}/lib/audit/admin.js`);
    const user = admin.requireAdminWrite(e);
    /** @type {typeof import("./lib/core/api.js")} */
    const api = require(`${__hooks}/lib/core/api.js`);
    /** @type {typeof import("./lib/money/payouts.js")} */
    const payouts = require(`${__hooks}/lib/money/payouts.js`);
    const key = api.idempotencyKey(e);
    const referralId = e.request?.pathValue("id") ?? "";
    try {
      e.app.findRecordById("referrals", referralId);
    } catch (_) {
      throw new NotFoundError("This referral does not exist (any more).");
    }
    const { payoutId, replayed } = payouts.pay(e.app, { adminId: user.id, referralId, key });
    e.response.header().set("Idempotent-Replayed", String(replayed));
    return e.json(200, payouts.payoutView(e.app, payoutId));
  },
  $apis.requireAuth("users"),
);

// referral_payouts are written by the pay route only: no records-API writes, superusers included.
onRecordCreateRequest(() => {
  throw new ForbiddenError("Referral payouts are written by the server only; use Pay in Affiliate Management.");
}, "referral_payouts");

onRecordUpdateRequest(() => {
  throw new ForbiddenError("Referral payouts cannot be changed.");
}, "referral_payouts");

onRecordDeleteRequest(() => {
  throw new ForbiddenError("Referral payouts cannot be deleted.");
}, "referral_payouts");
