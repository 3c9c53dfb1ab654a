// @ts-check
/// <reference path="../types/pocketbase.d.ts" />
// The customer's affiliate figures (lib/affiliate.js). Commissions themselves are booked
// with the payment that earns them (lib/payments.js).

// GET /api/v1/affiliate -> {code, total_referrals, *_earnings_cents, program, recent_referrals}
routerAdd(
  "GET",
  "/api/v1/affiliate",
  (e) => {
    const user = require(`${__hooks}/lib/api.js`).customer(e);
    return e.json(200, require(`${__hooks}/lib/affiliate.js`).summary(e.app, user.id));
  },
  $apis.requireAuth("users"),
);
