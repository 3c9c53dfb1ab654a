// @ts-check
/// <reference path="../types/pocketbase.d.ts" />
// The money domain: buying credits (packages, checkout, Stripe's webhook), balance
// adjustments, order refunds and referral payouts. Each route is documented on its function
// in lib/money/; every one that moves money takes an Idempotency-Key
// (lib/core/idempotency.js).
//
// Money is written by the server only: the records API refuses every write to balances, the
// ledger, referrals, affiliates (but a code), payments, orders, commissions and payouts,
// superusers (the dashboard) included (lib/money/records-api.js).

const SERVER_ONLY = ["balances", "transactions", "referrals", "affiliates", "payments", "proxy_orders", "commissions", "referral_payouts"];
onRecordCreateRequest((e) => require(`${__hooks}/lib/money/records-api.js`).refuse(e, "create"), ...SERVER_ONLY);
onRecordUpdateRequest(
  (e) => require(`${__hooks}/lib/money/records-api.js`).refuse(e, "update"),
  ...SERVER_ONLY.filter((c) => c !== "affiliates"),
);
onRecordUpdateRequest((e) => require(`${__hooks}/lib/money/records-api.js`).checkAffiliateUpdate(e), "affiliates");
onRecordDeleteRequest((e) => require(`${__hooks}/lib/money/records-api.js`).refuse(e, "delete"), ...SERVER_ONLY);

// PocketBase refuses to start with one of STRIPE_SECRET_KEY / STRIPE_WEBHOOK_SECRET and not
// the other: the error names the missing one (a half-configured shop must not sell).
onBootstrap((e) => {
  e.next();
  const problem = require(`${__hooks}/lib/money/payments.js`).stripeConfigProblem();
  if (problem) throw new Error(problem);
});

routerAdd("GET", "/api/v1/credits/packages", (e) => require(`${__hooks}/lib/money/payments.js`).packages(e), $apis.requireAuth("users"));

routerAdd("POST", "/api/v1/credits/checkout", (e) => require(`${__hooks}/lib/money/checkout.js`).checkout(e), $apis.requireAuth("users"));

routerAdd(
  "POST",
  "/api/v1/payments/stripe/webhook",
  (e) => require(`${__hooks}/lib/money/stripe.js`).webhook(e),
  $apis.bodyLimit(1024 * 1024),
);

routerAdd(
  "POST",
  "/api/admin/users/{id}/balance",
  (e) => require(`${__hooks}/lib/accounts/adjustments.js`).adjust(e),
  $apis.requireAuth("users"),
);

routerAdd(
  "POST",
  "/api/admin/orders/{id}/refund",
  (e) => require(`${__hooks}/lib/proxies/order-refund.js`).refund(e),
  $apis.requireAuth("users"),
);

routerAdd("POST", "/api/admin/referrals/{id}/pay", (e) => require(`${__hooks}/lib/money/payouts.js`).pay(e), $apis.requireAuth("users"));
