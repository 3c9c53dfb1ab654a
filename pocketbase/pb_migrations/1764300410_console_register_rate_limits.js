// @ts-check
// Rate limits for the public admin-invitation routes (pb_hooks/lib/settings/rate-limits.js
// DEFAULT_RULES: POST /api/shop/admin-register, GET /api/shop/admin-invitations/check) on
// installations whose stored rules predate them: each missing default rule is added in
// the defaults' order, ahead of the catch-alls (the first matching label wins).

migrate(
  (app) => {
    /** @type {typeof import("../pb_hooks/lib/settings/rate-limits.js")} */
    const limits = require(`${__hooks}/lib/settings/rate-limits.js`);
    limits.addMissingDefaultRules(app);
  },
  (app) => {
    /** @type {typeof import("../pb_hooks/lib/settings/rate-limits.js")} */
    const limits = require(`${__hooks}/lib/settings/rate-limits.js`);
    limits.removeRules(app, ["POST /api/shop/admin-register", "GET /api/shop/admin-invitations/check"]);
  },
);
