// @ts-check
/// <reference path="../types/pocketbase.d.ts" />
// The proxies domain: the customer routes (/api/v1/proxies), Proxy Management's inventory
// routes (/api/admin/proxies), the expiry job, and the record hooks of proxies and
// pricing_plans. Each handler is one call into lib/proxies/, where its route is documented.
// Money moves only through lib/money/ledger.js; every route that moves money takes an
// Idempotency-Key (lib/core/idempotency.js). Admin routes: shop admins only (anonymous
// 401, customers 403), changes refused in demo mode, one audit row each (lib/core/admin.js).
// Errors: {status, message, data: {field: {code, message}}}.

// ---- Customers: buy, renew, auto-renew, new credentials, stock, prices and usage ---------

routerAdd(
  "POST",
  "/api/v1/proxies/purchase",
  (e) => require(`${__hooks}/lib/proxies/purchase.js`).purchaseRoute(e),
  $apis.requireAuth("users"),
);
routerAdd("POST", "/api/v1/proxies/renew", (e) => require(`${__hooks}/lib/proxies/renewal.js`).renewRoute(e), $apis.requireAuth("users"));
routerAdd(
  "PATCH",
  "/api/v1/proxies/{id}",
  (e) => require(`${__hooks}/lib/proxies/my-proxies.js`).autoRenewRoute(e),
  $apis.requireAuth("users"),
);
routerAdd(
  "POST",
  "/api/v1/proxies/{id}/rotate",
  (e) => require(`${__hooks}/lib/proxies/my-proxies.js`).rotateRoute(e),
  $apis.requireAuth("users"),
);
// Replacement and the refund of a proxy whose exit is down (issue #28, lib/proxies/replacement.js).
routerAdd(
  "GET",
  "/api/v1/proxies/{id}/replacement",
  (e) => require(`${__hooks}/lib/proxies/replacement.js`).previewRoute(e),
  $apis.requireAuth("users"),
);
routerAdd(
  "POST",
  "/api/v1/proxies/{id}/replace",
  (e) => require(`${__hooks}/lib/proxies/replacement.js`).replaceRoute(e),
  $apis.requireAuth("users"),
);
routerAdd(
  "POST",
  "/api/v1/proxies/{id}/refund",
  (e) => require(`${__hooks}/lib/proxies/replacement.js`).refundRoute(e),
  $apis.requireAuth("users"),
);
routerAdd("GET", "/api/v1/proxies/stock", (e) => require(`${__hooks}/lib/proxies/prices.js`).stockRoute(e), $apis.requireAuth("users"));
routerAdd("GET", "/api/v1/proxies/prices", (e) => require(`${__hooks}/lib/proxies/prices.js`).pricesRoute(e), $apis.requireAuth("users"));
routerAdd(
  "GET",
  "/api/v1/proxies/countries",
  (e) => require(`${__hooks}/lib/proxies/my-proxies.js`).countriesRoute(e),
  $apis.requireAuth("users"),
);

routerAdd(
  "GET",
  "/api/v1/proxies/usage-summary",
  (e) => require(`${__hooks}/lib/proxies/usage.js`).summaryRoute(e),
  $apis.requireAuth("users"),
);
routerAdd("GET", "/api/v1/proxies/{id}/usage", (e) => require(`${__hooks}/lib/proxies/usage.js`).usageRoute(e), $apis.requireAuth("users"));

// ---- Proxy Management: the inventory, edit and delete, generate, import ------------------

routerAdd("GET", "/api/admin/proxies", (e) => require(`${__hooks}/lib/proxies/inventory.js`).listRoute(e), $apis.requireAuth("users"));
routerAdd(
  "GET",
  "/api/admin/proxies/stats",
  (e) => require(`${__hooks}/lib/proxies/inventory.js`).statsRoute(e),
  $apis.requireAuth("users"),
);
routerAdd(
  "GET",
  "/api/admin/proxies/locations",
  (e) => require(`${__hooks}/lib/proxies/inventory.js`).locationsRoute(e),
  $apis.requireAuth("users"),
);
routerAdd(
  "GET",
  "/api/admin/proxies/{id}",
  (e) => require(`${__hooks}/lib/proxies/inventory.js`).detailRoute(e),
  $apis.requireAuth("users"),
);
routerAdd(
  "PATCH",
  "/api/admin/proxies/{id}",
  (e) => require(`${__hooks}/lib/proxies/inventory-edit.js`).editRoute(e),
  $apis.requireAuth("users"),
);
routerAdd(
  "DELETE",
  "/api/admin/proxies/{id}",
  (e) => require(`${__hooks}/lib/proxies/inventory-edit.js`).deleteRoute(e),
  $apis.requireAuth("users"),
);
routerAdd(
  "POST",
  "/api/admin/proxies/{id}/assign",
  (e) => require(`${__hooks}/lib/proxies/assign.js`).assignRoute(e),
  $apis.requireAuth("users"),
);
routerAdd(
  "POST",
  "/api/admin/proxies/{id}/replace",
  (e) => require(`${__hooks}/lib/proxies/assign.js`).replaceRoute(e),
  $apis.requireAuth("users"),
);
routerAdd(
  "POST",
  "/api/admin/proxies/generate",
  (e) => require(`${__hooks}/lib/proxies/generate.js`).generateRoute(e),
  $apis.requireAuth("users"),
);
routerAdd(
  "POST",
  "/api/admin/proxies/import",
  (e) => require(`${__hooks}/lib/proxies/import.js`).importRoute(e),
  $apis.requireAuth("users"),
);

// ---- Expiry: auto-renewals, expiries, returns to stock, reminder mails, every minute ------

cronAdd("proxy_expiry", "* * * * *", () => require(`${__hooks}/lib/proxies/expiry.js`).runScheduled());

// ---- Upstream health: failing upstreams leave stock, dead exits of sold proxies replaced ----

cronAdd("upstream_health", "* * * * *", () => require(`${__hooks}/lib/proxies/upstream-health.js`).runScheduled());
routerAdd(
  "POST",
  "/api/admin/jobs/upstream-health",
  (e) => require(`${__hooks}/lib/proxies/upstream-health.js`).runJobRoute(e),
  $apis.requireSuperuserAuth(),
);

// ---- The countries in stock, for the public pages (lib/proxies/stock-summary.js) ----------

routerAdd("GET", "/api/shop/stock-summary", (e) => require(`${__hooks}/lib/proxies/stock-summary.js`).stockSummaryRoute(e));
cronAdd("stock_summary", "* * * * *", () => require(`${__hooks}/lib/proxies/stock-summary.js`).announceIfChanged());
routerAdd(
  "POST",
  "/api/admin/jobs/proxy-expiry",
  (e) => require(`${__hooks}/lib/proxies/expiry.js`).runJobRoute(e),
  $apis.requireSuperuserAuth(),
);

// ---- Records API on proxies: passwords sealed at rest; owner, status and term the server's -

// PocketBase refuses to start without a valid SHOP_CREDENTIALS_KEY, or with one that does
// not open the passwords already stored.
onBootstrap((e) => {
  e.next();
  require(`${__hooks}/lib/core/sealing.js`).assertUsableKey(e.app);
});
// Where customers connect (issue #16): on every start, after the migrations (serve runs them
// after onBootstrap, then the serve hook; the JS VM has no onServe of its own, so it is bound
// on $app here), every proxy's host and port are the gateway's for the environment's ports
// and the gateway_public_host setting, and owners whose proxies moved to the gateway are
// told once by mail (lib/proxies/gateway-endpoint.js, lib/proxies/mails.js).
$app.onServe().bindFunc((/** @type {core.ServeEvent} */ e) => {
  require(`${__hooks}/lib/proxies/gateway-endpoint.js`).syncEndpoints(e.app);
  e.next();
  require(`${__hooks}/lib/proxies/mails.js`).sendEndpointNotices(e.app);
});
onRecordEnrich((e) => require(`${__hooks}/lib/proxies/records-api.js`).addPassword(e), "proxies");
onRecordCreateRequest((e) => require(`${__hooks}/lib/proxies/records-api.js`).checkCreate(e), "proxies");
onRecordUpdateRequest((e) => require(`${__hooks}/lib/proxies/records-api.js`).checkUpdate(e), "proxies");

// ---- Pricing plans: their rules on every save; a committed change makes cached prices old -

onRecordValidate((e) => require(`${__hooks}/lib/proxies/prices.js`).validatePlan(e), "pricing_plans");
onRecordAfterCreateSuccess((e) => require(`${__hooks}/lib/proxies/prices.js`).planChanged(e), "pricing_plans");
onRecordAfterUpdateSuccess((e) => require(`${__hooks}/lib/proxies/prices.js`).planChanged(e), "pricing_plans");
onRecordAfterDeleteSuccess((e) => require(`${__hooks}/lib/proxies/prices.js`).planChanged(e), "pricing_plans");
