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
// adjustments, order refunds and referral payouts. Each is documented on its function in
// lib/money/; every one that moves money takes an Idempotency-Key (lib/money/idempotency.js).

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

// PocketBase refuses to start with one of STRIPE_SECRET_KEY / STRIPE_WEBHOOK_SECRET and not
// the other: the error names the missing one (a half-configured shop must not sell).
onBootstrap((e) => {
  e.next();
  const problem = require(`${__hooks}/lib/money/payments.js`).stripeConfigProblem();
  if (problem) throw new Error(problem);
});

routerAdd("GET", "/api/v1/credits/packages", (e) => require(`${__hooks}/lib/money/payments.js`).packages(e), $apis.requireAuth("users"));

routerAdd("POST", "/api/v1/credits/checkout", (e) => require(`${__hooks}/lib/money/payments.js`).checkout(e), $apis.requireAuth("users"));

routerAdd(
  "POST",
  "/api/v1/payments/stripe/webhook",
  (e) => require(`${__hooks}/lib/money/stripe.js`).webhook(e),
  $apis.bodyLimit(1024 * 1024),
);

routerAdd(
  "POST",
  "/api/admin/users/{id}/balance",
  (e) => require(`${__hooks}/lib/money/adjustments.js`).adjust(e),
  $apis.requireAuth("users"),
);

routerAdd(
  "POST",
  "/api/admin/orders/{id}/refund",
  (e) => require(`${__hooks}/lib/money/order-refund.js`).refund(e),
  $apis.requireAuth("users"),
);

routerAdd("POST", "/api/admin/referrals/{id}/pay", (e) => require(`${__hooks}/lib/money/payouts.js`).pay(e), $apis.requireAuth("users"));

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
