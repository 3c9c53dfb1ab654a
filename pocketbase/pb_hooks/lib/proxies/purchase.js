// @ts-check
// Buying proxies: POST /api/v1/proxies/purchase. The price is the server's (its plan's
// bandwidth quota and connection cap go onto the proxies bought), stock and balance are checked, and the proxies, the ledger row and the order change together in
// one transaction (plain SQL for the inventory rows: no hooks or realtime needed for them),
// so a purchase either happens whole or not at all.

/** @type {typeof import("../core/api.js")} */
const api = require(`${__hooks}/lib/core/api.js`);
/** @type {typeof import("../core/sql.js")} */
const sql = require(`${__hooks}/lib/core/sql.js`);
/** @type {typeof import("./proxies.js")} */
const proxies = require(`${__hooks}/lib/proxies/proxies.js`);
/** @type {typeof import("./prices.js")} */
const prices = require(`${__hooks}/lib/proxies/prices.js`);
/** @type {typeof import("./orders.js")} */
const orders = require(`${__hooks}/lib/proxies/orders.js`);

/**
 * @typedef {{ type: string, country: string, state: string, city: string, quantity: number }} PurchaseInput
 */

/**
 * The purchase body. The request validation (pocketbase/devapi) held it to the document
 * (a known type, a country, lengths of at most 100, a whole quantity of at least 1); what
 * the document does not state stays here: a country of spaces is none, a city needs its
 * state, and a purchase buys at most MAX_QUANTITY proxies. Every broken rule is reported under its field in one 400.
 * @param {Record<string, unknown>} body
 * @returns {PurchaseInput}
 */
function validatePurchase(body) {
  const input = {
    type: api.text(body["type"]).toUpperCase(),
    country: api.text(body["country"]),
    state: api.text(body["state"]),
    city: api.text(body["city"]),
    quantity: api.wholeNumber(body["quantity"]),
  };
  /** @type {[string, string, string][]} */
  const problems = [];
  if (!input.country) problems.push(["country", "validation_required", "Country is required"]);
  if (input.city && !input.state) problems.push(["state", "validation_required", "Choose a state before a city"]);
  if (input.quantity > proxies.MAX_QUANTITY) problems.push(["quantity", "validation_max_number", proxies.MAX_QUANTITY_MESSAGE]);
  proxies.throwProblems(problems);
  return input;
}

/** @param {{ country: string, state: string, city: string }} where */
function placeLabel(where) {
  return [where.country, where.state, where.city].filter(Boolean).join(" / ");
}

/**
 * Refuses (400, on the country) a value that is no ISO 3166-1 country (nor an alias, "UK")
 * and no place any proxy was ever stocked in (an import without a country is "Unknown"),
 * instead of answering "Not enough stock" for a place that cannot exist.
 * @param {CoreApp} txApp
 * @param {PurchaseInput} input
 */
function checkCountry(txApp, input) {
  /** @type {typeof import("./places.js")} */
  const places = require(`${__hooks}/lib/proxies/places.js`);
  if (places.isoCountries()[places.normalizeCountry(input.country)]) return;
  if (txApp.countRecords("proxies", $dbx.hashExp({ country: input.country })) > 0) return;
  const message = `Unknown country ${input.country.slice(0, 20)}`;
  throw new BadRequestError(message, { country: new ValidationError("validation_invalid_country", message) });
}

/**
 * Buys `input.quantity` proxies for the user, inside the caller's transaction: prices on
 * the server, checks stock and balance, assigns the proxies for a term, writes one
 * PROXY_PURCHASE ledger row and the order (with its Idempotency-Key), and queues the
 * purchase.completed webhooks. Throws (changing nothing) when stock or balance is short.
 * @param {CoreApp} txApp
 * @param {string} userId
 * @param {PurchaseInput} input
 * @param {import("./orders.js").Idempotency | null} idempotency
 */
function purchase(txApp, userId, input, idempotency) {
  checkCountry(txApp, input);
  const unit = prices.unitPriceCents(txApp, input.type);
  if (!unit) {
    throw new BadRequestError(`${proxies.typeLabel(input.type)} proxies are not for sale right now.`, {
      type: new ValidationError("not_for_sale", "Not for sale right now"),
    });
  }
  let query = `SELECT ${proxies.PROXY_COLUMNS} FROM proxies WHERE status = 'AVAILABLE' AND type = {:type} AND country = {:country}`;
  if (input.state) query += " AND state = {:state}";
  if (input.city) query += " AND city = {:city}";
  const bought = proxies.proxyRows();
  txApp
    .db()
    .newQuery(`${query} LIMIT {:limit}`)
    .bind({ type: input.type, country: input.country, state: input.state, city: input.city, limit: input.quantity })
    .all(bought);
  if (bought.length < input.quantity) {
    const have = bought.length === 0 ? "no" : `only ${bought.length}`;
    const message = `Not enough stock: ${have} ${proxies.typeLabel(input.type)} proxies available in ${placeLabel(input)}; you asked for ${input.quantity}. Choose fewer proxies or another location.`;
    throw new ApiError(409, message, { quantity: new ValidationError("insufficient_stock", message) });
  }
  proxies.openPasswords(bought);

  const total = unit * input.quantity;
  const orderId = sql.newId();
  const what = proxies.proxiesLabel(input.quantity, input.type);
  const { transactionId, balanceCents } = orders.chargeOrder(txApp, userId, {
    orderId,
    cents: total,
    description: `Purchased ${what} in ${placeLabel(input)} for ${proxies.TERM_DAYS} days`,
    what: `${what} cost`,
    field: "quantity",
    apiKey: idempotency?.apiKey,
  });

  const now = new DateTime().string();
  const expires = new DateTime().addDate(0, 0, proxies.TERM_DAYS).string();
  // The plan's limits go onto the proxies (issue #16; renewals keep what a proxy has). Sold
  // at the built-in price (no plan), a proxy keeps the limits an admin gave it. A purchase
  // begins a term of ownership (term_started_at; renewals keep it): the quota counts the new
  // owner's bytes from here (#26 finding 12, lib/proxies/usage.js).
  const limits = prices.planLimits(txApp, input.type);
  const setLimits = limits ? ", bandwidth_quota_bytes = {:quota}, max_connections = {:maxConnections}" : "";
  const list = sql.inList(
    "id",
    bought.map((p) => p.id),
  );
  txApp
    .db()
    .newQuery(
      // `+status` keeps SQLite on the primary key: with statistics it would otherwise walk the
      // whole AVAILABLE range of the status index.
      `UPDATE proxies SET status = 'ASSIGNED', assigned_to_user_id = {:userId}, expires_at = {:expires}, auto_renew = FALSE, expiry_notice_sent_at = '', quota_notice_month = '', quota_notice_level = 0, term_started_at = {:now}${setLimits}, updated = {:now} WHERE ${list.sql} AND +status = 'AVAILABLE'`,
    )
    .bind({ ...list.params, userId, expires, now, quota: limits?.quota_bytes ?? 0, maxConnections: limits?.max_connections ?? 0 })
    .execute();
  for (const proxy of bought) {
    Object.assign(proxy, {
      status: "ASSIGNED",
      assigned_to_user_id: userId,
      expires_at: expires,
      auto_renew: false,
      expiry_notice_sent_at: "",
      updated: now,
    });
  }

  const view = orders.saveOrder(
    txApp,
    {
      id: orderId,
      user_id: userId,
      kind: "purchase",
      proxy_type: input.type,
      country: input.country,
      state: input.state,
      city: input.city,
      quantity: input.quantity,
      total_cents: total,
      items: bought.map((p) => ({ id: p.id, unit_price_cents: unit })),
      transaction_id: transactionId,
      created: now,
    },
    bought,
    balanceCents,
    idempotency,
  );
  // The customer's purchase.completed webhooks, committed with the purchase (never on a replay).
  require(`${__hooks}/lib/webhooks/events.js`).purchaseCompleted(txApp, userId, view);
  return view;
}

/**
 * POST /api/v1/proxies/purchase  {type, country, state?, city?, quantity}  Idempotency-Key
 * -> {order, proxies, balance_cents}. A verified customer, not a demo account in demo mode;
 * a retry with the same key and body answers the same order again.
 * @param {core.RequestEvent} e
 */
function purchaseRoute(e) {
  let made = /** @type {{ userId: string, view: ReturnType<typeof purchase> } | null} */ (null);
  const answer = orders.answerOnce(e, "POST /api/v1/proxies/purchase", validatePurchase, (txApp, userId, input, idempotency) => {
    const view = purchase(txApp, userId, input, idempotency);
    made = { userId, view };
    return view;
  });
  // The receipt after the commit (answerOnce returned), never for an Idempotency-Key replay.
  if (made) require(`${__hooks}/lib/proxies/mails.js`).proxyReceipt(e.app, made.userId, made.view);
  return answer;
}

module.exports = { validatePurchase, purchase, purchaseRoute };
