// @ts-check
// The rate limiter's default rules (written by 1764000900_app_settings.js) and the
// test-only SHOP_RATE_LIMIT_SCALE knob. No address is exempt: PocketBase listens on
// loopback behind the web server, so every real visitor would share an exempt address.

/**
 * @typedef {{ label: string, audience: string, maxRequests: number, duration: number }} RateLimitRule
 */

/**
 * The first matching label wins, so specific labels come before the catch-alls.
 * @type {ReadonlyArray<Readonly<RateLimitRule>>}
 */
const DEFAULT_RULES = [
  { label: "*:auth", audience: "", maxRequests: 10, duration: 60 },
  { label: "*:requestOTP", audience: "", maxRequests: 5, duration: 60 },
  { label: "*:requestPasswordReset", audience: "", maxRequests: 5, duration: 60 },
  { label: "*:confirmPasswordReset", audience: "", maxRequests: 10, duration: 60 },
  { label: "*:requestVerification", audience: "", maxRequests: 5, duration: 60 },
  { label: "*:confirmVerification", audience: "", maxRequests: 10, duration: 60 },
  { label: "*:requestEmailChange", audience: "", maxRequests: 5, duration: 60 },
  { label: "*:confirmEmailChange", audience: "", maxRequests: 10, duration: 60 },
  { label: "contact_messages:create", audience: "", maxRequests: 5, duration: 60 },
  { label: "POST /api/shop/signup", audience: "", maxRequests: 10, duration: 60 },
  // Admin invitations (accounts.pb.js): an invitee registers once; the token check
  // is a guessing target (256-bit tokens, but still walled).
  { label: "POST /api/shop/admin-register", audience: "", maxRequests: 10, duration: 60 },
  { label: "POST /api/shop/admin-invitations/check", audience: "", maxRequests: 30, duration: 60 },
  // The first administrator's setup link (admin-setup.pb.js): used once, 256-bit tokens.
  { label: "POST /api/setup/admin", audience: "", maxRequests: 10, duration: 60 },
  { label: "POST /api/setup/check", audience: "", maxRequests: 30, duration: 60 },
  // Money routes: generous for a person or a script, a wall for a flood.
  { label: "POST /api/v1/proxies/purchase", audience: "", maxRequests: 30, duration: 10 },
  { label: "POST /api/v1/proxies/renew", audience: "", maxRequests: 30, duration: 10 },
  { label: "POST /api/v1/credits/checkout", audience: "", maxRequests: 10, duration: 60 },
  { label: "POST /api/v1/support/tickets", audience: "", maxRequests: 10, duration: 60 },
  { label: "*:create", audience: "", maxRequests: 30, duration: 10 },
  { label: "/api/batch", audience: "", maxRequests: 3, duration: 1 },
  { label: "/api/", audience: "", maxRequests: 300, duration: 10 },
];

/** Upper bound for SHOP_RATE_LIMIT_SCALE, so a typo cannot switch the limiter off in effect. */
const MAX_SCALE = 1000;

/**
 * The default rules with every maxRequests multiplied by `scale`.
 * @param {number} scale  whole number >= 1
 * @returns {RateLimitRule[]}
 */
function scaledDefaultRules(scale) {
  return DEFAULT_RULES.map((rule) => ({
    label: rule.label,
    audience: rule.audience,
    duration: rule.duration,
    maxRequests: rule.maxRequests * scale,
  }));
}

/**
 * SHOP_RATE_LIMIT_SCALE (TEST HARNESSES ONLY): a whole number 1-1000. When set, the rules
 * are rewritten to the defaults with every limit multiplied by it (1 = the defaults), so
 * test runs that sign in many times from one address are not refused. Unset: the stored
 * rules are left alone. Applied on every start, before SHOP_AUTH_RATE_LIMIT.
 * @param {ReturnType<CoreApp["settings"]>} settings  saved by the caller
 */
function applyRateLimitScale(settings) {
  const raw = ($os.getenv("SHOP_RATE_LIMIT_SCALE") || "").trim();
  if (!raw) return;
  const scale = /^\d+$/.test(raw) ? parseInt(raw, 10) : 0;
  if (scale < 1 || scale > MAX_SCALE) {
    throw new Error(`SHOP_RATE_LIMIT_SCALE must be a whole number from 1 to ${MAX_SCALE}, got "${raw}".`);
  }
  settings.rateLimits.rules = /** @type {any} */ (scaledDefaultRules(scale));
  settings.rateLimits.enabled = true;
}

/**
 * For migrations: adds each default rule the stored rules lack, in the defaults' order,
 * ahead of the catch-alls (the first matching label wins), so installations whose rules
 * predate a new route get its limit.
 * @param {CoreApp} app
 */
function addMissingDefaultRules(app) {
  const settings = app.settings();
  /** @type {{ label: string, audience: string, duration: number, maxRequests: number }[]} */
  const stored = settings.rateLimits.rules.map((r) => ({
    label: r.label,
    audience: r.audience,
    duration: r.duration,
    maxRequests: r.maxRequests,
  }));
  const labels = stored.map((r) => r.label);
  const missing = DEFAULT_RULES.filter((r) => labels.indexOf(r.label) < 0);
  if (missing.length === 0) return;
  const firstCatchAll = labels.findIndex((l) => l === "*:create" || l === "/api/batch" || l === "/api/");
  const at = firstCatchAll < 0 ? stored.length : firstCatchAll;
  settings.rateLimits.rules = /** @type {any} */ ([...stored.slice(0, at), ...missing.map((r) => ({ ...r })), ...stored.slice(at)]);
  app.save(settings);
}

/**
 * For migrations going down: removes the rules with these labels.
 * @param {CoreApp} app
 * @param {string[]} labels
 */
function removeRules(app, labels) {
  const settings = app.settings();
  settings.rateLimits.rules = /** @type {any} */ (settings.rateLimits.rules.filter((r) => labels.indexOf(r.label) < 0));
  app.save(settings);
}

module.exports = { DEFAULT_RULES, scaledDefaultRules, applyRateLimitScale, addMissingDefaultRules, removeRules };
