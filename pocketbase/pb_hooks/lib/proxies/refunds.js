// @ts-check
// Refunds of proxy orders (the money-back promise, catalog.json refund_window_days), made by
// an admin in the console: which orders can be refunded and why (the rules below); the
// refund itself is lib/proxies/order-refund.js.
//
// Rules:
// - The whole order total comes back as one REFUND ledger row (reference "refund:<order
//   id>", unique per user, so an order is refunded at most once), the order becomes
//   `refunded` with refunded_at, who refunded it, why, and the admin's Idempotency-Key.
// - A purchase: its proxies that the customer still holds (ASSIGNED or EXPIRED, still
//   assigned to them) go back to stock with a new password (lib/proxies/proxies.js returnToStock);
//   a proxy someone else holds now is never touched.
// - A renewal: the term (30 days) it bought is taken back off each of its proxies the customer
//   still holds; a proxy whose expiry is then past is EXPIRED at once (the expiry job then
//   gives the usual 7 days of grace from that expiry). Auto-renew is switched off for them,
//   so the expiry job does not buy the refunded renewal again.
// - A purchase whose proxies a later renewal (not refunded) extended is refused until that
//   renewal is refunded: the customer would otherwise have paid for days on proxies that
//   are gone.
// - The promise is 7 days. An older order can still be refunded (a goodwill gesture), but
//   only when the request says so (`allow_late: true`), so nobody refunds an old order by
//   mistake; the audit row records whether the refund was within the promise.

/** @type {typeof import("../core/sql.js")} */
const sql = require(`${__hooks}/lib/core/sql.js`);
/** @type {typeof import("./proxies.js")} */
const proxies = require(`${__hooks}/lib/proxies/proxies.js`);

/** @type {{ refund_window_days: number, proxy_term_days: number }} */
const catalog = require(`${__hooks}/lib/catalog.json`);

/** The money-back promise, in days. */
const PROMISE_DAYS = catalog.refund_window_days;
const DAY_SECONDS = 86400;

function orderRows() {
  return sql.rowsLike({
    id: "",
    user_id: "",
    kind: "",
    proxy_type: "",
    country: "",
    state: "",
    city: "",
    quantity: 0,
    total_cents: 0,
    items: "",
    transaction_id: "",
    status: "",
    refunded_at: "",
    refund_reason: "",
    refunded_by: "",
    refund_idempotency_key: "",
    refund_request_hash: "",
    created: "",
    updated: "",
  });
}

/** @typedef {ReturnType<typeof orderRows>[number]} OrderRow */

const ORDER_COLUMNS =
  "id, user_id, kind, proxy_type, country, state, city, quantity, total_cents, items, transaction_id, status, refunded_at, refund_reason, refunded_by, refund_idempotency_key, refund_request_hash, created, updated";

/**
 * The proxy ids of an order.
 * @param {OrderRow} order
 * @returns {string[]}
 */
function itemIds(order) {
  try {
    /** @type {{ id: string }[]} */
    const items = JSON.parse(order.items || "[]");
    return Array.isArray(items) ? items.map((i) => String(i.id)) : [];
  } catch (_) {
    return [];
  }
}

/**
 * Whole days since a PocketBase date.
 * @param {string} created
 */
function ageDays(created) {
  const seconds = new DateTime().unix() - new DateTime(created).unix();
  return Math.max(0, Math.floor(seconds / DAY_SECONDS));
}

/**
 * True while the order is inside the 7-day promise.
 * @param {string} created
 */
function withinPromise(created) {
  return new DateTime().unix() - new DateTime(created).unix() <= PROMISE_DAYS * DAY_SECONDS;
}

/**
 * The later renewal (not refunded) that extended one of `ids` the user still holds, or null.
 * @param {CoreApp} app
 * @param {OrderRow} order  a purchase
 * @param {string[]} heldIds  its proxies the user still holds
 * @returns {OrderRow | null}
 */
function blockingRenewal(app, order, heldIds) {
  if (heldIds.length === 0) return null;
  const renewals = orderRows();
  app
    .db()
    .newQuery(
      `SELECT ${ORDER_COLUMNS} FROM proxy_orders WHERE user_id = {:user} AND kind = 'renewal' AND status = 'completed' AND created >= {:created}
       ORDER BY created DESC`,
    )
    .bind({ user: order.user_id, created: order.created })
    .all(renewals);
  for (const renewal of renewals) {
    if (itemIds(renewal).some((id) => heldIds.indexOf(id) >= 0)) return renewal;
  }
  return null;
}

/**
 * The order's proxies the customer still holds (ASSIGNED or EXPIRED, assigned to them).
 * @param {CoreApp} app
 * @param {OrderRow} order
 * @returns {{ id: string, status: string, expires_at: string }[]}
 */
function heldProxies(app, order) {
  const ids = itemIds(order);
  if (ids.length === 0) return [];
  const list = sql.inList("id", ids);
  const rows = sql.rowsLike({ id: "", status: "", expires_at: "" });
  app
    .db()
    .newQuery(
      `SELECT id, status, expires_at FROM proxies WHERE ${list.sql} AND assigned_to_user_id = {:user} AND status IN ('ASSIGNED', 'EXPIRED')`,
    )
    .bind({ ...list.params, user: order.user_id })
    .all(rows);
  return rows.map((r) => ({ ...r }));
}

/**
 * Whether the order can be refunded now, and a sentence saying why (or why not) for the console.
 * @param {CoreApp} app
 * @param {OrderRow} order
 * @returns {{ refundable: boolean, within_promise: boolean, reason: string }}
 */
function refundability(app, order) {
  const within = withinPromise(order.created);
  if (order.status === "refunded") {
    return {
      refundable: false,
      within_promise: within,
      reason: `Refunded on ${require(`${__hooks}/lib/core/views.js`).dayText(order.refunded_at)}.`,
    };
  }
  if (order.kind === "purchase") {
    const held = heldProxies(app, order).map((p) => p.id);
    const renewal = blockingRenewal(app, order, held);
    if (renewal) {
      return {
        refundable: false,
        within_promise: within,
        reason: `Renewal order ${proxies.orderNumber(renewal.id)} extended these proxies: refund it first.`,
      };
    }
  }
  if (within) {
    const left = Math.max(0, PROMISE_DAYS - ageDays(order.created));
    return {
      refundable: true,
      within_promise: true,
      reason: `Within the ${PROMISE_DAYS}-day money-back promise (${left === 0 ? "last day" : `${left} ${left === 1 ? "day" : "days"} left`}).`,
    };
  }
  return {
    refundable: true,
    within_promise: false,
    reason: `Older than ${PROMISE_DAYS} days (${ageDays(order.created)} days): outside the money-back promise, can still be refunded as a goodwill gesture.`,
  };
}

/**
 * An order as the console shows it (no idempotency data).
 * @param {OrderRow} order
 */
function orderView(order) {
  /** @type {{ id: string, unit_price_cents: number }[]} */
  let items = [];
  try {
    items = JSON.parse(order.items || "[]");
  } catch (_) {
    items = [];
  }
  return {
    id: order.id,
    user_id: order.user_id,
    number: proxies.orderNumber(order.id),
    kind: order.kind,
    proxy_type: order.proxy_type,
    country: order.country,
    state: order.state,
    city: order.city,
    quantity: order.quantity,
    total_cents: order.total_cents,
    items,
    transaction_id: order.transaction_id,
    status: order.status,
    refunded_at: order.refunded_at,
    refund_reason: order.refund_reason,
    refunded_by: order.refunded_by,
    created: order.created,
    updated: order.updated,
  };
}

/**
 * The user's newest orders with whether each can be refunded.
 * @param {CoreApp} app
 * @param {string} userId
 * @param {number} limit
 */
function ordersWithRefundability(app, userId, limit) {
  const rows = orderRows();
  app
    .db()
    .newQuery(`SELECT ${ORDER_COLUMNS} FROM proxy_orders WHERE user_id = {:user} ORDER BY created DESC, id DESC LIMIT {:limit}`)
    .bind({ user: userId, limit })
    .all(rows);
  return rows.map((row) => {
    const r = refundability(app, row);
    return { ...orderView(row), refundable: r.refundable, within_promise: r.within_promise, refundable_reason: r.reason };
  });
}

/**
 * @param {CoreApp} app
 * @param {string} id
 * @returns {OrderRow | null}
 */
function findOrder(app, id) {
  const rows = orderRows();
  app.db().newQuery(`SELECT ${ORDER_COLUMNS} FROM proxy_orders WHERE id = {:id} LIMIT 1`).bind({ id }).all(rows);
  return rows[0] ?? null;
}

module.exports = {
  PROMISE_DAYS,
  TERM_DAYS: catalog.proxy_term_days,
  ORDER_COLUMNS,
  orderRows,
  ageDays,
  withinPromise,
  heldProxies,
  blockingRenewal,
  orderView,
  findOrder,
  ordersWithRefundability,
};
