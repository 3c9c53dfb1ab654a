// @ts-check
// Buying and keeping proxies: prices, stock, purchases, renewals, credentials and the
// expiry job. Every money move goes through lib/money/ledger.js inside the caller's transaction;
// the inventory rows move with plain SQL in that same transaction (no hooks or realtime
// needed for them), so a purchase either happens whole or not at all.

/** @type {typeof import("../core/api.js")} */
const api = require(`${__hooks}/lib/core/api.js`);
/** @type {typeof import("../money/ledger.js")} */
const ledger = require(`${__hooks}/lib/money/ledger.js`);
/** @type {typeof import("../core/sql.js")} */
const sql = require(`${__hooks}/lib/core/sql.js`);
/** @type {typeof import("./credentials.js")} */
const credentials = require(`${__hooks}/lib/proxies/credentials.js`);

const PROXY_TYPES = ["RESIDENTIAL", "DATACENTER", "SOCKS5", "HTTP", "HTTPS"];

/** Prices when no active plan of the type exists (spec section 3). */
const FALLBACK_PRICE_CENTS = /** @type {Record<string, number>} */ ({ RESIDENTIAL: 200, DATACENTER: 100 });

const MAX_QUANTITY = 100;
/** Days a purchase or a renewal buys. */
const TERM_DAYS = 30;
/** Expired proxies stay with their owner (renewable) this long, then go back to stock. */
const GRACE_DAYS = 7;
/** Reminder mails go out this many days before expiry. */
const REMINDER_DAYS = 3;

const PASSWORD_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789";

/** A new proxy password: 20 characters from a cryptographic source. */
function newPassword() {
  return $security.randomStringWithAlphabet(20, PASSWORD_ALPHABET);
}

/** @param {string} type */
function typeLabel(type) {
  return type.charAt(0) + type.slice(1).toLowerCase();
}

/**
 * "5 Residential proxies", "1 Datacenter proxy".
 * @param {number} n
 * @param {string} [type]
 */
function proxiesLabel(n, type) {
  return `${n} ${type ? `${typeLabel(type)} ` : ""}${n === 1 ? "proxy" : "proxies"}`;
}

/** @param {{ country: string, state: string, city: string }} where */
function placeLabel(where) {
  return [where.country, where.state, where.city].filter(Boolean).join(" / ");
}

/**
 * The short order number customers see: the first 8 characters of its id, upper case.
 * @param {string} id
 */
function orderNumber(id) {
  return id.slice(0, 8).toUpperCase();
}

/** Where the price list is cached in the app store, with the version it was read under. */
const PRICE_CACHE_KEY = "shop.unit_prices";
/** A new random value after every committed plan change (pricing-plans.pb.js, bumpPriceVersion). */
const PRICE_VERSION_KEY = "shop.unit_prices.version";

/**
 * Marks every cached price list as old: called after a plan change has committed.
 * @param {CoreApp} app
 */
function bumpPriceVersion(app) {
  app.store().set(PRICE_VERSION_KEY, $security.randomString(16));
}

/**
 * The current unit price of every type that is for sale: the cheapest active plan of the
 * type, else the built-in price. Cached in the app store, so the purchase hot path does not
 * read the plans every time. The cache is kept under the plans' version as it was BEFORE
 * the plans were read: a read that races a plan change stores its list under the old
 * version, which the change has already replaced, so the list is never served.
 * @param {CoreApp} app
 * @returns {Record<string, number>}
 */
function priceList(app) {
  const version = String(app.store().get(PRICE_VERSION_KEY) ?? "");
  const cached = app.store().get(PRICE_CACHE_KEY);
  if (typeof cached === "string") {
    const entry = JSON.parse(cached);
    if (entry.version === version) return entry.prices;
  }
  const rows = sql.rowsLike({ type: "", price: 0 });
  app
    .db()
    .newQuery("SELECT type, MIN(price_cents) AS price FROM pricing_plans WHERE active = TRUE AND price_cents > 0 GROUP BY type")
    .all(rows);
  /** @type {Record<string, number>} */
  const prices = {};
  for (const type of PROXY_TYPES) {
    const plan = rows.find((r) => r.type === type);
    const price = plan ? plan.price : (FALLBACK_PRICE_CENTS[type] ?? 0);
    if (price > 0) prices[type] = price;
  }
  app.store().set(PRICE_CACHE_KEY, JSON.stringify({ version, prices }));
  return prices;
}

/**
 * The price of one proxy of `type` for 30 days; 0 when the type is not for sale.
 * @param {CoreApp} app
 * @param {string} type
 */
function unitPriceCents(app, type) {
  return priceList(app)[type] ?? 0;
}

/**
 * @typedef {{ type: string, country: string, state: string, city: string, quantity: number }} PurchaseInput
 */

/**
 * Checks a purchase body like the Buy Proxies form (spec section 5); every broken rule is
 * reported under its field in one 400.
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
  /** @type {[string, string, string][]} field, code, message */
  const problems = [];
  if (PROXY_TYPES.indexOf(input.type) < 0) {
    problems.push(["type", "validation_invalid_type", `Proxy type must be one of ${PROXY_TYPES.join(", ")}`]);
  }
  if (!input.country) problems.push(["country", "validation_required", "Country is required"]);
  for (const field of /** @type {const} */ (["country", "state", "city"])) {
    if (input[field].length > 100) problems.push([field, "validation_max_length", `${field} must be at most 100 characters`]);
  }
  if (input.city && !input.state) problems.push(["state", "validation_required", "Choose a state before a city"]);
  if (Number.isNaN(input.quantity)) {
    problems.push(["quantity", "validation_invalid_number", "Quantity must be a whole number"]);
  } else if (input.quantity < 1) {
    problems.push(["quantity", "validation_min_number", "Quantity must be at least 1"]);
  } else if (input.quantity > MAX_QUANTITY) {
    problems.push(["quantity", "validation_max_number", "Maximum 100 proxies per purchase"]);
  }
  if (problems.length > 0) {
    /** @type {Record<string, ValidationError>} */
    const errors = {};
    for (const [field, code, message] of problems) errors[field] ??= new ValidationError(code, message);
    throw new BadRequestError(problems[0]?.[2] ?? "", errors);
  }
  return input;
}

/**
 * The proxy columns the routes answer with (a proxy as its owner sees it). `password` is
 * still sealed when read: openPasswords() turns it into plaintext before it is answered.
 */
const PROXY_COLUMNS =
  "id, host, port, username, password_encrypted AS password, type, country, state, city, status, assigned_to_user_id, expires_at, auto_renew, expiry_notice_sent_at, created, updated";

/** A typed empty list for `.all()` with PROXY_COLUMNS. */
function proxyRows() {
  return sql.rowsLike({
    id: "",
    host: "",
    port: 0,
    username: "",
    password: "",
    type: "",
    country: "",
    state: "",
    city: "",
    status: "",
    assigned_to_user_id: "",
    expires_at: "",
    auto_renew: false,
    expiry_notice_sent_at: "",
    created: "",
    updated: "",
  });
}

/** @typedef {ReturnType<typeof proxyRows>[number]} ProxyRow */

/**
 * Replaces the sealed password of each row read with PROXY_COLUMNS by its plaintext.
 * @template {ProxyRow[]} T
 * @param {T} rows
 * @returns {T}
 */
function openPasswords(rows) {
  for (const row of rows) row.password = credentials.openPassword(row.password);
  return rows;
}

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
 * @typedef {object} OrderView  what the purchase and renewal routes answer
 * @property {OrderRow & { collectionName: string }} order
 * @property {(ProxyRow & { collectionName: string })[]} proxies
 * @property {number} balance_cents  the balance right after the order
 */

/**
 * @param {OrderRow} order
 * @param {ProxyRow[]} proxies  in the order's item order
 * @param {number} balanceCents
 * @returns {OrderView}
 */
function orderView(order, proxies, balanceCents) {
  return {
    order: { ...order, collectionName: "proxy_orders" },
    proxies: proxies.map((p) => ({ ...p, collectionName: "proxies" })),
    balance_cents: balanceCents,
  };
}

/**
 * Writes a completed order with its Idempotency-Key. By SQL, like the ledger row: every
 * value comes from the code here, and a record save costs several times more on the
 * purchase hot path.
 * @param {CoreApp} txApp
 * @param {OrderRow} order
 * @param {{ key: string, hash: string } | null} idempotency
 */
function insertOrder(txApp, order, idempotency) {
  txApp
    .db()
    .newQuery(
      `INSERT INTO proxy_orders (id, user_id, kind, proxy_type, country, state, city, quantity, total_cents, items, transaction_id, status, refunded_at, idempotency_key, request_hash, created, updated)
       VALUES ({:id}, {:user_id}, {:kind}, {:proxy_type}, {:country}, {:state}, {:city}, {:quantity}, {:total_cents}, {:items}, {:transaction_id}, {:status}, '', {:idempotency_key}, {:request_hash}, {:created}, {:updated})`,
    )
    .bind({ ...order, items: JSON.stringify(order.items), idempotency_key: idempotency?.key ?? "", request_hash: idempotency?.hash ?? "" })
    .execute();
}

/**
 * A refusal naming the shortfall, for the ledger to throw when the balance does not cover `what`.
 * @param {string} what  e.g. "5 Residential proxies cost"
 * @param {number} cents
 * @param {string} field
 * @returns {(balanceCents: number) => unknown}
 */
function shortOfBalance(what, cents, field) {
  return (balance) => {
    const message = `Insufficient balance: ${what} ${ledger.formatUsd(cents)} and your balance is ${ledger.formatUsd(balance)}. Add ${ledger.formatUsd(cents - balance)} in credits and try again.`;
    return new BadRequestError(message, { [field]: new ValidationError("insufficient_balance", message) });
  };
}

/**
 * Buys `input.quantity` proxies for the user, inside the caller's transaction: prices on
 * the server, checks stock and balance, assigns the proxies for 30 days, writes one
 * PROXY_PURCHASE ledger row and the order (with its Idempotency-Key). Throws (changing
 * nothing) when stock or balance is short.
 * @param {CoreApp} txApp
 * @param {string} userId
 * @param {PurchaseInput} input
 * @param {{ key: string, hash: string } | null} idempotency
 * @returns {OrderView}
 */
function purchase(txApp, userId, input, idempotency) {
  const unit = unitPriceCents(txApp, input.type);
  if (!unit) {
    throw new BadRequestError(`${typeLabel(input.type)} proxies are not for sale right now.`, {
      type: new ValidationError("not_for_sale", "Not for sale right now"),
    });
  }
  let query = `SELECT ${PROXY_COLUMNS} FROM proxies WHERE status = 'AVAILABLE' AND type = {:type} AND country = {:country}`;
  if (input.state) query += " AND state = {:state}";
  if (input.city) query += " AND city = {:city}";
  const proxies = proxyRows();
  txApp
    .db()
    .newQuery(`${query} LIMIT {:limit}`)
    .bind({ type: input.type, country: input.country, state: input.state, city: input.city, limit: input.quantity })
    .all(proxies);
  if (proxies.length < input.quantity) {
    const have = proxies.length === 0 ? "no" : `only ${proxies.length}`;
    const message = `Not enough stock: ${have} ${typeLabel(input.type)} proxies available in ${placeLabel(input)}; you asked for ${input.quantity}. Choose fewer proxies or another location.`;
    throw new ApiError(409, message, { quantity: new ValidationError("insufficient_stock", message) });
  }
  openPasswords(proxies);

  const total = unit * input.quantity;
  const orderId = sql.newId();
  const { transaction, balanceCents } = ledger.applyLedgerEntry(
    txApp,
    {
      userId,
      type: "PROXY_PURCHASE",
      amountCents: -total,
      description: `Purchased ${proxiesLabel(input.quantity, input.type)} in ${placeLabel(input)} for ${TERM_DAYS} days (order ${orderNumber(orderId)})`,
      reference: `order:${orderId}`,
    },
    shortOfBalance(`${proxiesLabel(input.quantity, input.type)} cost`, total, "quantity"),
  );
  // The locked part of a welcome credit stays until a first Stripe payment (finding 10).
  require(`${__hooks}/lib/accounts/welcome-credit.js`).assertWelcomeCreditRule(txApp, userId, balanceCents, "quantity");

  const now = new DateTime().string();
  const expires = new DateTime().addDate(0, 0, TERM_DAYS).string();
  const list = sql.inList(
    "id",
    proxies.map((p) => p.id),
  );
  txApp
    .db()
    .newQuery(
      // `+status` keeps SQLite on the primary key: with statistics it would otherwise walk the
      // whole AVAILABLE range of the status index.
      `UPDATE proxies SET status = 'ASSIGNED', assigned_to_user_id = {:userId}, expires_at = {:expires}, auto_renew = FALSE, expiry_notice_sent_at = '', updated = {:now} WHERE ${list.sql} AND +status = 'AVAILABLE'`,
    )
    .bind({ ...list.params, userId, expires, now })
    .execute();
  for (const proxy of proxies) {
    Object.assign(proxy, {
      status: "ASSIGNED",
      assigned_to_user_id: userId,
      expires_at: expires,
      auto_renew: false,
      expiry_notice_sent_at: "",
      updated: now,
    });
  }

  /** @type {OrderRow} */
  const order = {
    id: orderId,
    user_id: userId,
    kind: "purchase",
    proxy_type: input.type,
    country: input.country,
    state: input.state,
    city: input.city,
    quantity: input.quantity,
    total_cents: total,
    items: proxies.map((p) => ({ id: p.id, unit_price_cents: unit })),
    transaction_id: transaction.id,
    status: "completed",
    refunded_at: "",
    idempotency_key: idempotency?.key ?? "",
    created: now,
    updated: now,
  };
  insertOrder(txApp, order, idempotency);
  return orderView(order, proxies, balanceCents);
}

/**
 * Checks a renewal body: {proxy_ids: 1-100 distinct ids}.
 * @param {Record<string, unknown>} body
 * @returns {string[]}
 */
function validateRenewal(body) {
  const raw = body["proxy_ids"];
  const ids = Array.isArray(raw) ? raw.filter((id) => typeof id === "string" && /^[a-z0-9]{1,30}$/.test(id)) : [];
  if (!Array.isArray(raw) || ids.length !== raw.length || ids.length === 0) {
    throw new BadRequestError("proxy_ids must list the ids of the proxies to renew.", {
      proxy_ids: new ValidationError("validation_required", "Choose at least one proxy to renew"),
    });
  }
  if (ids.length > MAX_QUANTITY) {
    throw new BadRequestError("At most 100 proxies can be renewed at once.", {
      proxy_ids: new ValidationError("validation_max_items", "At most 100 proxies at once"),
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
 * @returns {ProxyRow[]}  in the order of `ids`
 */
function renewableProxies(txApp, userId, ids) {
  const list = sql.inList("id", ids);
  const rows = proxyRows();
  txApp.db().newQuery(`SELECT ${PROXY_COLUMNS} FROM proxies WHERE ${list.sql}`).bind(list.params).all(rows);
  const renewable = ids.map((id) => {
    const row = rows.find((r) => r.id === id);
    if (!row || row.assigned_to_user_id !== userId || (row.status !== "ASSIGNED" && row.status !== "EXPIRED")) {
      throw new NotFoundError(`Proxy ${id} is not one of your proxies that can be renewed.`, {
        proxy_ids: new ValidationError("not_renewable", "Not one of your renewable proxies"),
      });
    }
    return row;
  });
  return openPasswords(renewable);
}

/**
 * Renews the user's proxies `ids` for another 30 days at today's prices, inside the
 * caller's transaction: one PROXY_PURCHASE ledger row, one renewal order. Each proxy's
 * new expiry is 30 days after its current expiry, or after now if it has passed.
 * @param {CoreApp} txApp
 * @param {string} userId
 * @param {string[]} ids  distinct, sorted
 * @param {{ how?: "automatic", idempotency?: { key: string, hash: string } }} [options]
 * @returns {OrderView}
 */
function renew(txApp, userId, ids, options = {}) {
  const proxies = renewableProxies(txApp, userId, ids);
  /** @type {Record<string, number>} */
  const prices = {};
  for (const proxy of proxies) {
    prices[proxy.type] ??= unitPriceCents(txApp, proxy.type);
    if (!prices[proxy.type]) {
      throw new BadRequestError(`${typeLabel(proxy.type)} proxies are not for sale right now, so they cannot be renewed.`);
    }
  }
  const total = proxies.reduce((sum, p) => sum + (prices[p.type] ?? 0), 0);

  const orderId = sql.newId();
  const { transaction, balanceCents } = ledger.applyLedgerEntry(
    txApp,
    {
      userId,
      type: "PROXY_PURCHASE",
      amountCents: -total,
      description: `${options.how === "automatic" ? "Automatic renewal of" : "Renewed"} ${proxiesLabel(proxies.length)} for ${TERM_DAYS} days (order ${orderNumber(orderId)})`,
      reference: `order:${orderId}`,
    },
    shortOfBalance(`renewing ${proxiesLabel(proxies.length)} costs`, total, "proxy_ids"),
  );
  // The locked part of a welcome credit stays until a first Stripe payment (finding 10).
  require(`${__hooks}/lib/accounts/welcome-credit.js`).assertWelcomeCreditRule(txApp, userId, balanceCents, "proxy_ids");

  const now = new DateTime();
  for (const proxy of proxies) {
    const current = proxy.expires_at ? new DateTime(proxy.expires_at) : now;
    const expires = (current.after(now) ? current : now).addDate(0, 0, TERM_DAYS).string();
    txApp
      .db()
      .newQuery(
        "UPDATE proxies SET status = 'ASSIGNED', expires_at = {:expires}, expiry_notice_sent_at = '', updated = {:now} WHERE id = {:id} AND +assigned_to_user_id = {:userId}",
      )
      .bind({ id: proxy.id, userId, expires, now: now.string() })
      .execute();
    Object.assign(proxy, { status: "ASSIGNED", expires_at: expires, expiry_notice_sent_at: "", updated: now.string() });
  }

  const types = Object.keys(prices);
  /** @type {OrderRow} */
  const order = {
    id: orderId,
    user_id: userId,
    kind: "renewal",
    proxy_type: types.length === 1 ? (types[0] ?? "") : "",
    country: "",
    state: "",
    city: "",
    quantity: proxies.length,
    total_cents: total,
    items: proxies.map((p) => ({ id: p.id, unit_price_cents: prices[p.type] ?? 0 })),
    transaction_id: transaction.id,
    status: "completed",
    refunded_at: "",
    idempotency_key: options.idempotency?.key ?? "",
    created: now.string(),
    updated: now.string(),
  };
  insertOrder(txApp, order, options.idempotency ?? null);
  return orderView(order, proxies, balanceCents);
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
  const rows = proxyRows();
  app
    .db()
    .newQuery(
      `SELECT ${PROXY_COLUMNS} FROM proxies WHERE ${list.sql} AND assigned_to_user_id = {:userId} AND status IN ('ASSIGNED', 'EXPIRED')`,
    )
    .bind({ ...list.params, userId })
    .all(rows);
  rows.sort((a, b) => ids.indexOf(a.id) - ids.indexOf(b.id));
  openPasswords(rows);
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

/**
 * The user's proxy `id`, or a 404 (another customer's proxy looks exactly like a missing one).
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
 * Issues a new random password for the user's active proxy and returns the proxy.
 * @param {CoreApp} app
 * @param {string} userId
 * @param {string} id
 */
function regenerateCredentials(app, userId, id) {
  const proxy = ownProxy(app, userId, id);
  if (proxy.getString("status") !== "ASSIGNED") {
    throw new BadRequestError("Only active proxies get new credentials; renew this proxy first.");
  }
  const password = newPassword();
  proxy.set("password_encrypted", credentials.sealPassword(password));
  app.save(proxy);
  proxy.withCustomData(true);
  proxy.set("password", password);
  return proxy;
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
  return credentials.withPassword(proxy);
}

/**
 * What is in stock for `type`: one row per place with its count, and the unit price.
 * @param {CoreApp} app
 * @param {string} type
 */
function stock(app, type) {
  const rows = sql.rowsLike({ country: "", state: "", city: "", available: 0 });
  app
    .db()
    .newQuery(
      "SELECT country, state, city, COUNT(*) AS available FROM proxies WHERE status = 'AVAILABLE' AND type = {:type} GROUP BY country, state, city ORDER BY country, state, city",
    )
    .bind({ type })
    .all(rows);
  return {
    type,
    unit_price_cents: unitPriceCents(app, type),
    locations: rows.map((r) => ({ country: r.country, state: r.state, city: r.city, available: r.available })),
  };
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
 * Puts proxies back in stock: AVAILABLE, no owner, no expiry, and a new password each, so
 * their last owner's credentials stop working. Only those still in `fromStatus` change
 * (a proxy renewed or bought meanwhile is left alone). Returns how many changed.
 * @param {CoreApp} txApp  inside the caller's transaction
 * @param {string[]} ids
 * @param {"EXPIRED" | "ASSIGNED"} fromStatus
 * @returns {number}
 */
function returnToStock(txApp, ids, fromStatus) {
  const now = new DateTime().string();
  let changed = 0;
  for (const id of ids) {
    changed += txApp
      .db()
      .newQuery(
        `UPDATE proxies SET status = 'AVAILABLE', assigned_to_user_id = '', password_encrypted = {:password}, expires_at = '',
         auto_renew = FALSE, expiry_notice_sent_at = '', updated = {:now} WHERE id = {:id} AND +status = {:from}`,
      )
      .bind({ id, password: credentials.sealPassword(newPassword()), now, from: fromStatus })
      .execute()
      .rowsAffected();
  }
  return changed;
}

module.exports = {
  returnToStock,
  PROXY_TYPES,
  TERM_DAYS,
  GRACE_DAYS,
  REMINDER_DAYS,
  newPassword,
  proxiesLabel,
  typeLabel,
  priceList,
  bumpPriceVersion,
  validatePurchase,
  purchase,
  validateRenewal,
  renew,
  regenerateCredentials,
  setAutoRenew,
  stock,
  ownCountries,
  savedOrderView,
};
