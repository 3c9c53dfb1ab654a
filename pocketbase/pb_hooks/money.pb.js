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

// The routes: lib/api/routes.js (money).
require(`${__hooks}/lib/core/routes.js`).register(require(`${__hooks}/lib/api/routes.js`).money, (/** @type {core.RequestEvent} */ e) =>
  require(`${__hooks}/lib/core/routes.js`).dispatch(e, require(`${__hooks}/lib/api/routes.js`).money),
);
