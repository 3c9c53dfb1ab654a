// @ts-check
/// <reference path="../types/pocketbase.d.ts" />
// Affiliates: the customer's affiliate figures, the console's Affiliate Management and the
// referral counts. Route docs are on the functions in lib/affiliate/. Commissions are booked
// with the payment that earns them, payouts by the money routes (lib/money/).

routerAdd("GET", "/api/v1/affiliate", (e) => require(`${__hooks}/lib/affiliate/affiliate.js`).mySummary(e), $apis.requireAuth("users"));
routerAdd(
  "PUT",
  "/api/v1/affiliate/payout-method",
  (e) => require(`${__hooks}/lib/affiliate/affiliate.js`).setPayoutMethod(e),
  $apis.requireAuth("users"),
);
routerAdd(
  "GET",
  "/api/admin/affiliates",
  (e) => require(`${__hooks}/lib/affiliate/affiliate-admin.js`).list(e),
  $apis.requireAuth("users"),
);
routerAdd(
  "GET",
  "/api/admin/affiliates/{id}/referrals",
  (e) => require(`${__hooks}/lib/affiliate/affiliate-admin.js`).referrals(e),
  $apis.requireAuth("users"),
);

onRecordAfterDeleteSuccess((e) => require(`${__hooks}/lib/affiliate/referrals.js`).referralDeleted(e), "referrals");
