// @ts-check
// The developer API's reads of a customer's own things: the account, proxies, ledger and
// orders (the filters their dashboard pages have, cursor paging: lib/core/paging.js), and
// the catalog (places in stock with prices, the price list). Each answers the contract's
// shape (src/lib/api-contract/).

/** @type {typeof import("../core/api.js")} */
const api = require(`${__hooks}/lib/core/api.js`);
/** @type {typeof import("../core/sql.js")} */
const sql = require(`${__hooks}/lib/core/sql.js`);
/** @type {typeof import("../core/paging.js")} */
const paging = require(`${__hooks}/lib/core/paging.js`);
/** @type {typeof import("../core/views.js")} */
const views = require(`${__hooks}/lib/core/views.js`);
/** @type {typeof import("../proxies/proxies.js")} */
const proxies = require(`${__hooks}/lib/proxies/proxies.js`);

const PROXY_STATUSES = ["ASSIGNED", "EXPIRED"];
const TRANSACTION_TYPES = ["CREDIT", "DEBIT", "PROXY_PURCHASE", "REFUND"];

/**
 * GET /api/v1/account -> {id, email, verified, balance_cents, limits, api_key}.
 * @param {core.RequestEvent} e
 */
function accountRoute(e) {
  const user = api.customer(e);
  const key = api.requestApiKey(e);
  /** @type {typeof import("./api-keys.js")} */
  const keys = require(`${__hooks}/lib/api/api-keys.js`);
  let apiKey = null;
  if (key) {
    const record = e.app.findRecordById("api_keys", key.id);
    const view = keys.keyView(e.app, record);
    apiKey = {
      id: view.id,
      name: view.name,
      scopes: view.scopes,
      spend_cap_cents: view.spend_cap_cents,
      spent_this_month_cents: view.spent_this_month_cents,
      expires_at: view.expires_at,
    };
  }
  const balance = new DynamicModel({ cents: 0 });
  try {
    e.app.db().newQuery("SELECT balance_cents AS cents FROM balances WHERE user_id = {:user}").bind({ user: user.id }).one(balance);
  } catch (_) {
    balance.cents = 0; // no balance row yet: nothing was ever credited
  }
  return e.json(200, {
    id: user.id,
    email: user.email(),
    verified: user.getBool("verified"),
    balance_cents: balance.cents,
    limits: {
      max_purchase_quantity: proxies.MAX_QUANTITY,
      api_requests_per_minute: Number(e.get("api_key_rate_limit") ?? 0),
      ip_allowlist_max_entries: require(`${__hooks}/lib/accounts/ip-allowlist.js`).MAX_ENTRIES,
    },
    api_key: apiKey,
  });
}

/**
 * GET /api/v1/proxies?type&country&status&search&cursor&limit -> {items: [Proxy], next_cursor}.
 * @param {core.RequestEvent} e
 */
function proxiesRoute(e) {
  const user = api.customer(e);
  const type = api.queryChoice(e, "type", proxies.PROXY_TYPES);
  const status = api.queryChoice(e, "status", PROXY_STATUSES);
  const country = api.queryParam(e, "country").toUpperCase();
  if (country && !/^[A-Z]{2}$/.test(country)) throw api.fieldError("country", "country must be a two-letter ISO 3166-1 code, e.g. DE.");
  const search = api.queryParam(e, "search");
  if (api.chars(search) > 100) throw api.fieldError("search", "search must be at most 100 characters.");
  const { limit, after } = paging.pageParams(e);
  let where = "assigned_to_user_id = {:user} AND status IN ('ASSIGNED', 'EXPIRED')";
  if (type) where += " AND type = {:type}";
  if (status) where += " AND status = {:status}";
  if (country) where += " AND country = {:country}";
  if (search)
    where +=
      " AND (id LIKE {:search} ESCAPE '\\' OR host LIKE {:search} ESCAPE '\\' OR username LIKE {:search} ESCAPE '\\' OR state LIKE {:search} ESCAPE '\\' OR city LIKE {:search} ESCAPE '\\')";
  const rows = proxies.proxyRows();
  e.app
    .db()
    .newQuery(
      `SELECT ${proxies.PROXY_COLUMNS} FROM proxies WHERE ${where}${paging.afterSql(after)} ORDER BY created DESC, id DESC LIMIT {:limit}`,
    )
    .bind({
      user: user.id,
      type,
      status,
      country,
      search: sql.containsPattern(search),
      limit: limit + 1,
      afterCreated: after?.created ?? "",
      afterId: after?.id ?? "",
    })
    .all(rows);
  return e.json(200, paging.pageOf(proxies.openPasswords(rows), limit, views.proxyView));
}

/**
 * GET /api/v1/proxies/{id} -> Proxy: one of the caller's proxies (404 for any other).
 * @param {core.RequestEvent} e
 */
function proxyRoute(e) {
  const user = api.customer(e);
  const id = e.request?.pathValue("id") ?? "";
  const rows = proxies.proxyRows();
  e.app
    .db()
    .newQuery(
      `SELECT ${proxies.PROXY_COLUMNS} FROM proxies WHERE id = {:id} AND assigned_to_user_id = {:user} AND status IN ('ASSIGNED', 'EXPIRED')`,
    )
    .bind({ id, user: user.id })
    .all(rows);
  const row = rows[0];
  if (!row) throw new NotFoundError("No proxy with this id is assigned to you.");
  return e.json(200, views.proxyView(proxies.openPasswords([row])[0] ?? row));
}

/**
 * A date-time query parameter as stored ("" when absent); 400 naming it otherwise.
 * @param {core.RequestEvent} e
 * @param {string} name
 */
function moment(e, name) {
  const text = api.queryParam(e, name);
  if (!text) return "";
  const ms = api.parseMoment(text);
  if (Number.isNaN(ms))
    throw api.fieldError(name, `${name} must be an ISO 8601 date or date and time, e.g. 2026-11-01 or 2026-11-01T00:00:00Z.`);
  return new DateTime(new Date(ms).toISOString()).string();
}

/**
 * GET /api/v1/transactions?type&from&to&cursor&limit -> {items: [Transaction], next_cursor}.
 * @param {core.RequestEvent} e
 */
function transactionsRoute(e) {
  const user = api.customer(e);
  const type = api.queryChoice(e, "type", TRANSACTION_TYPES);
  const from = moment(e, "from");
  const to = moment(e, "to");
  const { limit, after } = paging.pageParams(e);
  let where = "user_id = {:user}";
  if (type) where += " AND type = {:type}";
  if (from) where += " AND created >= {:from}";
  if (to) where += " AND created < {:to}";
  const rows = sql.rowsLike({ id: "", type: "", amount_cents: 0, balance_after_cents: 0, description: "", created: "" });
  e.app
    .db()
    .newQuery(
      `SELECT id, type, amount_cents, balance_after_cents, description, created FROM transactions WHERE ${where}${paging.afterSql(after)} ORDER BY created DESC, id DESC LIMIT {:limit}`,
    )
    .bind({ user: user.id, type, from, to, limit: limit + 1, afterCreated: after?.created ?? "", afterId: after?.id ?? "" })
    .all(rows);
  return e.json(
    200,
    paging.pageOf(rows, limit, (r) => ({ ...r, created: /** @type {string} */ (views.iso(r.created)) })),
  );
}

/**
 * GET /api/v1/orders?kind&cursor&limit -> {items: [Order], next_cursor}.
 * @param {core.RequestEvent} e
 */
function ordersRoute(e) {
  const user = api.customer(e);
  const kind = api.queryChoice(e, "kind", ["purchase", "renewal"]);
  const { limit, after } = paging.pageParams(e);
  // proxy_orders rows (lib/proxies/refunds.js orderRows); the columns the API answers are read.
  const rows = require(`${__hooks}/lib/proxies/refunds.js`).orderRows();
  e.app
    .db()
    .newQuery(
      `SELECT id, kind, proxy_type, country, state, city, quantity, total_cents, CAST(items AS TEXT) AS items, transaction_id, status, refunded_at, created FROM proxy_orders
       WHERE user_id = {:user}${kind ? " AND kind = {:kind}" : ""}${paging.afterSql(after)} ORDER BY created DESC, id DESC LIMIT {:limit}`,
    )
    .bind({ user: user.id, kind, limit: limit + 1, afterCreated: after?.created ?? "", afterId: after?.id ?? "" })
    .all(rows);
  return e.json(200, paging.pageOf(rows, limit, views.orderView));
}

/**
 * GET /api/v1/locations?type -> {items: [{type, country, country_name, state, city, available,
 * unit_price_cents}]}: the places with proxies in stock, of the types for sale.
 * @param {core.RequestEvent} e
 */
function locationsRoute(e) {
  api.customer(e);
  const only = api.queryChoice(e, "type", proxies.PROXY_TYPES);
  /** @type {typeof import("../proxies/prices.js")} */
  const prices = require(`${__hooks}/lib/proxies/prices.js`);
  const items = [];
  for (const type of only ? [only] : proxies.PROXY_TYPES) {
    const stock = prices.stock(e.app, type);
    if (!stock.for_sale) continue;
    for (const place of stock.locations) items.push({ type, ...place, unit_price_cents: stock.unit_price_cents });
  }
  return e.json(200, { items });
}

/**
 * GET /api/v1/pricing -> {term_days, items: [{type, for_sale, unit_price_cents,
 * bandwidth_quota_gb, max_connections}]}: every type, for sale or not.
 * @param {core.RequestEvent} e
 */
function pricingRoute(e) {
  api.customer(e);
  /** @type {typeof import("../proxies/prices.js")} */
  const prices = require(`${__hooks}/lib/proxies/prices.js`);
  const list = prices.priceList(e.app);
  const GB = require(`${__hooks}/lib/proxies/usage.js`).GB;
  const items = proxies.PROXY_TYPES.map((type) => {
    const unit = list[type] ?? 0;
    const limits = unit ? prices.planLimits(e.app, type) : null;
    return {
      type,
      for_sale: unit > 0,
      unit_price_cents: unit,
      bandwidth_quota_gb: limits ? Math.round(limits.quota_bytes / GB) : 0,
      max_connections: limits ? limits.max_connections : 0,
    };
  });
  return e.json(200, { term_days: proxies.TERM_DAYS, items });
}

module.exports = { accountRoute, proxiesRoute, proxyRoute, transactionsRoute, ordersRoute, locationsRoute, pricingRoute };
