// @ts-check
// The proxy inventory as Proxy Management shows it (the spec's get_admin_proxies): the
// list with its search and filters, the stats and one proxy with its password, by SQL.
// Shop admins only: anonymous 401, customers 403. Never a password in the list.

/** @type {typeof import("../core/admin.js")} */
const admin = require(`${__hooks}/lib/core/admin.js`);
/** @type {typeof import("../core/api.js")} */
const api = require(`${__hooks}/lib/core/api.js`);
/** @type {typeof import("../core/sql.js")} */
const sql = require(`${__hooks}/lib/core/sql.js`);
/** @type {typeof import("../core/sealing.js")} */
const sealing = require(`${__hooks}/lib/core/sealing.js`);
/** @type {typeof import("./proxies.js")} */
const proxies = require(`${__hooks}/lib/proxies/proxies.js`);

const STATUSES = ["AVAILABLE", "ASSIGNED", "EXPIRED", "MAINTENANCE"];
const PROXY_ID = /^[a-z0-9]{1,30}$/;

/**
 * The admin list's columns: never a password. Where the proxy exits (issue #16): exit
 * ("direct" for ""), bind_address, the upstream's host, port and username, whether an
 * upstream password is stored (upstream_has_password, never the password), and the
 * gateway's last failure to reach the upstream. Its limits (issue #16): bandwidth_quota_bytes a
 * UTC month and max_connections at once (0 = none).
 */
const LIST_COLUMNS = `p.id, p.host, p.port, p.username, p.type, p.country, p.state, p.city, p.status, p.assigned_to_user_id,
  COALESCE(u.email, '') AS owner_email, p.expires_at, p.auto_renew, p.created, p.updated,
  CASE WHEN p.exit = 'upstream' THEN 'upstream' ELSE 'direct' END AS exit, p.bind_address, p.upstream_host, p.upstream_port,
  p.upstream_username, p.upstream_password_encrypted != '' AS upstream_has_password, p.upstream_failed_at, p.upstream_error,
  p.bandwidth_quota_bytes, p.max_connections, p.withdrawn_at, p.exit_down_at`;

function listShape() {
  return {
    ...proxies.proxyShape(),
    owner_email: "",
    exit: "",
    bind_address: "",
    upstream_host: "",
    upstream_port: 0,
    upstream_username: "",
    upstream_has_password: false,
    upstream_failed_at: "",
    upstream_error: "",
    bandwidth_quota_bytes: 0,
    max_connections: 0,
    withdrawn_at: "",
    exit_down_at: "",
  };
}

/**
 * @typedef {object} ListFilters
 * @property {string} search  matches host, username, upstream host, city, state and the owner's e-mail
 * @property {string} type
 * @property {string} country
 * @property {string} status
 * @property {boolean} failing  only proxies whose upstream the gateway marked failing (issue #28)
 */

/**
 * Reads and checks the list filters from the query string.
 * @param {core.RequestEvent} e
 * @returns {ListFilters}
 */
function listFilters(e) {
  const query = e.request?.url?.query();
  const get = (/** @type {string} */ name) => String(query?.get(name) ?? "").trim();
  const filters = {
    search: get("search").slice(0, 200),
    type: get("type").toUpperCase(),
    country: get("country"),
    status: get("status").toUpperCase(),
    failing: get("failing") === "true",
  };
  if (filters.type && proxies.PROXY_TYPES.indexOf(filters.type) < 0) {
    throw api.fieldError("type", `type must be one of ${proxies.PROXY_TYPES.join(", ")}`);
  }
  if (filters.status && STATUSES.indexOf(filters.status) < 0) {
    throw api.fieldError("status", `status must be one of ${STATUSES.join(", ")}`);
  }
  return filters;
}

/**
 * The WHERE clause of the list and its count, with its parameters.
 * @param {ListFilters} f
 */
function whereOf(f) {
  /** @type {string[]} */
  const parts = [];
  /** @type {Record<string, string>} */
  const params = {};
  for (const column of /** @type {const} */ (["type", "country", "status"])) {
    if (!f[column]) continue;
    parts.push(`p.${column} = {:${column}}`);
    params[column] = f[column];
  }
  if (f.failing) parts.push("p.upstream_failed_at != ''");
  if (f.search) {
    params["q"] = sql.containsPattern(f.search);
    parts.push(
      `(p.host LIKE {:q} ESCAPE '\\' OR p.username LIKE {:q} ESCAPE '\\' OR p.upstream_host LIKE {:q} ESCAPE '\\' OR p.city LIKE {:q} ESCAPE '\\' OR p.state LIKE {:q} ESCAPE '\\'
        OR (p.assigned_to_user_id != '' AND p.assigned_to_user_id IN (SELECT id FROM users WHERE email LIKE {:q} ESCAPE '\\')))`,
    );
  }
  return { sql: parts.length ? `WHERE ${parts.join(" AND ")}` : "", params };
}

/**
 * One page of the inventory, newest first, without passwords. Ties (a generated or imported
 * batch shares one created time) are broken by rowid, which every created index already
 * carries, so SQLite walks an index instead of sorting a whole batch.
 * @param {CoreApp} app
 * @param {ListFilters} filters
 * @param {{ page: number, perPage: number, offset: number }} paging
 */
function list(app, filters, paging) {
  const where = whereOf(filters);
  const count = new DynamicModel({ n: 0 });
  app.db().newQuery(`SELECT COUNT(*) AS n FROM proxies p ${where.sql}`).bind(where.params).one(count);
  const rows = sql.rowsLike(listShape());
  if (count.n > paging.offset) {
    app
      .db()
      .newQuery(
        `SELECT ${LIST_COLUMNS} FROM proxies p LEFT JOIN users u ON u.id = p.assigned_to_user_id ${where.sql}
         ORDER BY p.created DESC, p.rowid DESC LIMIT {:limit} OFFSET {:offset}`,
      )
      .bind({ ...where.params, limit: paging.perPage, offset: paging.offset })
      .all(rows);
  }
  return admin.listPage(rows, count.n, paging);
}

/**
 * Counts by status, type and country in one pass over the inventory index.
 * @param {CoreApp} app
 */
function stats(app) {
  const rows = sql.rowsLike({ status: "", type: "", country: "", n: 0 });
  app.db().newQuery("SELECT status, type, country, COUNT(*) AS n FROM proxies GROUP BY status, type, country").all(rows);
  const out = {
    total: 0,
    available: 0,
    assigned: 0,
    expired: 0,
    maintenance: 0,
    /** @type {Record<string, number>} */
    by_type: {},
    /** @type {Record<string, number>} */
    by_country: {},
  };
  for (const type of proxies.PROXY_TYPES) out.by_type[type] = 0;
  for (const row of rows) {
    out.total += row.n;
    const key = /** @type {"available" | "assigned" | "expired" | "maintenance"} */ (row.status.toLowerCase());
    if (key in out) out[key] += row.n;
    out.by_type[row.type] = (out.by_type[row.type] ?? 0) + row.n;
    out.by_country[row.country] = (out.by_country[row.country] ?? 0) + row.n;
  }
  return out;
}

/**
 * One proxy as the console shows it, with its plaintext password and its usage (this month
 * and the last 24 hours, lib/proxies/usage.js); 404 when there is none.
 * @param {CoreApp} app
 * @param {string} id
 */
function detail(app, id) {
  if (!PROXY_ID.test(id)) throw new NotFoundError("No proxy with this id.");
  const { password_encrypted, ...rest } = sql.oneRowOr404(
    app,
    sql.rowsLike({ ...listShape(), password_encrypted: "" }),
    `SELECT ${LIST_COLUMNS}, p.password_encrypted FROM proxies p LEFT JOIN users u ON u.id = p.assigned_to_user_id WHERE p.id = {:id}`,
    { id },
    "No proxy with this id.",
  );
  return {
    ...rest,
    password: sealing.openPassword(password_encrypted),
    usage: require(`${__hooks}/lib/proxies/usage.js`).detailUsage(app, id),
  };
}

/**
 * GET /api/admin/proxies?search=&type=&country=&status=&page=&perPage=(1-100, default 20)
 * -> {items: [{id, host, port, username, type, country, state, city, status,
 * assigned_to_user_id, owner_email, expires_at, auto_renew, created, updated, exit,
 * bind_address, upstream_host, upstream_port, upstream_username, upstream_has_password,
 * upstream_failed_at, upstream_error, bandwidth_quota_bytes, max_connections}], page,
 * perPage, totalItems, totalPages}; newest
 * first; no passwords (never the upstream's). search matches host, username, upstream
 * host, city, state and the owner's e-mail (substring).
 * @param {core.RequestEvent} e
 */
function listRoute(e) {
  admin.requireAdmin(e);
  return e.json(200, list(e.app, listFilters(e), admin.paging(e, 100)));
}

/**
 * GET /api/admin/proxies/stats -> {total, available, assigned, expired, maintenance,
 * by_type: {TYPE: n}, by_country: {code: n}}.
 * @param {core.RequestEvent} e
 */
function statsRoute(e) {
  admin.requireAdmin(e);
  return e.json(200, stats(e.app));
}

/**
 * GET /api/admin/proxies/locations -> the reference list {CODE: {name, states: {state: [cities]}}}.
 * @param {core.RequestEvent} e
 */
function locationsRoute(e) {
  admin.requireAdmin(e);
  return e.json(200, require(`${__hooks}/lib/proxies/places.js`).locations());
}

/**
 * GET /api/admin/proxies/{id} -> a list item plus its plaintext `password`, the customer's
 * (never the upstream's), and `usage`: {month: {bytes, quota_bytes, max_connections,
 * quota_reached, renews_on}, last_24h: {bytes_up, bytes_down, bytes, connections,
 * failed_connections}} (404 when missing).
 * @param {core.RequestEvent} e
 */
function detailRoute(e) {
  admin.requireAdmin(e);
  return e.json(200, detail(e.app, e.request?.pathValue("id") ?? ""));
}

module.exports = { STATUSES, PROXY_ID, listFilters, list, stats, detail, listRoute, statsRoute, locationsRoute, detailRoute };
