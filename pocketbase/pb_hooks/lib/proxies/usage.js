// @ts-check
// What a proxy used (issue #16): the gateway's hourly proxy_usage rows read back for the
// customer (GET /api/v1/proxies/{id}/usage, GET /api/v1/proxies/usage-summary) and for the
// console's proxy detail. One computation of "this month" for all of them (and for the
// proxy.quota_reached webhook, lib/webhooks/events.js), the same the gateway enforces its
// quota with (SQLSource.MonthUsage): the current owner's bytes up and down since the UTC
// calendar month began or since their term of ownership began, whichever is later (the
// proxy_term_usage view, pb_migrations/1764800500_proxy_usage_terms.js; security review #26
// finding 12: a resold proxy starts at zero for its new owner; a renewal keeps the term),
// against proxies.bandwidth_quota_bytes (0 = no quota; a GB is 2^30 bytes, as the gateway
// counts it). The sum saturates (TOTAL, then the largest integer) instead of failing.

/** @type {typeof import("../core/api.js")} */
const api = require(`${__hooks}/lib/core/api.js`);
/** @type {typeof import("../core/sql.js")} */
const sql = require(`${__hooks}/lib/core/sql.js`);
/** @type {typeof import("../core/views.js")} */
const views = require(`${__hooks}/lib/core/views.js`);

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
/** The longest range the usage route answers. */
const MAX_RANGE_DAYS = 31;
/** A GB as the gateway counts quotas (lib/proxies/inventory-edit.js and purchase.js convert with it). */
const GB = 1073741824;
/** A MB as the gateway counts quotas: a quota may be given in MB (issue #28). */
const MB = 1048576;
const PROXY_ID = /^[a-z0-9]{1,30}$/;
const NOT_YOURS = "No proxy with this id is assigned to you.";

/**
 * The first instant of `ms`'s UTC calendar month, and of the next one.
 * @param {number} ms
 */
function monthOf(ms) {
  const d = new Date(ms);
  return { start: Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1), next: Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1) };
}

/**
 * @typedef {object} MonthUsage  the proxy's UTC calendar month so far
 * @property {number} bytes  up and down together, of the current owner's term (what the quota counts)
 * @property {number} quota_bytes  0 = no quota
 * @property {number} max_connections  0 = no cap
 * @property {boolean} quota_reached
 * @property {string} renews_on  the date the quota starts again ("2026-12-01", UTC)
 * @property {number} failed_connections  connections of the term this month whose target or exit could not be reached
 * @property {{ at: string, reason: string } | null} last_failure  the latest of them: when and why, in words
 */

/** Why a connection failed, as the owner reads it (never the upstream's own error text). */
const FAILURE_REASONS = {
  exit: "The proxy's exit did not answer: connections fail until it answers again.",
  target: "A site it was asked to reach could not be reached.",
};

/**
 * The month figures of a proxy row: its failures from the usage rows' failed_connections
 * (`failed`, the latest in `failed_hour`) and the gateway's mark on a failing upstream exit.
 * @param {{ bytes: number, quota_bytes: number, max_connections: number, failed?: number, failed_hour?: string, exit_failed_at?: string }} row
 * @param {number} now
 * @returns {MonthUsage}
 */
function monthFigures(row, now) {
  const exitFailed = row.exit_failed_at ?? "";
  const failedHour = row.failed_hour ?? "";
  /** @type {{ at: string, reason: string } | null} */
  let lastFailure = null;
  if (exitFailed) lastFailure = { at: views.rfc3339(exitFailed), reason: FAILURE_REASONS.exit };
  else if (failedHour) lastFailure = { at: views.rfc3339(failedHour), reason: FAILURE_REASONS.target };
  return {
    bytes: row.bytes,
    quota_bytes: row.quota_bytes,
    max_connections: row.max_connections,
    quota_reached: row.quota_bytes > 0 && row.bytes >= row.quota_bytes,
    renews_on: new Date(monthOf(now).next).toISOString().slice(0, 10),
    failed_connections: row.failed ?? 0,
    last_failure: lastFailure,
  };
}

/**
 * The SQL of a proxy's bytes this month as its quota counts them, for the proxy `p` of the
 * query it goes in (a correlated subquery on proxy_term_usage, which the (proxy_id,
 * user_id, hour) index answers), with the parameter `{:month}` (monthParams).
 * @param {string} [proxy]  the alias of the proxies table in the query
 */
function monthBytesSql(proxy = "p") {
  return `(SELECT CAST(TOTAL(t.bytes_up) + TOTAL(t.bytes_down) AS INTEGER) FROM proxy_term_usage t
    WHERE t.proxy_id = ${proxy}.id AND t.hour >= {:month})`;
}

/**
 * The parameters of monthBytesSql for the month of `now`.
 * @param {number} now
 */
function monthParams(now) {
  return { month: sql.dbDate(monthOf(now).start) };
}

/**
 * The month so far of the proxies `where` picks, keyed by proxy id. Numbers are read as
 * whole numbers (a fractional value written by hand would otherwise fail the scan into the
 * typed row).
 * @param {CoreApp} app
 * @param {string} where  a condition on proxies `p`
 * @param {Record<string, unknown>} params
 * @param {number} now
 * @returns {Record<string, MonthUsage>}
 */
function monthUsage(app, where, params, now) {
  const rows = sql.rowsLike({ id: "", bytes: 0, quota_bytes: 0, max_connections: 0, failed: 0, failed_hour: "", exit_failed_at: "" });
  const termMonth = "FROM proxy_term_usage t WHERE t.proxy_id = p.id AND t.hour >= {:month}";
  app
    .db()
    .newQuery(
      `SELECT p.id, ${monthBytesSql("p")} AS bytes,
         CAST(p.bandwidth_quota_bytes AS INTEGER) AS quota_bytes, CAST(p.max_connections AS INTEGER) AS max_connections,
         (SELECT CAST(TOTAL(t.failed_connections) AS INTEGER) ${termMonth}) AS failed,
         (SELECT COALESCE(MAX(t.hour), '') ${termMonth} AND t.failed_connections > 0) AS failed_hour,
         COALESCE(p.upstream_failed_at, '') AS exit_failed_at
       FROM proxies p WHERE ${where}`,
    )
    .bind({ ...params, ...monthParams(now) })
    .all(rows);
  /** @type {Record<string, MonthUsage>} */
  const out = {};
  for (const row of rows) out[row.id] = monthFigures(row, now);
  return out;
}

/**
 * @typedef {object} UsageRange
 * @property {number} from  epoch ms, inclusive (rows whose hour starts at or after its hour)
 * @property {number} to    epoch ms, exclusive
 */

/**
 * The hourly rows of a proxy in `range` (only hours the gateway wrote: no invented zeros),
 * their totals and the month so far. `userId`: only that owner's rows (a customer sees the
 * traffic of their own time with the proxy); "" for every row (admins: the rows of an hour's
 * owners added together).
 * @param {CoreApp} app
 * @param {string} proxyId
 * @param {UsageRange} range
 * @param {string} userId
 * @param {number} [now]
 */
function usageOf(app, proxyId, range, userId, now = Date.now()) {
  const rows = sql.rowsLike({ hour: "", bytes_up: 0, bytes_down: 0, connections: 0, failed_connections: 0 });
  app
    .db()
    .newQuery(
      `SELECT hour, CAST(TOTAL(bytes_up) AS INTEGER) AS bytes_up, CAST(TOTAL(bytes_down) AS INTEGER) AS bytes_down,
         CAST(TOTAL(connections) AS INTEGER) AS connections, CAST(TOTAL(failed_connections) AS INTEGER) AS failed_connections
       FROM proxy_usage WHERE proxy_id = {:id} AND hour >= {:from} AND hour < {:to}${userId ? " AND user_id = {:user}" : ""}
       GROUP BY hour ORDER BY hour`,
    )
    .bind({
      id: proxyId,
      from: sql.dbDate(Math.floor(range.from / HOUR_MS) * HOUR_MS),
      to: sql.dbDate(range.to),
      user: userId,
    })
    .all(rows);
  const totals = { bytes_up: 0, bytes_down: 0, bytes: 0, connections: 0, failed_connections: 0 };
  const { rfc3339 } = require(`${__hooks}/lib/core/views.js`);
  const hours = rows.map((r) => {
    totals.bytes_up += r.bytes_up;
    totals.bytes_down += r.bytes_down;
    totals.connections += r.connections;
    totals.failed_connections += r.failed_connections;
    return { ...r, hour: rfc3339(r.hour), bytes: r.bytes_up + r.bytes_down };
  });
  totals.bytes = totals.bytes_up + totals.bytes_down;
  const month = monthUsage(app, "p.id = {:id}", { id: proxyId }, now)[proxyId];
  return {
    proxy_id: proxyId,
    from: new Date(range.from).toISOString(),
    to: new Date(range.to).toISOString(),
    hours,
    totals,
    month: month ?? monthFigures({ bytes: 0, quota_bytes: 0, max_connections: 0 }, now),
  };
}

/**
 * What the console's proxy detail shows: the month so far and the last 24 hours' totals.
 * @param {CoreApp} app
 * @param {string} proxyId
 */
function detailUsage(app, proxyId) {
  const now = Date.now();
  const usage = usageOf(app, proxyId, { from: now - DAY_MS, to: now + 1 }, "", now);
  return { month: usage.month, last_24h: usage.totals };
}

/**
 * The range of `from` and `to` (ISO 8601; a date alone is its UTC midnight). Defaults: to
 * = now, from = 24 hours before to. At most MAX_RANGE_DAYS days; 400s name the field.
 * @param {string} fromText
 * @param {string} toText
 * @param {number} now
 * @returns {UsageRange}
 */
function parseRange(fromText, toText, now) {
  const example = "an ISO 8601 date and time, e.g. 2026-11-01T00:00:00Z";
  const to = toText ? api.parseMoment(toText) : now;
  if (Number.isNaN(to)) throw api.fieldError("to", `To must be ${example}.`);
  const from = fromText ? api.parseMoment(fromText) : to - DAY_MS;
  if (Number.isNaN(from)) throw api.fieldError("from", `From must be ${example}.`);
  if (from >= to) throw api.fieldError("from", "From must be before to.");
  if (to - from > MAX_RANGE_DAYS * DAY_MS) {
    throw api.fieldError("to", `The range may be at most ${MAX_RANGE_DAYS} days; ask for a shorter range (several, for a longer period).`);
  }
  return { from, to };
}

/**
 * GET /api/v1/proxies/{id}/usage?from=<ISO>&to=<ISO> -> {proxy_id, from, to, hours: [{hour,
 * bytes_up, bytes_down, bytes, connections, failed_connections}], totals: {bytes_up,
 * bytes_down, bytes, connections, failed_connections}, month: {bytes, quota_bytes,
 * max_connections, quota_reached, renews_on, failed_connections, last_failure}}. The proxy's owner (their own rows) or an
 * admin (every row); 404 for anyone else, like a missing proxy. Range: default the last 24
 * hours, at most 31 days (400 naming from or to otherwise).
 * @param {core.RequestEvent} e
 */
function usageRoute(e) {
  const user = api.customer(e);
  const id = e.request?.pathValue("id") ?? "";
  const isAdmin = user.getBool("is_admin");
  const owner = new DynamicModel({ owner: "" });
  let found = false;
  if (PROXY_ID.test(id)) {
    try {
      e.app.db().newQuery("SELECT assigned_to_user_id AS owner FROM proxies WHERE id = {:id}").bind({ id }).one(owner);
      found = true;
    } catch (_) {
      found = false;
    }
  }
  const mine = found && owner.owner === user.id;
  if (!found || !(mine || isAdmin)) throw new NotFoundError(isAdmin ? "No proxy with this id." : NOT_YOURS);
  const query = e.request?.url?.query();
  const now = Date.now();
  const range = parseRange(String(query?.get("from") ?? "").trim(), String(query?.get("to") ?? "").trim(), now);
  return e.json(200, usageOf(e.app, id, range, isAdmin ? "" : user.id, now));
}

/**
 * GET /api/v1/proxies/usage-summary -> {proxy_id: {bytes, quota_bytes, max_connections,
 * quota_reached, renews_on}}: this month so far of each of the caller's ASSIGNED proxies,
 * in one query (My Proxies' cards read it after the list).
 * @param {core.RequestEvent} e
 */
function summaryRoute(e) {
  const user = api.customer(e);
  return e.json(200, monthUsage(e.app, "p.assigned_to_user_id = {:user} AND p.status = 'ASSIGNED'", { user: user.id }, Date.now()));
}

module.exports = {
  GB,
  MB,
  MAX_RANGE_DAYS,
  monthOf,
  monthBytesSql,
  monthParams,
  monthUsage,
  usageOf,
  detailUsage,
  parseRange,
  usageRoute,
  summaryRoute,
};
