// @ts-check
// Renewing proxies for another term: POST /api/v1/proxies/renew, and the expiry job's
// automatic renewals. One PROXY_PURCHASE ledger row and one renewal order per call, at
// today's prices, in the caller's transaction.

/** @type {typeof import("../core/sql.js")} */
const sql = require(`${__hooks}/lib/core/sql.js`);
/** @type {typeof import("./proxies.js")} */
const proxies = require(`${__hooks}/lib/proxies/proxies.js`);
/** @type {typeof import("./prices.js")} */
const prices = require(`${__hooks}/lib/proxies/prices.js`);
/** @type {typeof import("./orders.js")} */
const orders = require(`${__hooks}/lib/proxies/orders.js`);

/**
 * Checks a renewal body: {proxy_ids: 1-100 distinct ids}.
 * @param {Record<string, unknown>} body
 * @returns {string[]}  distinct, sorted
 */
function validateRenewal(body) {
  const raw = body["proxy_ids"];
  const ids = Array.isArray(raw) ? raw.filter((id) => typeof id === "string" && /^[a-z0-9]{1,30}$/.test(id)) : [];
  if (!Array.isArray(raw) || ids.length !== raw.length || ids.length === 0) {
    throw new BadRequestError("proxy_ids must list the ids of the proxies to renew.", {
      proxy_ids: new ValidationError("validation_required", "Choose at least one proxy to renew"),
    });
  }
  if (ids.length > proxies.MAX_QUANTITY) {
    throw new BadRequestError(`At most ${proxies.MAX_QUANTITY} proxies can be renewed at once.`, {
      proxy_ids: new ValidationError("validation_max_items", `At most ${proxies.MAX_QUANTITY} proxies at once`),
    });
  }
  return ids.filter((id, i) => ids.indexOf(id) === i).sort();
}

/**
 * The user's proxies among `ids` that can be renewed (assigned or expired, still theirs).
 * Throws 404 naming the first id that is not one of them.
 * @param {CoreApp} txApp
 * @param {string} userId
 * @param {string[]} ids
 * @returns {import("./proxies.js").ProxyRow[]}  in the order of `ids`
 */
function renewableProxies(txApp, userId, ids) {
  const list = sql.inList("id", ids);
  const rows = proxies.proxyRows();
  txApp.db().newQuery(`SELECT ${proxies.PROXY_COLUMNS} FROM proxies WHERE ${list.sql}`).bind(list.params).all(rows);
  const renewable = ids.map((id) => {
    const row = rows.find((r) => r.id === id);
    if (!row || row.assigned_to_user_id !== userId || (row.status !== "ASSIGNED" && row.status !== "EXPIRED")) {
      throw new NotFoundError(`Proxy ${id} is not one of your proxies that can be renewed.`, {
        proxy_ids: new ValidationError("not_renewable", "Not one of your renewable proxies"),
      });
    }
    return row;
  });
  return proxies.openPasswords(renewable);
}

/**
 * Renews the user's proxies `ids` for another term at today's prices, inside the caller's
 * transaction: one PROXY_PURCHASE ledger row, one renewal order. Each proxy's new expiry
 * is a term after its current expiry, or after now if it has passed.
 * @param {CoreApp} txApp
 * @param {string} userId
 * @param {string[]} ids  distinct, sorted
 * @param {{ how?: "automatic", idempotency?: import("./orders.js").Idempotency }} [options]
 */
function renew(txApp, userId, ids, options = {}) {
  const renewed = renewableProxies(txApp, userId, ids);
  /** @type {Record<string, number>} */
  const unit = {};
  for (const proxy of renewed) {
    unit[proxy.type] ??= prices.unitPriceCents(txApp, proxy.type);
    if (!unit[proxy.type]) {
      throw new BadRequestError(`${proxies.typeLabel(proxy.type)} proxies are not for sale right now, so they cannot be renewed.`);
    }
  }
  const total = renewed.reduce((sum, p) => sum + (unit[p.type] ?? 0), 0);

  const orderId = sql.newId();
  const what = proxies.proxiesLabel(renewed.length);
  const { transactionId, balanceCents } = orders.chargeOrder(txApp, userId, {
    orderId,
    cents: total,
    description: `${options.how === "automatic" ? "Automatic renewal of" : "Renewed"} ${what} for ${proxies.TERM_DAYS} days`,
    what: `renewing ${what} costs`,
    field: "proxy_ids",
    apiKey: options.idempotency?.apiKey,
  });

  const now = new DateTime();
  for (const proxy of renewed) {
    const current = proxy.expires_at ? new DateTime(proxy.expires_at) : now;
    const expires = (current.after(now) ? current : now).addDate(0, 0, proxies.TERM_DAYS).string();
    txApp
      .db()
      .newQuery(
        "UPDATE proxies SET status = 'ASSIGNED', expires_at = {:expires}, expiry_notice_sent_at = '', updated = {:now} WHERE id = {:id} AND +assigned_to_user_id = {:userId}",
      )
      .bind({ id: proxy.id, userId, expires, now: now.string() })
      .execute();
    Object.assign(proxy, { status: "ASSIGNED", expires_at: expires, expiry_notice_sent_at: "", updated: now.string() });
  }

  const types = Object.keys(unit);
  const view = orders.saveOrder(
    txApp,
    {
      id: orderId,
      user_id: userId,
      kind: "renewal",
      proxy_type: types.length === 1 ? (types[0] ?? "") : "",
      country: "",
      state: "",
      city: "",
      quantity: renewed.length,
      total_cents: total,
      items: renewed.map((p) => ({ id: p.id, unit_price_cents: unit[p.type] ?? 0 })),
      transaction_id: transactionId,
      created: now.string(),
    },
    renewed,
    balanceCents,
    options.idempotency,
  );
  // The route's renewals are logged by orders.answerOnce (with the request); the job's here.
  if (options.how === "automatic") orders.recordOrderActivity(txApp, null, userId, view, null);
  return view;
}

/**
 * POST /api/v1/proxies/renew  {proxy_ids: [...]}  Idempotency-Key -> {order, proxies,
 * balance_cents}. A verified customer, not a demo account in demo mode; a retry with the
 * same key and body answers the same order again.
 * @param {core.RequestEvent} e
 */
function renewRoute(e) {
  return orders.answerOnce(e, "POST /api/v1/proxies/renew", validateRenewal, (txApp, userId, ids, keyed) =>
    renew(txApp, userId, ids, { idempotency: keyed }),
  );
}

module.exports = { validateRenewal, renew, renewRoute };
