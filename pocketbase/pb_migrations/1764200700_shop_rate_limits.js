// @ts-check
// Rate limits for the money and support routes (pb_hooks/lib/settings/rate-limits.js DEFAULT_RULES)
// on installations whose stored rules predate them: each missing rule is added in the
// defaults' order, ahead of the catch-alls (the first matching label wins).

migrate(
  (app) => {
    /** @type {typeof import("../pb_hooks/lib/settings/rate-limits.js")} */
    const limits = require(`${__hooks}/lib/settings/rate-limits.js`);
    limits.addMissingDefaultRules(app);
  },
  (app) => {
    /** @type {typeof import("../pb_hooks/lib/settings/rate-limits.js")} */
    const limits = require(`${__hooks}/lib/settings/rate-limits.js`);
    limits.removeRules(app, [
      "POST /api/v1/proxies/purchase",
      "POST /api/v1/proxies/renew",
      "POST /api/v1/credits/checkout",
      "POST /api/v1/support/tickets",
    ]);
  },
);
