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
    // Loopback is the web server itself and local tooling (e2e runs); every real
    // visitor arrives with its own forwarded address.
    settings.rateLimits.excludedIPs = ["127.0.0.0/8", "::1", "::ffff:127.0.0.0/104"];
    // The first matching label wins, so specific labels come before the catch-alls.
    settings.rateLimits.rules = /** @type {any} */ ([
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
      { label: "*:create", audience: "", maxRequests: 30, duration: 10 },
      { label: "/api/batch", audience: "", maxRequests: 3, duration: 1 },
      { label: "/api/", audience: "", maxRequests: 300, duration: 10 },
    ]);
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
