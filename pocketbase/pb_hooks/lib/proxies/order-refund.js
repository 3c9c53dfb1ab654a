// @ts-check
// Refunding a proxy order, by an admin in the console, behind the admin's Idempotency-Key:
// what comes back and what happens to the proxies follow the rules in lib/proxies/refunds.js.

/** @type {typeof import("../core/sql.js")} */
const sql = require(`${__hooks}/lib/core/sql.js`);
/** @type {typeof import("./refunds.js")} */
const rules = require(`${__hooks}/lib/proxies/refunds.js`);

/**
 * POST /api/admin/orders/{id}/refund  {reason: 3-500 chars, allow_late?: boolean}  Idempotency-Key
 * -> {order, transaction (the REFUND row), balance_cents (right after it), released
 *    (proxies back in stock), shortened (proxies whose renewal was taken back)}
 *
 * 404 unknown order; 409 already refunded ("This order was already refunded on ..."), older
 * than the promise (7 days) without allow_late, or a purchase a later renewal extended; same
 * key + same request -> the first answer again with header `Idempotent-Replayed: true`; same
 * key, other request -> 422. After the commit (not on a replay) the customer gets a refund
 * notice (lib/proxies/mails.js refundNotice). Audit proxy_orders.refund {user_id, order_number, kind,
 * amount_cents, reason, within_promise, transaction_id, balance_after_cents,
 * proxies_released, proxies_shortened}.
 * @param {core.RequestEvent} e
 */
function refund(e) {
  /** @type {typeof import("../core/admin.js")} */
  const admin = require(`${__hooks}/lib/core/admin.js`);
  /** @type {typeof import("../core/api.js")} */
  const api = require(`${__hooks}/lib/core/api.js`);
  /** @type {typeof import("../core/idempotency.js")} */
  const idempotency = require(`${__hooks}/lib/core/idempotency.js`);
  const caller = admin.requireAdminWrite(e);
  const input = validateRefund(api.jsonBody(e));
  const key = api.idempotencyKey(e);
  const orderId = e.request?.pathValue("id") ?? "";
  const { earlier, result } = idempotency.once(
    e.app,
    {
      userId: caller.id,
      key,
      route: `POST /api/admin/orders/${orderId}/refund`,
      input: [input.reason, input.allowLate],
      collection: "proxy_orders",
      kind: "refunds",
    },
    (txApp, keyed) => refundOrder(txApp, { adminId: caller.id, orderId, ...input }, keyed),
  );
  // The customer's notice after the commit, never for a replay.
  if (!earlier && result) require(`${__hooks}/lib/proxies/mails.js`).refundNotice(e.app, result);
  e.response.header().set("Idempotent-Replayed", String(!!earlier));
  return e.json(200, refundView(e.app, earlier ?? result ?? ""));
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
 * Refunds an order (see the rules in lib/proxies/refunds.js), with its audit row, inside the
 * caller's transaction; the order keeps the admin's key. Answers the order's id.
 * @param {CoreApp} txApp
 * @param {{ adminId: string, orderId: string, reason: string, allowLate: boolean }} request
 * @param {{ key: string, hash: string }} keyed
 */
function refundOrder(txApp, request, keyed) {
  /** @type {typeof import("../money/ledger.js")} */
  const ledger = require(`${__hooks}/lib/money/ledger.js`);
  /** @type {typeof import("./proxies.js")} */
  const proxies = require(`${__hooks}/lib/proxies/proxies.js`);
  /** @type {typeof import("../core/audit.js")} */
  const audit = require(`${__hooks}/lib/core/audit.js`);
  const order = rules.findOrder(txApp, request.orderId);
  if (!order) throw new NotFoundError("No order with this id.");
  if (order.status === "refunded") {
    throw new ApiError(
      409,
      `This order was already refunded on ${require(`${__hooks}/lib/core/views.js`).dayText(order.refunded_at)}: an order is refunded once.`,
      {
        order: new ValidationError("already_refunded", "Already refunded"),
      },
    );
  }
  const within = rules.withinPromise(order.created);
  if (!within && !request.allowLate) {
    throw new ApiError(
      409,
      `This order is ${rules.ageDays(order.created)} days old, past the ${rules.PROMISE_DAYS}-day money-back promise. Confirm a late refund to refund it anyway.`,
      { allow_late: new ValidationError("outside_promise", `Outside the ${rules.PROMISE_DAYS}-day money-back promise`) },
    );
  }
  const held = rules.heldProxies(txApp, order);
  if (order.kind === "purchase") {
    const renewal = rules.blockingRenewal(
      txApp,
      order,
      held.map((p) => p.id),
    );
    if (renewal) {
      throw new ApiError(
        409,
        `Renewal order ${proxies.orderNumber(renewal.id)} extended proxies of this order: refund that renewal first, then this order.`,
        { order: new ValidationError("renewed_later", "Renewed later") },
      );
    }
  }

  const entry = ledger.applyLedgerEntry(txApp, {
    userId: order.user_id,
    type: "REFUND",
    amountCents: order.total_cents,
    description: `Refund of order ${proxies.orderNumber(order.id)} (${proxies.proxiesLabel(order.quantity, order.proxy_type || undefined)} ${order.kind === "renewal" ? "renewal" : "purchase"})`,
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
      const expires = from.addDate(0, 0, -rules.TERM_DAYS);
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
    .bind({ id: order.id, now: now.string(), reason: request.reason, admin: request.adminId, key: keyed.key, hash: keyed.hash })
    .execute();

  audit.writeAuditLog(txApp, {
    adminId: request.adminId,
    action: "proxy_orders.refund",
    targetType: "proxy_orders",
    targetId: order.id,
    details: {
      user_id: order.user_id,
      order_number: proxies.orderNumber(order.id),
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
  return order.id;
}

/**
 * What the route answers, first time and replay alike: the order, its REFUND ledger row,
 * the balance right after it, and how many proxies it released or shortened (from its audit
 * row).
 * @param {CoreApp} app
 * @param {string} orderId
 */
function refundView(app, orderId) {
  const order = rules.findOrder(app, orderId);
  if (!order) throw new NotFoundError("No order with this id.");
  /** @type {typeof import("../money/ledger.js")} */
  const ledger = require(`${__hooks}/lib/money/ledger.js`);
  const transaction = ledger.entryByReference(app, order.user_id, `refund:${order.id}`);
  return {
    order: rules.orderView(order),
    transaction,
    balance_cents: transaction ? transaction.getInt("balance_after_cents") : 0,
    ...refundCounts(app, orderId),
  };
}

/**
 * How many proxies the refund of an order released and shortened (from its audit row).
 * @param {CoreApp} app
 * @param {string} orderId
 */
function refundCounts(app, orderId) {
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

module.exports = { refund };
