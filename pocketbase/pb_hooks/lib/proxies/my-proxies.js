// @ts-check
// A customer's own proxies (My Proxies): auto-renewal on or off, new credentials, and the
// countries they are in. Customers read the proxies themselves through the records API
// (rules scope them); another customer's proxy looks exactly like a missing one.

/** @type {typeof import("../core/api.js")} */
const api = require(`${__hooks}/lib/core/api.js`);
/** @type {typeof import("../core/sql.js")} */
const sql = require(`${__hooks}/lib/core/sql.js`);
/** @type {typeof import("./credentials.js")} */
const credentials = require(`${__hooks}/lib/proxies/credentials.js`);
/** @type {typeof import("../core/sealing.js")} */
const sealing = require(`${__hooks}/lib/core/sealing.js`);
/** @type {typeof import("./proxies.js")} */
const proxies = require(`${__hooks}/lib/proxies/proxies.js`);
/** @type {typeof import("../core/changes.js")} */
const changes = require(`${__hooks}/lib/core/changes.js`);

/**
 * The user's proxy `id`, or a 404.
 * @param {CoreApp} app
 * @param {string} userId
 * @param {string} id
 */
function ownProxy(app, userId, id) {
  /** @type {core.Record | undefined} */
  let proxy;
  try {
    proxy = app.findRecordById("proxies", id);
  } catch (_) {
    proxy = undefined;
  }
  if (!proxy || proxy.getString("assigned_to_user_id") !== userId) {
    throw new NotFoundError("No proxy with this id is assigned to you.");
  }
  return proxy;
}

/**
 * Issues a new random password for the user's active proxy and returns the proxy (with its
 * gateway `ports`). Only the customer's password changes: where it exits (upstream_*) stays.
 * @param {CoreApp} app
 * @param {string} userId
 * @param {string} id
 */
function regenerateCredentials(app, userId, id) {
  const proxy = ownProxy(app, userId, id);
  if (proxy.getString("status") !== "ASSIGNED") {
    throw new BadRequestError("Only active proxies get new credentials; renew this proxy first.");
  }
  const password = proxies.newPassword();
  proxy.set("password_encrypted", sealing.sealPassword(password));
  app.save(proxy);
  proxy.withCustomData(true);
  proxy.set("password", password);
  return require(`${__hooks}/lib/core/views.js`).proxyRecordView(require(`${__hooks}/lib/proxies/gateway-endpoint.js`).withPorts(proxy));
}

/**
 * Turns automatic renewal of the user's proxy on or off and returns the proxy.
 * @param {CoreApp} app
 * @param {string} userId
 * @param {string} id
 * @param {boolean} enabled
 */
function setAutoRenew(app, userId, id, enabled) {
  const proxy = ownProxy(app, userId, id);
  const status = proxy.getString("status");
  if (status !== "ASSIGNED" && status !== "EXPIRED") {
    throw new BadRequestError("This proxy is no longer yours to renew.");
  }
  if (proxy.getBool("auto_renew") !== enabled) {
    proxy.set("auto_renew", enabled);
    app.save(proxy);
  }
  return require(`${__hooks}/lib/core/views.js`).proxyRecordView(
    require(`${__hooks}/lib/proxies/gateway-endpoint.js`).withPorts(credentials.withPassword(proxy)),
  );
}

/**
 * The distinct countries of the user's proxies (the My Proxies country filter).
 * @param {CoreApp} app
 * @param {string} userId
 * @returns {string[]}
 */
function ownCountries(app, userId) {
  const rows = sql.rowsLike({ country: "" });
  app
    .db()
    .newQuery("SELECT DISTINCT country FROM proxies WHERE assigned_to_user_id = {:userId} ORDER BY country")
    .bind({ userId })
    .all(rows);
  return rows.map((r) => r.country).filter(Boolean);
}

/**
 * PATCH /api/v1/proxies/{id}  {auto_renew: boolean}  Idempotency-Key -> the proxy. Not a demo
 * account in demo mode.
 * @param {core.RequestEvent} e
 */
function autoRenewRoute(e) {
  const user = api.actingCustomer(e);
  const body = api.jsonBody(e);
  // A boolean: the document states it (the request validation answered anything else).
  const enabled = body["auto_renew"] === true;
  const id = e.request?.pathValue("id") ?? "";
  return changes.answerChange(e, { userId: user.id, route: "PATCH /api/v1/proxies/{id}", input: { id, auto_renew: enabled } }, (txApp) =>
    setAutoRenew(txApp, user.id, id, enabled),
  );
}

/**
 * POST /api/v1/proxies/{id}/rotate  Idempotency-Key -> the proxy with its new password (the
 * old one stops working within a second). Not a demo account in demo mode.
 * @param {core.RequestEvent} e
 */
function rotateRoute(e) {
  const user = api.actingCustomer(e);
  const id = e.request?.pathValue("id") ?? "";
  return changes.answerChange(e, { userId: user.id, route: "POST /api/v1/proxies/{id}/rotate", input: { id } }, (txApp) => {
    const proxy = regenerateCredentials(txApp, user.id, id);
    require(`${__hooks}/lib/activity/activity.js`).record(
      txApp,
      e,
      user.id,
      "credentials_rotated",
      `Rotated the credentials of proxy ${proxy.host}:${proxy.port} (${proxy.username})`,
    );
    return proxy;
  });
}

/**
 * GET /api/v1/proxies/countries -> ["DE", "US"]: the countries of my proxies.
 * @param {core.RequestEvent} e
 */
function countriesRoute(e) {
  const user = api.customer(e);
  return e.json(200, ownCountries(e.app, user.id));
}

module.exports = { regenerateCredentials, setAutoRenew, ownCountries, autoRenewRoute, rotateRoute, countriesRoute };
