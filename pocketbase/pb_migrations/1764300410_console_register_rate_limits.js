// @ts-check
// Rate limits for the public admin-invitation routes (pb_hooks/lib/rate-limits.js
// DEFAULT_RULES: POST /api/shop/admin-register, GET /api/shop/admin-invitations/check) on
// installations whose stored rules predate them: each missing default rule is added in
// the defaults' order, ahead of the catch-alls (the first matching label wins).

migrate(
  (app) => {
    /** @type {typeof import("../pb_hooks/lib/rate-limits.js")} */
    const limits = require(`${__hooks}/lib/rate-limits.js`);
    const settings = app.settings();
    /** @type {{ label: string, audience: string, duration: number, maxRequests: number }[]} */
    const stored = settings.rateLimits.rules.map((r) => ({
      label: r.label,
      audience: r.audience,
      duration: r.duration,
      maxRequests: r.maxRequests,
    }));
    const labels = stored.map((r) => r.label);
    const missing = limits.DEFAULT_RULES.filter((r) => labels.indexOf(r.label) < 0);
    if (missing.length === 0) return;
    const firstCatchAll = labels.findIndex((l) => l === "*:create" || l === "/api/batch" || l === "/api/");
    const at = firstCatchAll < 0 ? stored.length : firstCatchAll;
    settings.rateLimits.rules = /** @type {any} */ ([...stored.slice(0, at), ...missing.map((r) => ({ ...r })), ...stored.slice(at)]);
    app.save(settings);
  },
  (app) => {
    const settings = app.settings();
    const ours = ["POST /api/shop/admin-register", "GET /api/shop/admin-invitations/check"];
    settings.rateLimits.rules = /** @type {any} */ (settings.rateLimits.rules.filter((r) => ours.indexOf(r.label) < 0));
    app.save(settings);
  },
);
