// @ts-check
/// <reference path="../types/pocketbase.d.ts" />
// Affiliates: the customer's affiliate figures, the console's Affiliate Management and the
// referral counts. Route docs are on the functions in lib/affiliate/. Commissions are booked
// with the payment that earns them, payouts by the money routes (lib/money/).

// The routes: lib/api/routes.js (affiliate).
require(`${__hooks}/lib/core/routes.js`).register(require(`${__hooks}/lib/api/routes.js`).affiliate, (/** @type {core.RequestEvent} */ e) =>
  require(`${__hooks}/lib/core/routes.js`).dispatch(e, require(`${__hooks}/lib/api/routes.js`).affiliate),
);

onRecordAfterDeleteSuccess((e) => require(`${__hooks}/lib/affiliate/referrals.js`).referralDeleted(e), "referrals");
