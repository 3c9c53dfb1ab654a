// @ts-check
// Proxy orders, what purchases and renewals share: the Idempotency-Key around the route,
// the charge (one PROXY_PURCHASE ledger row through lib/money/ledger.js), the order row
// written by SQL in the same transaction, and the answer (again, on a replay).

/** @type {typeof import("../core/api.js")} */
const api = require(`${__hooks}/lib/core/api.js`);
/** @type {typeof import("../money/ledger.js")} */
const ledger = require(`${__hooks}/lib/money/ledger.js`);
/** @type {typeof import("../core/sql.js")} */
const sql = require(`${__hooks}/lib/core/sql.js`);
/** @type {typeof import("./proxies.js")} */
const proxies = require(`${__hooks}/lib/proxies/proxies.js`);

/**
 * @typedef {import("./proxies.js").ProxyRow} ProxyRow
 * @typedef {{ key: string, hash: string, apiKey?: import("../core/api.js").RequestApiKey | null }} Idempotency
 *   apiKey: the API key the order is made with (its spend cap applies; the order names it)
 */

/**
 * @typedef {object} OrderRow
 * @property {string} id
 * @property {string} user_id
 * @property {"purchase" | "renewal"} kind
 * @property {string} proxy_type  "" for a renewal of several types
 * @property {string} country
 * @property {string} state
 * @property {string} city
 * @property {number} quantity
 * @property {number} total_cents
 * @property {{ id: string, unit_price_cents: number }[]} items
 * @property {string} transaction_id
 * @property {string} status
 * @property {string} refunded_at
 * @property {string} idempotency_key
 * @property {string} created
 * @property {string} updated
 */

/**
 * @typedef {object} OrderView  what the purchase and renewal routes answer (the contract's OrderResult)
 * @property {ReturnType<typeof import("../core/views.js").orderView>} order
 * @property {import("../core/views.js").ProxyView[]} proxies
 * @property {number} balance_cents  the balance right after the order
 */

/**
 * A money route behind the customer's Idempotency-Key: a verified customer not in demo
 * mode, `work` once in one transaction, and a retry with the same key and body answered
 * the same order again (header Idempotent-Replayed: true). The order's activity rows are
 * written in its transaction (recordOrderActivity).
 * @param {core.RequestEvent} e
 * @param {string} route  e.g. "POST /api/v1/proxies/purchase"
 * @param {(body: Record<string, unknown>) => unknown} validate  the checked input
 * @param {(txApp: CoreApp, userId: string, input: any, idempotency: Idempotency) => OrderView} work
 */
function answerOnce(e, route, validate, work) {
  /** @type {typeof import("../core/idempotency.js")} */
  const idempotency = require(`${__hooks}/lib/core/idempotency.js`);
  const user = api.actingCustomer(e, { verified: true });
  const key = api.idempotencyKey(e);
  const input = validate(api.jsonBody(e));
  const apiKey = api.requestApiKey(e);
  const { earlier, result } = idempotency.once(
    e.app,
    { userId: user.id, key, route, input, collection: "proxy_orders" },
    (txApp, keyed) => {
      const view = work(txApp, user.id, input, { ...keyed, apiKey });
      recordOrderActivity(txApp, e, user.id, view, apiKey);
      return view;
    },
  );
  e.response.header().set("Idempotent-Replayed", String(!!earlier));
  return e.json(200, earlier ? savedOrderView(e.app, earlier) : result);
}

/**
 * The customer's activity log (Settings → Activity) for an order, inside its transaction:
 * "purchase" or "renewal", and "api_key_spent" when it was made with an API key.
 * @param {CoreApp} txApp
 * @param {core.RequestEvent | null} e  the request; null for the expiry job's automatic renewals
 * @param {string} userId
 * @param {OrderView} view
 * @param {import("../core/api.js").RequestApiKey | null | undefined} apiKey
 */
function recordOrderActivity(txApp, e, userId, view, apiKey) {
  /** @type {typeof import("../activity/activity.js")} */
  const activity = require(`${__hooks}/lib/activity/activity.js`);
  const order = view.order;
  const request = /** @type {core.RequestEvent} */ (/** @type {unknown} */ (e));
  const cost = ledger.formatUsd(order.total_cents);
  const number = proxies.orderNumber(order.id);
  if (order.kind === "purchase") {
    const place = [order.country, order.state, order.city].filter(Boolean).join(" / ");
    const what = proxies.proxiesLabel(order.quantity, order.proxy_type);
    activity.record(txApp, request, userId, "purchase", `Bought ${what} in ${place} for ${cost} (order ${number})`);
  } else {
    const what = proxies.proxiesLabel(order.quantity, order.proxy_type);
    const how = e ? "Renewed" : "Automatic renewal of";
    activity.record(txApp, request, userId, "renewal", `${how} ${what} for ${proxies.TERM_DAYS} days for ${cost} (order ${number})`);
  }
  if (apiKey) {
    activity.record(txApp, request, userId, "api_key_spent", `Spent ${cost} with API key “${apiKey.name}” (order ${number})`);
  }
}

/**
 * Takes an order's price from the user's balance inside the caller's transaction: one
 * PROXY_PURCHASE ledger row. Refused (changing nothing) with a message naming the
 * shortfall when the balance does not cover it, or when it would spend the locked part of
 * a welcome credit (until a first Stripe payment, finding 10).
 * @param {CoreApp} txApp
 * @param {string} userId
 * @param {{ orderId: string, cents: number, description: string, what: string, field: string, apiKey?: import("../core/api.js").RequestApiKey | null }} charge
 *   `what` names the cost in the refusal ("5 Residential proxies cost"); `field` carries it;
 *   `apiKey`: the key it is made with, held to its monthly spend cap
 */
function chargeOrder(txApp, userId, charge) {
  require(`${__hooks}/lib/money/spend-cap.js`).assertUnderSpendCap(txApp, charge.apiKey, charge.cents);
  const { transaction, balanceCents } = ledger.applyLedgerEntry(
    txApp,
    {
      userId,
      type: "PROXY_PURCHASE",
      amountCents: -charge.cents,
      description: `${charge.description} (order ${proxies.orderNumber(charge.orderId)})`,
      reference: `order:${charge.orderId}`,
    },
    (balance) => {
      const message = `Insufficient balance: ${charge.what} ${ledger.formatUsd(charge.cents)} and your balance is ${ledger.formatUsd(balance)}. Add ${ledger.formatUsd(charge.cents - balance)} in credits and try again.`;
      return new BadRequestError(message, { [charge.field]: new ValidationError("insufficient_balance", message) });
    },
  );
  require(`${__hooks}/lib/money/welcome-credit.js`).assertWelcomeCreditRule(txApp, userId, balanceCents, charge.field);
  return { transactionId: transaction.id, balanceCents };
}

/**
 * Writes a completed order with its Idempotency-Key and returns the answer. By SQL, like
 * the ledger row: every value comes from the code here, and a record save costs several
 * times more on the purchase hot path.
 * @param {CoreApp} txApp
 * @param {Omit<OrderRow, "status" | "refunded_at" | "idempotency_key" | "updated">} fields
 * @param {ProxyRow[]} bought  in the order's item order
 * @param {number} balanceCents  the balance after the charge
 * @param {Idempotency | null | undefined} idempotency
 * @returns {OrderView}
 */
function saveOrder(txApp, fields, bought, balanceCents, idempotency) {
  /** @type {OrderRow} */
  const order = { ...fields, status: "completed", refunded_at: "", idempotency_key: idempotency?.key ?? "", updated: fields.created };
  txApp
    .db()
    .newQuery(
      `INSERT INTO proxy_orders (id, user_id, kind, proxy_type, country, state, city, quantity, total_cents, items, transaction_id, status, refunded_at, idempotency_key, request_hash, api_key_id, created, updated)
       VALUES ({:id}, {:user_id}, {:kind}, {:proxy_type}, {:country}, {:state}, {:city}, {:quantity}, {:total_cents}, {:items}, {:transaction_id}, {:status}, '', {:idempotency_key}, {:request_hash}, {:api_key_id}, {:created}, {:updated})`,
    )
    .bind({
      ...order,
      items: JSON.stringify(order.items),
      request_hash: idempotency?.hash ?? "",
      api_key_id: idempotency?.apiKey?.id ?? "",
    })
    .execute();
  return orderView(order, bought, balanceCents);
}

/**
 * @param {OrderRow} order
 * @param {ProxyRow[]} rows  in the order's item order
 * @param {number} balanceCents
 * @returns {OrderView}
 */
function orderView(order, rows, balanceCents) {
  /** @type {typeof import("../core/views.js")} */
  const views = require(`${__hooks}/lib/core/views.js`);
  return { order: views.orderView(order), proxies: rows.map(views.proxyView), balance_cents: balanceCents };
}

/**
 * An earlier order as the routes answer it again for an Idempotency-Key replay: the order,
 * the balance right after it, and only those of its proxies that its buyer still holds,
 * with their current credentials. A proxy that went back to stock (refund, release,
 * expiry) and was sold again belongs to someone else now: a replay never shows it.
 * @param {CoreApp} app
 * @param {string} orderId
 * @returns {OrderView}
 */
function savedOrderView(app, orderId) {
  const order = app.findRecordById("proxy_orders", orderId);
  const userId = order.getString("user_id");
  /** @type {{ id: string, unit_price_cents: number }[]} */
  const items = JSON.parse(order.getString("items") || "[]");
  const ids = items.map((item) => item.id);
  const list = sql.inList("id", ids);
  const rows = proxies.proxyRows();
  app
    .db()
    .newQuery(
      `SELECT ${proxies.PROXY_COLUMNS} FROM proxies WHERE ${list.sql} AND assigned_to_user_id = {:userId} AND status IN ('ASSIGNED', 'EXPIRED')`,
    )
    .bind({ ...list.params, userId })
    .all(rows);
  rows.sort((a, b) => ids.indexOf(a.id) - ids.indexOf(b.id));
  proxies.openPasswords(rows);
  const balance = new DynamicModel({ balance_after_cents: 0 });
  app
    .db()
    .newQuery("SELECT balance_after_cents FROM transactions WHERE id = {:id}")
    .bind({ id: order.getString("transaction_id") })
    .one(balance);
  /** @type {OrderRow} */
  const row = {
    id: order.id,
    user_id: userId,
    kind: /** @type {"purchase" | "renewal"} */ (order.getString("kind")),
    proxy_type: order.getString("proxy_type"),
    country: order.getString("country"),
    state: order.getString("state"),
    city: order.getString("city"),
    quantity: order.getInt("quantity"),
    total_cents: order.getInt("total_cents"),
    items,
    transaction_id: order.getString("transaction_id"),
    status: order.getString("status"),
    refunded_at: order.getString("refunded_at"),
    idempotency_key: order.getString("idempotency_key"),
    created: order.getString("created"),
    updated: order.getString("updated"),
  };
  return orderView(row, rows, balance.balance_after_cents);
}

module.exports = { answerOnce, recordOrderActivity, chargeOrder, saveOrder, savedOrderView };
