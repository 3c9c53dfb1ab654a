// @ts-check
/// <reference path="../types/pocketbase.d.ts" />
// The proxies domain: the customer routes (/api/v1/proxies), Proxy Management's inventory
// routes (/api/admin/proxies), the expiry job, and the record hooks of proxies and
// pricing_plans. Each handler is one call into lib/proxies/, where its route is documented.
// Money moves only through lib/money/ledger.js; every route that moves money takes an
// Idempotency-Key (lib/core/idempotency.js). Admin routes: shop admins only (anonymous
// 401, customers 403), changes refused in demo mode, one audit row each (lib/core/admin.js).
// Errors: {status, message, data: {field: {code, message}}}.

// ---- The routes: buying, renewing, stock, prices and usage; the inventory (lib/api/routes.js)
require(`${__hooks}/lib/core/routes.js`).register(require(`${__hooks}/lib/api/routes.js`).proxies, (/** @type {core.RequestEvent} */ e) =>
  require(`${__hooks}/lib/core/routes.js`).dispatch(e, require(`${__hooks}/lib/api/routes.js`).proxies),
);

// ---- Expiry: auto-renewals, expiries, returns to stock, reminder mails, every minute ------

cronAdd("proxy_expiry", "* * * * *", () => require(`${__hooks}/lib/proxies/expiry.js`).runScheduled());

// ---- The countries in stock, for the public pages (lib/proxies/stock-summary.js) ----------

cronAdd("stock_summary", "* * * * *", () => require(`${__hooks}/lib/proxies/stock-summary.js`).announceIfChanged());

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
