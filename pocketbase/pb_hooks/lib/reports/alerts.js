// @ts-check
// The Overview's System Alerts (admin spec 2; issue #28, 14): what needs an admin now, read
// from the system, never fixed texts: upstreams the gateway reports failing (it sets and
// clears proxies.upstream_failed_at itself), gateways that stopped calling the shop
// (gateway_tokens.last_seen_at), payments that failed in the last 24 hours, tickets waiting
// for a staff reply, and this month's growth (new customers and proxy traffic against the
// same days of last month). Shop admins only: anonymous 401, customers 403.

/** @type {typeof import("../core/sql.js")} */
const sql = require(`${__hooks}/lib/core/sql.js`);

/** The failing upstreams named (the longest failing first); the count covers all. */
const NAMED_UPSTREAMS = 5;
/** Failed payments are counted over this span. */
const PAYMENTS_SPAN_MS = 24 * 3600 * 1000;

/**
 * Upstream exits the gateway could not reach on its last try, longest failing first.
 * @param {CoreApp} app
 */
function failingUpstreams(app) {
  const where = "upstream_failed_at IS NOT NULL AND upstream_failed_at != ''";
  const total = new DynamicModel({ n: 0 });
  app.db().newQuery(`SELECT COUNT(*) AS n FROM proxies WHERE ${where}`).one(total);
  const rows = sql.rowsLike({ id: "", upstream_host: "", upstream_port: 0, status: "", error: "", failed_at: "" });
  app
    .db()
    .newQuery(
      `SELECT id, COALESCE(upstream_host, '') AS upstream_host, COALESCE(upstream_port, 0) AS upstream_port, status,
              COALESCE(upstream_error, '') AS error, upstream_failed_at AS failed_at
         FROM proxies WHERE ${where} ORDER BY upstream_failed_at, id LIMIT {:limit}`,
    )
    .bind({ limit: NAMED_UPSTREAMS })
    .all(rows);
  return { count: total.n, items: rows.map((r) => ({ ...r })) };
}

/**
 * Gateways on other machines the shop has not heard from (tokens.js OUT_OF_CONTACT_MS): a
 * token used once and silent since, or one never used a while after it was made.
 * @param {CoreApp} app
 * @param {number} nowMs
 */
function silentGateways(app, nowMs) {
  /** @type {typeof import("../gateway/tokens.js")} */
  const tokens = require(`${__hooks}/lib/gateway/tokens.js`);
  const before = sql.dbDate(nowMs - tokens.OUT_OF_CONTACT_MS);
  const rows = sql.rowsLike({ id: "", name: "", last_seen_at: "" });
  app
    .db()
    .newQuery(
      `SELECT id, name, COALESCE(last_seen_at, '') AS last_seen_at FROM gateway_tokens
        WHERE (COALESCE(last_seen_at, '') = '' AND created < {:before}) OR (last_seen_at != '' AND last_seen_at < {:before})
        ORDER BY name, id`,
    )
    .bind({ before })
    .all(rows);
  return rows.map((r) => ({ ...r }));
}

/**
 * Payments that failed (expired or declined checkouts, mismatched amounts) since `sinceMs`.
 * @param {CoreApp} app
 * @param {number} sinceMs
 */
function failedPayments(app, sinceMs) {
  const row = new DynamicModel({ n: 0, cents: 0 });
  app
    .db()
    .newQuery("SELECT COUNT(*) AS n, COALESCE(SUM(amount_cents), 0) AS cents FROM payments WHERE status = 'failed' AND updated >= {:since}")
    .bind({ since: sql.dbDate(sinceMs) })
    .one(row);
  return { count: row.n, amount_cents: row.cents, since: sql.dbDate(sinceMs) };
}

/**
 * Tickets whose customer wrote last and no staff has answered (not closed), with the oldest.
 * @param {CoreApp} app
 */
function waitingTickets(app) {
  const row = new DynamicModel({ n: 0, oldest: "" });
  app
    .db()
    .newQuery(
      "SELECT COUNT(*) AS n, COALESCE(MIN(last_message_at), '') AS oldest FROM support_tickets WHERE awaiting_reply AND status != 'closed'",
    )
    .one(row);
  return { count: row.n, oldest_at: row.oldest };
}

/**
 * New customers (not admins) and proxy traffic this month so far against the same span of
 * last month (cut at its end), as the Overview's traffic figure counts.
 * @param {CoreApp} app
 * @param {number} nowMs
 */
function monthGrowth(app, nowMs) {
  /** @type {typeof import("./performance.js")} */
  const performance = require(`${__hooks}/lib/reports/performance.js`);
  const now = new Date(nowMs);
  const monthStartMs = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1);
  const prevStartMs = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1);
  const prevEndMs = Math.min(prevStartMs + (nowMs - monthStartMs), monthStartMs);
  const [start, end, prevStart, prevEnd] = [monthStartMs, nowMs + 1, prevStartMs, prevEndMs].map(sql.dbDate);
  /** @param {string} from @param {string} to */
  const customers = (from, to) => {
    const row = new DynamicModel({ n: 0 });
    app
      .db()
      .newQuery("SELECT COUNT(*) AS n FROM users WHERE NOT is_admin AND created >= {:from} AND created < {:to}")
      .bind({ from, to })
      .one(row);
    return row.n;
  };
  const against = "the same days of last month";
  return {
    customers: performance.growth(customers(start, end), customers(prevStart, prevEnd), against),
    traffic: performance.growth(
      performance.trafficBetween(app, start, end).bytes,
      performance.trafficBetween(app, prevStart, prevEnd).bytes,
      against,
    ),
  };
}

/**
 * Everything System Alerts reads, as of `nowMs`.
 * @param {CoreApp} app
 * @param {number} [nowMs]
 */
function systemAlerts(app, nowMs = Date.now()) {
  return {
    checked_at: sql.dbDate(nowMs),
    failing_upstreams: failingUpstreams(app),
    silent_gateways: silentGateways(app, nowMs),
    failed_payments: failedPayments(app, nowMs - PAYMENTS_SPAN_MS),
    waiting_tickets: waitingTickets(app),
    growth: monthGrowth(app, nowMs),
  };
}

/**
 * GET /api/admin/system-alerts
 * -> {checked_at, failing_upstreams: {count, items: [{id, upstream_host, upstream_port, status,
 *    error, failed_at}] (the 5 longest failing)}, silent_gateways: [{id, name, last_seen_at ("" never)}],
 *    failed_payments: {count, amount_cents, since} (the last 24 hours), waiting_tickets: {count,
 *    oldest_at ("" none)}, growth: {customers, traffic} ({current, previous, change_percent, caption})}
 * @param {core.RequestEvent} e
 */
function alerts(e) {
  require(`${__hooks}/lib/core/admin.js`).requireAdmin(e);
  return e.json(200, systemAlerts(e.app));
}

module.exports = { alerts, systemAlerts, monthGrowth };
