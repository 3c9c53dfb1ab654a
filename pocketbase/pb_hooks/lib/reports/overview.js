// @ts-check
// The console's Overview (get_admin_overview_stats in the spec): platform figures, the
// newest ledger rows, and the gateway's metering: today's connections, traffic and success
// rate, and this month's traffic against the same span of last month (the spec's fixed
// "15% increase this month" made real). Shop admins only: anonymous 401, customers 403.

/** @type {typeof import("./revenue.js")} */
const revenue = require(`${__hooks}/lib/reports/revenue.js`);
/** @type {typeof import("../core/sql.js")} */
const sql = require(`${__hooks}/lib/core/sql.js`);

/**
 * The gateway's figures: today (UTC) so far, and this month's traffic against last month's
 * over the same span from its first day (cut at its end: a 31st compares with all of a
 * shorter month). Hourly rows, counted by the hours that begin in each span.
 * @param {CoreApp} app
 * @param {number} nowMs
 */
function gatewayFigures(app, nowMs) {
  /** @type {typeof import("./performance.js")} */
  const performance = require(`${__hooks}/lib/reports/performance.js`);
  const now = new Date(nowMs);
  const end = sql.dbDate(nowMs + 1);
  const today = sql.dbDate(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  const connects = performance.connectsBetween(app, today, end);
  return {
    gateway_today: {
      ...performance.withConnections(performance.trafficBetween(app, today, end), connects),
      connections_ok: connects.connections_ok,
      connections_failed: connects.connections_failed,
      connections_refused: connects.connections_refused,
      success_rate_percent: connects.success_rate_percent,
    },
    traffic_month: require(`${__hooks}/lib/reports/alerts.js`).monthGrowth(app, nowMs).traffic,
  };
}

/**
 * The Overview figures: users, money received and kept (real, i.e. Stripe, payments minus
 * what Stripe refunded and lost disputes took back; a proxy refund gives credits back, not
 * money, so it does not lower revenue), test payments apart (no money moved), proxies in
 * customers' hands, the 10 newest ledger rows with their user's e-mail, and the gateway's
 * figures (gatewayFigures).
 * @param {CoreApp} app
 * @param {number} [nowMs]
 */
function overviewFigures(app, nowMs = Date.now()) {
  const figures = new DynamicModel({ total_users: 0, total_revenue_cents: 0, test_payments_cents: 0, active_proxies: 0 });
  app
    .db()
    .newQuery(
      `SELECT (SELECT COUNT(*) FROM users) AS total_users,
              (${revenue.TOTAL_KEPT_SQL}) AS total_revenue_cents,
              (${revenue.TOTAL_TEST_SQL}) AS test_payments_cents,
              (SELECT COUNT(*) FROM proxies WHERE status = 'ASSIGNED') AS active_proxies`,
    )
    .one(figures);
  const recent = sql.rowsLike({ id: "", user_id: "", user_email: "", type: "", amount_cents: 0, description: "", created: "" });
  app
    .db()
    .newQuery(
      `SELECT t.id, t.user_id, COALESCE(u.email, '') AS user_email, t.type, t.amount_cents, t.description, t.created
       FROM transactions t LEFT JOIN users u ON u.id = t.user_id
       ORDER BY t.created DESC, t.id DESC LIMIT 10`,
    )
    .all(recent);
  return {
    total_users: figures.total_users,
    total_revenue_cents: figures.total_revenue_cents,
    test_payments_cents: figures.test_payments_cents,
    active_proxies: figures.active_proxies,
    recent_transactions: recent.map((r) => ({ ...r })),
    ...gatewayFigures(app, nowMs),
  };
}

/**
 * GET /api/admin/overview
 * -> {total_users, total_revenue_cents, test_payments_cents, active_proxies, recent_transactions:
 *    [{id, user_id, user_email, type, amount_cents, description, created}] (the 10 newest ledger rows),
 *    gateway_today: {bytes_up, bytes_down, bytes (proxy_usage), connections (ok + failed),
 *      failed_connections, connections_ok, connections_failed, connections_refused (407/429, apart),
 *      success_rate_percent (gateway_stats; null: no connections)},
 *    traffic_month: {current, previous (bytes), change_percent, caption: "+15% vs the same days of last month" | "No change" | "New"}}
 *
 * Revenue is money kept from Stripe payments (revenue.js), test payments apart.
 * @param {core.RequestEvent} e
 */
function overview(e) {
  require(`${__hooks}/lib/core/admin.js`).requireAdmin(e);
  return e.json(200, overviewFigures(e.app));
}

module.exports = { overview };
