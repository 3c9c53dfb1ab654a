// @ts-check
/// <reference path="../types/pocketbase.d.ts" />
// Customer proxy routes (the public API's /api/v1/proxies): buy, renew, auto-renew,
// new credentials, stock and prices. Money moves only inside lib/proxies/proxies.js through
// lib/money/ledger.js; every route that moves money takes an Idempotency-Key (lib/money/idempotency.js),
// stored on the order it made: a retry with the same key and body answers that order again.
// Customers read their own proxies and orders through the records API (rules scope them).

// POST /api/v1/proxies/purchase  {type, country, state?, city?, quantity}  Idempotency-Key
// -> {order, proxies, balance_cents}
routerAdd(
  "POST",
  "/api/v1/proxies/purchase",
  (e) => {
    /** @type {typeof import("./lib/core/api.js")} */
    const api = require(`${__hooks}/lib/core/api.js`);
    /** @type {typeof import("./lib/proxies/proxies.js")} */
    const proxies = require(`${__hooks}/lib/proxies/proxies.js`);
    /** @type {typeof import("./lib/money/idempotency.js")} */
    const idempotency = require(`${__hooks}/lib/money/idempotency.js`);
    const user = api.actingCustomer(e, { verified: true });
    const key = api.idempotencyKey(e);
    const input = proxies.validatePurchase(api.jsonBody(e));
    const { earlier, result } = idempotency.once(
      e.app,
      { userId: user.id, key, route: "POST /api/v1/proxies/purchase", input, collection: "proxy_orders" },
      (txApp, keyed) => proxies.purchase(txApp, user.id, input, keyed),
    );
    e.response.header().set("Idempotent-Replayed", String(!!earlier));
    return e.json(200, earlier ? proxies.savedOrderView(e.app, earlier) : result);
  },
  $apis.requireAuth("users"),
);

// POST /api/v1/proxies/renew  {proxy_ids: [...]}  Idempotency-Key -> {order, proxies, balance_cents}
routerAdd(
  "POST",
  "/api/v1/proxies/renew",
  (e) => {
    /** @type {typeof import("./lib/core/api.js")} */
    const api = require(`${__hooks}/lib/core/api.js`);
    /** @type {typeof import("./lib/proxies/proxies.js")} */
    const proxies = require(`${__hooks}/lib/proxies/proxies.js`);
    /** @type {typeof import("./lib/money/idempotency.js")} */
    const idempotency = require(`${__hooks}/lib/money/idempotency.js`);
    const user = api.actingCustomer(e, { verified: true });
    const key = api.idempotencyKey(e);
    const ids = proxies.validateRenewal(api.jsonBody(e));
    const { earlier, result } = idempotency.once(
      e.app,
      { userId: user.id, key, route: "POST /api/v1/proxies/renew", input: ids, collection: "proxy_orders" },
      (txApp, keyed) => proxies.renew(txApp, user.id, ids, { idempotency: keyed }),
    );
    e.response.header().set("Idempotent-Replayed", String(!!earlier));
    return e.json(200, earlier ? proxies.savedOrderView(e.app, earlier) : result);
  },
  $apis.requireAuth("users"),
);

// PATCH /api/v1/proxies/{id}  {auto_renew: boolean} -> the proxy
routerAdd(
  "PATCH",
  "/api/v1/proxies/{id}",
  (e) => {
    /** @type {typeof import("./lib/core/api.js")} */
    const api = require(`${__hooks}/lib/core/api.js`);
    /** @type {typeof import("./lib/proxies/proxies.js")} */
    const proxies = require(`${__hooks}/lib/proxies/proxies.js`);
    const user = api.actingCustomer(e);
    const body = api.jsonBody(e);
    if (typeof body["auto_renew"] !== "boolean") throw api.fieldError("auto_renew", "auto_renew must be true or false.");
    return e.json(200, proxies.setAutoRenew(e.app, user.id, e.request?.pathValue("id") ?? "", body["auto_renew"]));
  },
  $apis.requireAuth("users"),
);

// POST /api/v1/proxies/{id}/regenerate-credentials -> the proxy with its new password
routerAdd(
  "POST",
  "/api/v1/proxies/{id}/regenerate-credentials",
  (e) => {
    /** @type {typeof import("./lib/core/api.js")} */
    const api = require(`${__hooks}/lib/core/api.js`);
    /** @type {typeof import("./lib/proxies/proxies.js")} */
    const proxies = require(`${__hooks}/lib/proxies/proxies.js`);
    const user = api.actingCustomer(e);
    return e.json(200, proxies.regenerateCredentials(e.app, user.id, e.request?.pathValue("id") ?? ""));
  },
  $apis.requireAuth("users"),
);

// GET /api/v1/proxies/stock?type=RESIDENTIAL -> {type, unit_price_cents, locations: [{country, state, city, available}]}
routerAdd(
  "GET",
  "/api/v1/proxies/stock",
  (e) => {
    /** @type {typeof import("./lib/core/api.js")} */
    const api = require(`${__hooks}/lib/core/api.js`);
    /** @type {typeof import("./lib/proxies/proxies.js")} */
    const proxies = require(`${__hooks}/lib/proxies/proxies.js`);
    api.customer(e);
    const type = String(e.request?.url?.query().get("type") ?? "").toUpperCase();
    if (proxies.PROXY_TYPES.indexOf(type) < 0) throw api.fieldError("type", `type must be one of ${proxies.PROXY_TYPES.join(", ")}.`);
    return e.json(200, proxies.stock(e.app, type));
  },
  $apis.requireAuth("users"),
);

// GET /api/v1/proxies/prices -> {RESIDENTIAL: 200, ...} (unit price for 30 days, types for sale)
routerAdd(
  "GET",
  "/api/v1/proxies/prices",
  (e) => {
    require(`${__hooks}/lib/core/api.js`).customer(e);
    return e.json(200, require(`${__hooks}/lib/proxies/proxies.js`).priceList(e.app));
  },
  $apis.requireAuth("users"),
);

// GET /api/v1/proxies/countries -> ["DE", "US"] (the countries of my proxies)
routerAdd(
  "GET",
  "/api/v1/proxies/countries",
  (e) => {
    const user = require(`${__hooks}/lib/core/api.js`).customer(e);
    return e.json(200, require(`${__hooks}/lib/proxies/proxies.js`).ownCountries(e.app, user.id));
  },
  $apis.requireAuth("users"),
);

// ---- Passwords encrypted at rest (lib/proxies/credentials.js) -------------------------------
// `password_encrypted` is hidden; whoever may view a proxy (its owner, admins; records API
// list/view, realtime) reads the plaintext as `password`. Records-API writes (admins,
// superusers) send a plain `password`, sealed here before the save.

// PocketBase refuses to start without a valid SHOP_CREDENTIALS_KEY, or with one that does
// not open the passwords already stored.
onBootstrap((e) => {
  e.next();
  /** @type {typeof import("./lib/proxies/credentials.js")} */
  const credentials = require(`${__hooks}/lib/proxies/credentials.js`);
  credentials.assertUsableKey(e.app);
});

onRecordEnrich((e) => {
  /** @type {typeof import("./lib/proxies/credentials.js")} */
  const credentials = require(`${__hooks}/lib/proxies/credentials.js`);
  const record = /** @type {core.Record} */ (e.record);
  try {
    credentials.withPassword(record);
  } catch (err) {
    // One damaged value must not hide a customer's whole list; it is logged loudly.
    e.app.logger().error("proxy password cannot be decrypted", "proxy", record.id, "error", String(err));
    record.withCustomData(true);
    record.set("password", "");
  }
  e.next();
}, "proxies");

onRecordCreateRequest((e) => {
  /** @type {typeof import("./lib/proxies/credentials.js")} */
  const credentials = require(`${__hooks}/lib/proxies/credentials.js`);
  credentials.sealRequestPassword(e, true);
  e.next();
}, "proxies");

onRecordUpdateRequest((e) => {
  /** @type {typeof import("./lib/proxies/credentials.js")} */
  const credentials = require(`${__hooks}/lib/proxies/credentials.js`);
  const changed = credentials.sealRequestPassword(e, false);
  e.next();
  // The answer is written; the audit row (lib/audit/audit.js, after this) lists the password as
  // changed ("[redacted]") only when it was.
  if (!changed) e.record?.withCustomData(false);
}, "proxies");

// ---- Owner, status and term: the server's only (security review #13, finding 6) ------
// No records-API write sets a proxy's owner, status, expiry, auto-renewal or expiry notice,
// superusers (the dashboard) included, as for the money collections (money.pb.js): a new
// proxy starts Available with none of them, and an update never changes them. Purchases,
// renewals, refunds and expiry save through app.save() (no request hooks); admins change
// them through the console's audited routes (console-proxies.pb.js).

onRecordCreateRequest((e) => {
  /** @type {typeof import("./lib/proxies/console-proxies.js")} */
  const inventory = require(`${__hooks}/lib/proxies/console-proxies.js`);
  if (e.record) inventory.assertServerFieldsOnCreate(e.record);
  e.next();
}, "proxies");

onRecordUpdateRequest((e) => {
  /** @type {typeof import("./lib/proxies/console-proxies.js")} */
  const inventory = require(`${__hooks}/lib/proxies/console-proxies.js`);
  if (e.record) inventory.assertServerFieldsUnchanged(e.record);
  e.next();
}, "proxies");
