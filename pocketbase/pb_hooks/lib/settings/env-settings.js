// @ts-check
// The settings PocketBase keeps in its own table that come from the environment instead,
// applied on every start (PocketBase has no env vars for them): the app URL of links in
// e-mails, the mail sender and SMTP, and the rate limits' test and sign-in knobs.

/**
 * Keeps meta.appURL (links in e-mails) equal to SHOP_APP_URL, so it follows the deployment
 * without a migration. Unset: the stored value stays.
 * @param {CoreApp} app
 */
function applyAppUrl(app) {
  const appUrl = ($os.getenv("SHOP_APP_URL") || "").trim().replace(/\/+$/, "");
  if (!appUrl) return;
  const settings = app.settings();
  if (settings.meta.appURL !== appUrl) {
    settings.meta.appURL = appUrl;
    app.save(settings);
  }
}

/**
 * Applies the mail settings that come from the environment on every start (sender and
 * SMTP; PocketBase has no env vars for them), SHOP_RATE_LIMIT_SCALE (test harnesses
 * only) and SHOP_AUTH_RATE_LIMIT when set. The app URL, trusted proxy and default rate
 * limits are the backend's (applyAppUrl, lib/settings/rate-limits.js).
 * @param {CoreApp} app
 */
function applyEnvSettings(app) {
  const env = (/** @type {string} */ name) => ($os.getenv(name) || "").trim();
  const settings = app.settings();
  // SHOP_RATE_LIMIT_SCALE (test harnesses only) first; SHOP_AUTH_RATE_LIMIT wins over it.
  require(`${__hooks}/lib/settings/rate-limits.js`).applyRateLimitScale(settings);

  if (env("MAIL_FROM")) settings.meta.senderAddress = env("MAIL_FROM");
  if (env("MAIL_FROM_NAME")) settings.meta.senderName = env("MAIL_FROM_NAME");

  if (env("SMTP_HOST")) {
    settings.smtp.enabled = true;
    settings.smtp.host = env("SMTP_HOST");
    settings.smtp.port = parseInt(env("SMTP_PORT") || "587", 10);
    settings.smtp.username = env("SMTP_USERNAME");
    settings.smtp.password = env("SMTP_PASSWORD");
    settings.smtp.tls = env("SMTP_TLS") === "true";
    settings.smtp.authMethod = env("SMTP_AUTH_METHOD") === "LOGIN" ? "LOGIN" : "PLAIN";
    if (env("SMTP_LOCAL_NAME")) settings.smtp.localName = env("SMTP_LOCAL_NAME");
  }

  // SHOP_AUTH_RATE_LIMIT = sign-in attempts (password or code) per client IP a minute;
  // mails (codes, password links) get half. Put ahead of the defaults (first label wins).
  const perMinute = parseInt(env("SHOP_AUTH_RATE_LIMIT"), 10);
  if (perMinute > 0) {
    const mails = Math.max(1, Math.floor(perMinute / 2));
    const ours = [
      { label: "*:authWithPassword", audience: "", duration: 60, maxRequests: perMinute },
      { label: "*:authWithOTP", audience: "", duration: 60, maxRequests: perMinute },
      { label: "*:requestOTP", audience: "", duration: 60, maxRequests: mails },
      { label: "*:requestPasswordReset", audience: "", duration: 60, maxRequests: mails },
      { label: "POST /api/shop/signup", audience: "", duration: 60, maxRequests: perMinute },
    ];
    const labels = ours.map((r) => r.label);
    const kept = [];
    for (const rule of settings.rateLimits.rules) {
      if (labels.indexOf(rule.label) < 0) {
        kept.push({ label: rule.label, audience: rule.audience, duration: rule.duration, maxRequests: rule.maxRequests });
      }
    }
    settings.rateLimits.rules = /** @type {any} */ (ours.concat(kept));
    settings.rateLimits.enabled = true;
  }

  app.save(settings);
}

module.exports = { applyAppUrl, applyEnvSettings };
