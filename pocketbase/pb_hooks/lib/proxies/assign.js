// @ts-check
// Proxy Management's assignments (issue #28 item 2), shop admins only, audited, refused in
// demo mode:
// - POST /api/admin/proxies/{id}/assign {user_id, price_cents}  Idempotency-Key: an AVAILABLE
//   proxy becomes the customer's for a term (TERM_DAYS) with an order at the admin's price:
//   $0 writes the order and no ledger row (a ledger row is never 0), a price is one
//   PROXY_PURCHASE row from the customer's balance (refused when it does not cover it). Audit
//   proxies.assign; the customer's activity "proxy_assigned".
// - POST /api/admin/proxies/{id}/replace: a customer's proxy gets the exit of a stock proxy of
//   the same type and place (credentials and term stay; lib/proxies/upstream-health.js).
//   Audit proxies.replace; the customer's activity "proxy_replaced". Free, never counted.

/** @type {typeof import("../core/api.js")} */
const api = require(`${__hooks}/lib/core/api.js`);
/** @type {typeof import("../core/admin.js")} */
const admin = require(`${__hooks}/lib/core/admin.js`);
/** @type {typeof import("./proxies.js")} */
const proxies = require(`${__hooks}/lib/proxies/proxies.js`);

/**
 * The assignment's body: its types and ranges are the admin document's (pocketbase/devapi
 * refused anything else before the hook ran); the customer's id is looked up by assign().
 * @param {Record<string, unknown>} body
 * @returns {{ userId: string, priceCents: number }}
 */
function assignInput(body) {
  return { userId: String(body["user_id"]).trim(), priceCents: Number(body["price_cents"]) };
}

/**
 * Assigns the AVAILABLE proxy `id` inside the caller's transaction; answers the order id.
 * @param {CoreApp} txApp
 * @param {string} adminId
 * @param {string} id
 * @param {{ userId: string, priceCents: number }} input
 * @param {{ key: string, hash: string }} keyed
 */
function assign(txApp, adminId, id, input, keyed) {
  /** @type {typeof import("./orders.js")} */
  const orders = require(`${__hooks}/lib/proxies/orders.js`);
  const sql = require(`${__hooks}/lib/core/sql.js`);
  /** @type {core.Record} */
  let user;
  try {
    user = txApp.findRecordById("users", input.userId);
  } catch (_) {
    throw api.fieldError("user_id", "No customer with this id.", "validation_not_found");
  }
  if (user.getBool("deleted") || user.getBool("suspended")) {
    throw api.fieldError("user_id", "This customer is suspended or deleted: proxies cannot be assigned to them.");
  }
  const rows = proxies.proxyRows();
  txApp.db().newQuery(`SELECT ${proxies.PROXY_COLUMNS} FROM proxies WHERE id = {:id}`).bind({ id }).all(rows);
  const proxy = rows[0];
  if (!proxy) throw new NotFoundError("No proxy with this id.");
  if (proxy.status !== "AVAILABLE") {
    throw new ApiError(409, "Only an Available proxy can be assigned; this one is not in stock.", {
      status: new ValidationError("not_available", "Not available"),
    });
  }
  const orderId = sql.newId();
  const place = require(`${__hooks}/lib/proxies/upstream-health.js`).placeText(proxy);
  const what = proxies.proxiesLabel(1, proxy.type);
  let transactionId = "";
  let balanceCents = require(`${__hooks}/lib/money/ledger.js`).balanceRecord(txApp, user.id).getInt("balance_cents");
  if (input.priceCents > 0) {
    ({ transactionId, balanceCents } = orders.chargeOrder(txApp, user.id, {
      orderId,
      cents: input.priceCents,
      description: `${what} in ${place} for ${proxies.TERM_DAYS} days, assigned by the shop`,
      what: `${what} costs`,
      field: "price_cents",
    }));
  }
  const now = new DateTime().string();
  const expires = new DateTime().addDate(0, 0, proxies.TERM_DAYS).string();
  txApp
    .db()
    .newQuery(
      `UPDATE proxies SET status = 'ASSIGNED', assigned_to_user_id = {:userId}, expires_at = {:expires}, auto_renew = FALSE,
       expiry_notice_sent_at = '', quota_notice_month = '', quota_notice_level = 0, term_started_at = {:now}, updated = {:now}
       WHERE id = {:id} AND +status = 'AVAILABLE'`,
    )
    .bind({ id, userId: user.id, expires, now })
    .execute();
  orders.saveOrder(
    txApp,
    {
      id: orderId,
      user_id: user.id,
      kind: "purchase",
      proxy_type: proxy.type,
      country: proxy.country,
      state: proxy.state,
      city: proxy.city,
      quantity: 1,
      total_cents: input.priceCents,
      items: [{ id, unit_price_cents: input.priceCents }],
      transaction_id: transactionId,
      created: now,
    },
    [],
    balanceCents,
    keyed,
  );
  const number = proxies.orderNumber(orderId);
  const cost = require(`${__hooks}/lib/money/ledger.js`).formatUsd(input.priceCents);
  require(`${__hooks}/lib/activity/activity.js`).record(
    txApp,
    null,
    user.id,
    "proxy_assigned",
    `The shop assigned you ${what} in ${place} for ${cost} (order ${number})`,
    { proxy_id: id, order_id: orderId },
  );
  require(`${__hooks}/lib/core/audit.js`).writeAuditLog(txApp, {
    adminId,
    action: "proxies.assign",
    targetType: "proxies",
    targetId: id,
    details: {
      user_id: user.id,
      email: user.email(),
      price_cents: input.priceCents,
      order_id: orderId,
      order_number: number,
      transaction_id: transactionId,
      balance_after_cents: balanceCents,
    },
  });
  return orderId;
}

/**
 * What the assign route answers (first time and replay alike).
 * @param {CoreApp} app
 * @param {string} orderId
 */
function assignView(app, orderId) {
  const order = app.findRecordById("proxy_orders", orderId);
  /** @type {{ id: string }[]} */
  const items = JSON.parse(order.getString("items") || "[]");
  const proxyId = items[0]?.id ?? "";
  return {
    order_id: order.id,
    order_number: proxies.orderNumber(order.id),
    user_id: order.getString("user_id"),
    price_cents: order.getInt("total_cents"),
    transaction_id: order.getString("transaction_id"),
    proxy: require(`${__hooks}/lib/proxies/inventory.js`).detail(app, proxyId),
  };
}

/**
 * POST /api/admin/proxies/{id}/assign  {user_id, price_cents}  Idempotency-Key.
 * @param {core.RequestEvent} e
 */
function assignRoute(e) {
  const caller = admin.requireAdminWrite(e);
  const input = assignInput(api.jsonBody(e));
  const key = api.idempotencyKey(e);
  const id = e.request?.pathValue("id") ?? "";
  /** @type {typeof import("../core/idempotency.js")} */
  const idempotency = require(`${__hooks}/lib/core/idempotency.js`);
  const { earlier, result } = idempotency.once(
    e.app,
    { userId: input.userId, key: `assign:${key}`, route: `POST /api/admin/proxies/${id}/assign`, input, collection: "proxy_orders" },
    (txApp, keyed) => assign(txApp, caller.id, id, input, keyed),
  );
  e.response.header().set("Idempotent-Replayed", String(!!earlier));
  return e.json(200, assignView(e.app, earlier ?? result ?? ""));
}

/**
 * POST /api/admin/proxies/{id}/replace -> the proxy's detail with its new exit.
 * @param {core.RequestEvent} e
 */
function replaceRoute(e) {
  admin.requireAdminWrite(e);
  const id = e.request?.pathValue("id") ?? "";
  /** @type {typeof import("./upstream-health.js")} */
  const health = require(`${__hooks}/lib/proxies/upstream-health.js`);
  admin.auditedChange(e, (txApp) => {
    const rows = health.proxyRowsWhere(txApp, "id = {:id}", { id });
    const proxy = rows[0];
    if (!proxy) throw new NotFoundError("No proxy with this id.");
    if (proxy.status !== "ASSIGNED")
      throw new BadRequestError("Only a customer's active proxy can be swapped; assign an Available one instead.");
    const stockId = health.stockFor(txApp, proxy);
    if (!stockId) {
      throw new ApiError(409, `No ${proxies.typeLabel(proxy.type)} proxy is in stock in ${health.placeText(proxy)} to swap with.`, {
        id: new ValidationError("insufficient_stock", "Not enough stock"),
      });
    }
    health.swapExits(txApp, id, stockId);
    require(`${__hooks}/lib/activity/activity.js`).record(
      txApp,
      null,
      proxy.assigned_to_user_id,
      "proxy_replaced",
      `The shop replaced the IP of proxy ${proxy.username} (same credentials)`,
      { proxy_id: id },
    );
    return {
      result: null,
      audit: {
        action: "proxies.replace",
        targetType: "proxies",
        targetId: id,
        details: { user_id: proxy.assigned_to_user_id, exit_from: stockId },
      },
    };
  });
  return e.json(200, require(`${__hooks}/lib/proxies/inventory.js`).detail(e.app, id));
}

module.exports = { assignRoute, replaceRoute };
