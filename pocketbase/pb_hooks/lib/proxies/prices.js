// @ts-check
// What a proxy costs and what is in stock: the pricing plans' rules (every save: records
// API, hooks and the dashboard), the cached price list purchases and renewals are priced
// from, and the customer routes GET /api/v1/proxies/prices and /stock.

/** @type {typeof import("../core/api.js")} */
const api = require(`${__hooks}/lib/core/api.js`);
/** @type {typeof import("../core/sql.js")} */
const sql = require(`${__hooks}/lib/core/sql.js`);
/** @type {typeof import("./proxies.js")} */
const proxies = require(`${__hooks}/lib/proxies/proxies.js`);

/** Where the price list is cached in the app store, with the version it was read under. */
const PRICE_CACHE_KEY = "shop.unit_prices";
/** A new random value after every committed plan change (planChanged). */
const PRICE_VERSION_KEY = "shop.unit_prices.version";
/** The most a plan may cost per proxy, and the message saying so (catalog.json, once). */
const PLAN_LIMIT = require(`${__hooks}/lib/catalog.json`).pricing_plan;

/** A plan's limits: field, largest value, message (the console's plan form says the same). */
const PLAN_LIMITS = /** @type {const} */ ([
  ["bandwidth_quota_gb", 1000000, "Bandwidth quota must be a whole number of GB from 0 to 1,000,000 (0 = unlimited)"],
  ["max_connections", 100000, "Max concurrent connections must be a whole number from 0 to 100,000 (0 = unlimited)"],
]);

/**
 * The refusal of feature texts naming a placeholder the contract does not know ("{typo}";
 * the known ones, "{session_max_hours}", are filled where plans are shown), or null.
 * @param {string[]} features
 */
function unknownPlaceholders(features) {
  /** @type {string[]} */
  const known = require(`${__hooks}/lib/core/facts.js`).facts().plan_placeholders;
  const named = features.flatMap((f) => [...f.matchAll(/\{([a-z_]+)\}/g)].map((m) => m[1] ?? ""));
  if (named.every((name) => known.includes(name))) return null;
  return `Unknown placeholder: use ${known.map((name) => `{${name}}`).join(", ")}, or plain text`;
}

/**
 * onRecordValidate of pricing_plans: a plan always has a name, a price of at least one cent
 * and at most catalog.json's pricing_plan.max_price_cents ($10,000.00), and at least one
 * feature (the console's form rules, spec 5); `features` is a list of non-empty texts (the
 * public pages map over it); bandwidth_quota_gb (0-1,000,000) and max_connections
 * (0-100,000) are whole numbers, 0 = unlimited. Names and features are stored trimmed; a
 * feature may name only the contract's placeholders.
 * @param {core.RecordEvent} e
 */
function validatePlan(e) {
  const record = e.record;
  if (!record) return e.next();
  /** @type {[string, string, string][]} field, code, message */
  const problems = [];

  const name = record.getString("name").trim();
  record.set("name", name);
  if (!name) problems.push(["name", "validation_required", "Name is required"]);

  const price = record.getFloat("price_cents");
  if (!(price >= 1)) problems.push(["price_cents", "validation_min_number_constraint", "Price must be greater than 0"]);
  else if (!Number.isSafeInteger(price)) {
    problems.push(["price_cents", "validation_only_int_constraint", "Price must be a whole number of cents"]);
  } else if (price > PLAN_LIMIT.max_price_cents) {
    problems.push(["price_cents", "validation_max_number_constraint", PLAN_LIMIT.max_price_message]);
  }

  const raw = record.getString("features");
  /** @type {unknown} */
  let features = [];
  try {
    features = raw === "" || raw === "null" ? [] : JSON.parse(raw);
  } catch (_) {
    features = null;
  }
  if (!Array.isArray(features) || features.some((f) => typeof f !== "string" || f.trim() === "")) {
    problems.push(["features", "validation_invalid_features", "Features must be a list of non-empty texts."]);
  } else if (features.length === 0) {
    problems.push(["features", "validation_required", "Features are required"]);
  } else {
    record.set(
      "features",
      features.map((f) => String(f).trim()),
    );
    const unknown = unknownPlaceholders(features.map(String));
    if (unknown) problems.push(["features", "validation_unknown_placeholder", unknown]);
  }

  // The limits a purchase copies onto the proxies it assigns (issue #16); 0 = unlimited.
  for (const [field, max, message] of PLAN_LIMITS) {
    const value = record.getFloat(field);
    if (!(Number.isSafeInteger(value) && value >= 0 && value <= max)) problems.push([field, "validation_invalid_number", message]);
  }

  if (problems.length > 0) {
    /** @type {Record<string, ValidationError>} */
    const errors = {};
    for (const [field, code, message] of problems) errors[field] = new ValidationError(code, message);
    throw new BadRequestError(problems.length === 1 ? (problems[0]?.[2] ?? "") : "Please check the highlighted fields.", errors);
  }
  e.next();
}

/**
 * After a plan change has committed: every cached price list is old, so no list read
 * before it is served again.
 * @param {core.RecordEvent} e
 */
function planChanged(e) {
  e.app.store().set(PRICE_VERSION_KEY, $security.randomString(16));
  e.next();
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
  for (const type of proxies.PROXY_TYPES) {
    const plan = rows.find((r) => r.type === type);
    const price = plan ? plan.price : (proxies.FALLBACK_PRICE_CENTS[type] ?? 0);
    if (price > 0) prices[type] = price;
  }
  app.store().set(PRICE_CACHE_KEY, JSON.stringify({ version, prices }));
  return prices;
}

/**
 * The price of one proxy of `type` for a term; 0 when the type is not for sale.
 * @param {CoreApp} app
 * @param {string} type
 */
function unitPriceCents(app, type) {
  return priceList(app)[type] ?? 0;
}

/**
 * The limits of the plan a purchase of `type` is priced from (the cheapest active plan of
 * the type, as priceList picks it; the oldest on a tie): {quota_bytes (GB -> bytes, 2^30),
 * max_connections}, or null when the type sells at its built-in price (no plan).
 * @param {CoreApp} app
 * @param {string} type
 * @returns {{ quota_bytes: number, max_connections: number } | null}
 */
function planLimits(app, type) {
  const rows = sql.rowsLike({ gb: 0, max_connections: 0 });
  app
    .db()
    .newQuery(
      `SELECT bandwidth_quota_gb AS gb, max_connections FROM pricing_plans WHERE active = TRUE AND price_cents > 0 AND type = {:type}
       ORDER BY price_cents, created, id LIMIT 1`,
    )
    .bind({ type })
    .all(rows);
  const plan = rows[0];
  if (!plan) return null;
  return { quota_bytes: plan.gb * require(`${__hooks}/lib/proxies/usage.js`).GB, max_connections: plan.max_connections };
}

/**
 * What is in stock for `type`: one row per place with its count and the country's name,
 * the unit price, and whether the type is for sale (an active plan or a built-in price;
 * a type for sale without stock has no places).
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
  /** @type {typeof import("./places.js")} */
  const places = require(`${__hooks}/lib/proxies/places.js`);
  const unit = unitPriceCents(app, type);
  return {
    type,
    for_sale: unit > 0,
    unit_price_cents: unit,
    locations: rows.map((r) => ({
      country: r.country,
      country_name: places.countryName(r.country),
      state: r.state,
      city: r.city,
      available: r.available,
    })),
  };
}

/**
 * GET /api/v1/proxies/prices -> {RESIDENTIAL: 200, ...}: the unit price for a term of each
 * type for sale. Customers only.
 * @param {core.RequestEvent} e
 */
function pricesRoute(e) {
  api.customer(e);
  return e.json(200, priceList(e.app));
}

/**
 * GET /api/v1/proxies/stock?type=SOCKS5 -> {type, for_sale, unit_price_cents, locations:
 * [{country, country_name, state, city, available}]}: any of the five types. Customers only.
 * @param {core.RequestEvent} e
 */
function stockRoute(e) {
  api.customer(e);
  const type = String(e.request?.url?.query().get("type") ?? "").toUpperCase();
  if (proxies.PROXY_TYPES.indexOf(type) < 0) throw api.fieldError("type", `type must be one of ${proxies.PROXY_TYPES.join(", ")}.`);
  return e.json(200, stock(e.app, type));
}

module.exports = { validatePlan, planChanged, priceList, unitPriceCents, planLimits, stock, pricesRoute, stockRoute };
