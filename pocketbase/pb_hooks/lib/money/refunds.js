// @ts-check
// Refunds of proxy orders (the 7-day money-back promise), made by an admin in the console.
//
// Rules:
// - The whole order total comes back as one REFUND ledger row (reference "refund:<order
//   id>", unique per user, so an order is refunded at most once), the order becomes
//   `refunded` with refunded_at, who refunded it, why, and the admin's Idempotency-Key.
// - A purchase: its proxies that the customer still holds (ASSIGNED or EXPIRED, still
//   assigned to them) go back to stock with a new password (lib/proxies/proxies.js returnToStock);
//   a proxy someone else holds now is never touched.
// - A renewal: the 30 days it bought are taken back off each of its proxies the customer
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

/** The money-back promise, in days. */
const PROMISE_DAYS = 7;
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
 * The short order number customers see (first 8 characters of its id, upper case).
 * @param {string} id
 */
function orderNumber(id) {
  return id.slice(0, 8).toUpperCase();
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
    return { refundable: false, within_promise: within, reason: `Refunded on ${order.refunded_at.slice(0, 10)}.` };
  }
  if (order.kind === "purchase") {
    const held = heldProxies(app, order).map((p) => p.id);
    const renewal = blockingRenewal(app, order, held);
    if (renewal) {
      return {
        refundable: false,
        within_promise: within,
        reason: `Renewal order ${orderNumber(renewal.id)} extended these proxies: refund it first.`,
      };
    }
  }
  if (within) {
    const left = Math.max(0, PROMISE_DAYS - ageDays(order.created));
    return {
      refundable: true,
      within_promise: true,
      reason: `Within the 7-day money-back promise (${left === 0 ? "last day" : `${left} ${left === 1 ? "day" : "days"} left`}).`,
    };
  }
  return {
    refundable: true,
    within_promise: false,
    reason: `Older than 7 days (${ageDays(order.created)} days): outside the money-back promise, can still be refunded as a goodwill gesture.`,
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
    number: orderNumber(order.id),
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

/**
 * Checks a refund body: {reason: 3-500 characters, allow_late?: boolean}.
 * @param {Record<string, unknown>} body
 * @returns {{ reason: string, allowLate: boolean }}
 */
function validateRefund(body) {
  /** @type {typeof import("../core/api.js")} */
  const api = require(`${__hooks}/lib/core/api.js`);
  const reason = api.text(body["reason"]);
  if (!reason) throw api.fieldError("reason", "A reason for the refund is required.", "validation_required");
  if (reason.length < 3) throw api.fieldError("reason", "The reason must be at least 3 characters.", "validation_min_length");
  if (reason.length > 500) throw api.fieldError("reason", "The reason must be at most 500 characters.", "validation_max_length");
  const late = body["allow_late"];
  if (late !== undefined && late !== null && typeof late !== "boolean") {
    throw api.fieldError("allow_late", "Late refund confirmation (allow_late) must be true or false.");
  }
  return { reason, allowLate: late === true };
}

/**
 * The answer of a refund (also rebuilt for a replay).
 * @param {CoreApp} app
 * @param {string} orderId
 * @param {number} released
 * @param {number} shortened
 */
function refundView(app, orderId, released, shortened) {
  const order = findOrder(app, orderId);
  if (!order) throw new NotFoundError("No order with this id.");
  const rows = sql.rowsLike({
    id: "",
    user_id: "",
    type: "",
    amount_cents: 0,
    balance_after_cents: 0,
    description: "",
    reference: "",
    created: "",
  });
  app
    .db()
    .newQuery(
      `SELECT id, user_id, type, amount_cents, balance_after_cents, description, reference, created FROM transactions
       WHERE user_id = {:user} AND reference = {:reference} LIMIT 1`,
    )
    .bind({ user: order.user_id, reference: `refund:${order.id}` })
    .all(rows);
  const transaction = rows[0];
  return {
    order: orderView(order),
    transaction: transaction ? { ...transaction, collectionName: "transactions" } : null,
    balance_cents: transaction ? transaction.balance_after_cents : 0,
    released,
    shortened,
  };
}

/**
 * What the first refund of an order reported (from its audit row), for a replay.
 * @param {CoreApp} app
 * @param {string} orderId
 */
function earlierCounts(app, orderId) {
  const rows = sql.rowsLike({ details: "" });
  app
    .db()
    .newQuery("SELECT details FROM audit_logs WHERE action = 'proxy_orders.refund' AND target_id = {:id} LIMIT 1")
    .bind({ id: orderId })
    .all(rows);
  try {
    const details = JSON.parse(rows[0]?.details || "{}");
    return { released: (details.proxies_released ?? []).length, shortened: (details.proxies_shortened ?? []).length };
  } catch (_) {
    return { released: 0, shortened: 0 };
  }
}

/**
 * Refunds an order (see the rules at the top), with its audit row, in one transaction.
 * @param {CoreApp} app
 * @param {{ adminId: string, orderId: string, reason: string, allowLate: boolean, key: string }} request
 * @returns {{ replayed: boolean, view: ReturnType<typeof refundView> }}
 */
function refund(app, request) {
  /** @type {typeof import("./ledger.js")} */
  const ledger = require(`${__hooks}/lib/money/ledger.js`);
  /** @type {typeof import("../proxies/proxies.js")} */
  const proxies = require(`${__hooks}/lib/proxies/proxies.js`);
  /** @type {typeof import("../audit/audit.js")} */
  const audit = require(`${__hooks}/lib/audit/audit.js`);
  const hash = $security.sha256(`POST /api/admin/orders/${request.orderId}/refund\n${JSON.stringify([request.reason, request.allowLate])}`);

  /** @type {{ replayed: boolean, released: number, shortened: number } | null} */
  let outcome = null;
  app.runInTransaction((txApp) => {
    // The admin's key used before: for this very request it is a replay, otherwise a 422.
    const used = orderRows();
    txApp
      .db()
      .newQuery(
        `SELECT ${ORDER_COLUMNS} FROM proxy_orders WHERE refunded_by = {:admin} AND refund_idempotency_key = {:key} AND refund_idempotency_key != '' LIMIT 1`,
      )
      .bind({ admin: request.adminId, key: request.key })
      .all(used);
    const earlier = used[0];
    if (earlier) {
      if (earlier.id !== request.orderId || earlier.refund_request_hash !== hash) {
        throw new ApiError(
          422,
          "This Idempotency-Key was already used for a different request. Use a new key for a new refund; reuse a key only to retry the same one.",
          { idempotency_key: new ValidationError("idempotency_key_reused", "Key already used for a different request") },
        );
      }
      outcome = { replayed: true, ...earlierCounts(txApp, earlier.id) };
      return;
    }

    const order = findOrder(txApp, request.orderId);
    if (!order) throw new NotFoundError("No order with this id.");
    if (order.status === "refunded") {
      throw new ApiError(409, `This order was already refunded on ${order.refunded_at.slice(0, 10)}: an order is refunded once.`, {
        order: new ValidationError("already_refunded", "Already refunded"),
      });
    }
    const within = withinPromise(order.created);
    if (!within && !request.allowLate) {
      throw new ApiError(
        409,
        `This order is ${ageDays(order.created)} days old, past the 7-day money-back promise. Confirm a late refund to refund it anyway.`,
        { allow_late: new ValidationError("outside_promise", "Outside the 7-day money-back promise") },
      );
    }
    const held = heldProxies(txApp, order);
    if (order.kind === "purchase") {
      const renewal = blockingRenewal(
        txApp,
        order,
        held.map((p) => p.id),
      );
      if (renewal) {
        throw new ApiError(
          409,
          `Renewal order ${orderNumber(renewal.id)} extended proxies of this order: refund that renewal first, then this order.`,
          { order: new ValidationError("renewed_later", "Renewed later") },
        );
      }
    }

    const entry = ledger.applyLedgerEntry(txApp, {
      userId: order.user_id,
      type: "REFUND",
      amountCents: order.total_cents,
      description: `Refund of order ${orderNumber(order.id)} (${proxies.proxiesLabel(order.quantity, order.proxy_type || undefined)} ${order.kind === "renewal" ? "renewal" : "purchase"})`,
      reference: `refund:${order.id}`,
    });

    const now = new DateTime();
    /** @type {string[]} */
    let released = [];
    /** @type {string[]} */
    const shortened = [];
    if (order.kind === "purchase") {
      // Only proxies still theirs (checked above, in this transaction) go back to stock.
      const assigned = held.filter((p) => p.status === "ASSIGNED").map((p) => p.id);
      const expired = held.filter((p) => p.status === "EXPIRED").map((p) => p.id);
      proxies.returnToStock(txApp, assigned, "ASSIGNED");
      proxies.returnToStock(txApp, expired, "EXPIRED");
      released = assigned.concat(expired);
    } else {
      for (const proxy of held) {
        const from = proxy.expires_at ? new DateTime(proxy.expires_at) : now;
        const expires = from.addDate(0, 0, -proxies.TERM_DAYS);
        const status = expires.after(now) ? proxy.status : "EXPIRED";
        txApp
          .db()
          .newQuery(
            `UPDATE proxies SET expires_at = {:expires}, status = {:status}, auto_renew = FALSE, updated = {:now}
             WHERE id = {:id} AND assigned_to_user_id = {:user}`,
          )
          .bind({ id: proxy.id, user: order.user_id, expires: expires.string(), status, now: now.string() })
          .execute();
        shortened.push(proxy.id);
      }
    }

    txApp
      .db()
      .newQuery(
        `UPDATE proxy_orders SET status = 'refunded', refunded_at = {:now}, refund_reason = {:reason}, refunded_by = {:admin},
         refund_idempotency_key = {:key}, refund_request_hash = {:hash}, updated = {:now} WHERE id = {:id} AND status = 'completed'`,
      )
      .bind({ id: order.id, now: now.string(), reason: request.reason, admin: request.adminId, key: request.key, hash })
      .execute();

    audit.writeAuditLog(txApp, {
      adminId: request.adminId,
      action: "proxy_orders.refund",
      targetType: "proxy_orders",
      targetId: order.id,
      details: {
        user_id: order.user_id,
        order_number: orderNumber(order.id),
        kind: order.kind,
        amount_cents: order.total_cents,
        reason: request.reason,
        within_promise: within,
        transaction_id: entry.transaction.id,
        balance_after_cents: entry.balanceCents,
        proxies_released: released,
        proxies_shortened: shortened,
      },
    });
    outcome = { replayed: false, released: released.length, shortened: shortened.length };
  });
  const done = /** @type {{ replayed: boolean, released: number, shortened: number } | null} */ (outcome);
  if (!done) throw new Error("refund did not run");
  return { replayed: done.replayed, view: refundView(app, request.orderId, done.released, done.shortened) };
}

module.exports = { PROMISE_DAYS, ordersWithRefundability, validateRefund, refund };
