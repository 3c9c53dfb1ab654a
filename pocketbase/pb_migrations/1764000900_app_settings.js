// @ts-check
// App settings: name, the rate limiter and the trusted proxy header. meta.appURL follows
// SHOP_APP_URL on every start (pb_hooks/app-settings.pb.js).

migrate(
  (app) => {
    const settings = app.settings();
    settings.meta.appName = "ProxyShop";

    // PocketBase listens on loopback only; the web server in front of it sends the
    // client's address as a single X-Forwarded-For value.
    settings.trustedProxy.headers = ["X-Forwarded-For"];
    settings.trustedProxy.useLeftmostIP = false;

    settings.rateLimits.enabled = true;
    // No address is exempt: behind a same-host web server every visitor would arrive from
    // loopback. Test harnesses raise the limits with SHOP_RATE_LIMIT_SCALE instead.
    settings.rateLimits.excludedIPs = [];
    settings.rateLimits.rules = /** @type {any} */ (require(`${__hooks}/lib/settings/rate-limits.js`).scaledDefaultRules(1));
    app.save(settings);
  },
  (app) => {
    const settings = app.settings();
    settings.meta.appName = "Acme";
    settings.trustedProxy.headers = [];
    settings.rateLimits.enabled = false;
    settings.rateLimits.excludedIPs = [];
    settings.rateLimits.rules = /** @type {any} */ ([]);
    app.save(settings);
  },
);
