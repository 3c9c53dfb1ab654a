// @ts-check
/// <reference path="../types/pocketbase.d.ts" />
// The customer's affiliate figures (lib/affiliate/affiliate.js). Commissions themselves are booked
// with the payment that earns them (lib/money/payments.js).

// GET /api/v1/affiliate -> {code, total_referrals, *_earnings_cents, program, recent_referrals}
routerAdd(
  "GET",
  "/api/v1/affiliate",
  (e) => {
    const user = require(`${__hooks}/lib/core/api.js`).customer(e);
    return e.json(200, require(`${__hooks}/lib/affiliate/affiliate.js`).summary(e.app, user.id));
  },
  $apis.requireAuth("users"),
);
