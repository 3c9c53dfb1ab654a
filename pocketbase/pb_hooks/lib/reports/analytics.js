// @ts-check
// The console's Analytics figures (get_admin_analytics_data in the spec), all counted in
// SQL with GROUP BY over indexed ranges, never by loading rows:
// - cards, all time: every account (customers and admins), the money kept (revenue.js:
//   not credits, not bonuses), every proxy in the inventory, and revenue / users;
// - growth captions of the cards: the period's activity against the previous period of the
//   same length (the one just before it): new accounts, money kept (by the day paid), proxies
//   added to the inventory, and revenue per account (the period's money kept / the accounts
//   at its end);
// - per UTC day of the period (every day present, zeros filled): new accounts, money
//   received (by the day it was paid);
// - proxy usage: proxies in customers' hands now (ASSIGNED), by type and top 5 countries;
// - performance, from the gateway's metering (lib/reports/performance.js).

/** @type {typeof import("../core/sql.js")} */
const sql = require(`${__hooks}/lib/core/sql.js`);
/** @type {typeof import("./revenue.js")} */
const revenueSql = require(`${__hooks}/lib/reports/revenue.js`);
/** @type {typeof import("./performance.js")} */
const perf = require(`${__hooks}/lib/reports/performance.js`);

const PERIODS = [7, 30, 90];
const DEFAULT_DAYS = 30;
/** @type {string[]} */
const PROXY_TYPES = require(`${__hooks}/lib/catalog.json`).proxy_types.map((/** @type {{value: string}} */ t) => t.value);
const TOP_COUNTRIES = 5;
const DAY_MS = 86400000;

/**
 * The period from `?days=`: 7, 30 or 90 (30 when absent), else a 400 naming the field.
 * @param {string} raw
 * @returns {number}
 */
function parseDays(raw) {
  const text = raw.trim();
  if (!text) return DEFAULT_DAYS;
  const days = Number(text);
  if (PERIODS.indexOf(days) < 0 || String(days) !== text) {
    const message = "Days must be 7, 30 or 90.";
    throw new BadRequestError(message, { days: new ValidationError("validation_invalid_period", message) });
  }
  return days;
}

/**
 * "YYYY-MM-DD" of the UTC days of the period, oldest first, today last.
 * @param {number} days
 * @param {number} nowMs
 */
function periodDates(days, nowMs) {
  /** @type {string[]} */
  const dates = [];
  for (let i = days - 1; i >= 0; i--) dates.push(new Date(nowMs - i * DAY_MS).toISOString().slice(0, 10));
  return dates;
}

/**
 * @param {CoreApp} app
 * @param {string} query  answers one row with a column `n`
 * @param {Record<string, unknown>} [params]
 */
function scalar(app, query, params = {}) {
  const row = new DynamicModel({ n: 0 });
  app.db().newQuery(query).bind(params).one(row);
  return row.n;
}

/**
 * @param {CoreApp} app
 * @param {number} days  7, 30 or 90
 * @param {number} [nowMs]
 */
function figures(app, days, nowMs = Date.now()) {
  const dates = periodDates(days, nowMs);
  // PocketBase dates are "YYYY-MM-DD HH:MM:SS.mmmZ" (UTC), so text order is time order.
  const start = `${dates[0]} 00:00:00.000Z`;

  const totalUsers = scalar(app, "SELECT COUNT(*) AS n FROM users");
  const totalRevenue = scalar(app, `SELECT (${revenueSql.TOTAL_KEPT_SQL}) AS n`);
  const testPayments = scalar(app, `SELECT (${revenueSql.TOTAL_TEST_SQL}) AS n`);
  const totalProxies = scalar(app, "SELECT COUNT(*) AS n FROM proxies");

  // The previous period: as long as this one (its first UTC day until now), just before it.
  const startMs = Date.parse(`${dates[0]}T00:00:00.000Z`);
  const prevStart = sql.dbDate(startMs - (nowMs - startMs));
  const against = `previous ${days} days`;
  const between = { prevStart, start };
  const prevUsers = scalar(app, "SELECT COUNT(*) AS n FROM users WHERE created >= {:prevStart} AND created < {:start}", between);
  const usersAtStart = scalar(app, "SELECT COUNT(*) AS n FROM users WHERE created < {:start}", between);
  const prevRevenue = scalar(
    app,
    `SELECT COALESCE(SUM(${revenueSql.KEPT_CENTS}), 0) AS n FROM payments
     WHERE provider = 'stripe' AND status IN ${revenueSql.CREDITED} AND paid_at >= {:prevStart} AND paid_at < {:start}`,
    between,
  );
  const newProxies = scalar(app, "SELECT COUNT(*) AS n FROM proxies WHERE created >= {:start}", between);
  const prevProxies = scalar(app, "SELECT COUNT(*) AS n FROM proxies WHERE created >= {:prevStart} AND created < {:start}", between);

  const signups = sql.rowsLike({ day: "", n: 0 });
  app
    .db()
    .newQuery("SELECT substr(created, 1, 10) AS day, COUNT(*) AS n FROM users WHERE created >= {:start} GROUP BY day")
    .bind({ start })
    .all(signups);
  const received = sql.rowsLike({ day: "", n: 0 });
  app
    .db()
    .newQuery(
      `SELECT substr(paid_at, 1, 10) AS day, SUM(${revenueSql.KEPT_CENTS}) AS n FROM payments
       WHERE provider = 'stripe' AND status IN ${revenueSql.CREDITED} AND paid_at >= {:start} GROUP BY day`,
    )
    .bind({ start })
    .all(received);

  const byType = sql.rowsLike({ type: "", n: 0 });
  app.db().newQuery("SELECT type, COUNT(*) AS n FROM proxies WHERE status = 'ASSIGNED' GROUP BY type").all(byType);
  const byCountry = sql.rowsLike({ country: "", n: 0 });
  app
    .db()
    .newQuery(
      `SELECT country, COUNT(*) AS n FROM proxies WHERE status = 'ASSIGNED'
       GROUP BY country ORDER BY n DESC, country ASC LIMIT {:limit}`,
    )
    .bind({ limit: TOP_COUNTRIES })
    .all(byCountry);

  /** @param {{day: string, n: number}[]} rows */
  const perDay = (rows) => {
    /** @type {Record<string, number>} */
    const map = {};
    for (const row of rows) map[row.day] = row.n;
    return map;
  };
  const usersPerDay = perDay(signups);
  const centsPerDay = perDay(received);
  /** @type {Record<string, number>} */
  const types = {};
  for (const type of PROXY_TYPES) types[type] = 0;
  for (const row of byType) types[row.type] = row.n;

  const user_growth = dates.map((date) => ({ date, count: usersPerDay[date] ?? 0 }));
  const revenue = dates.map((date) => ({ date, cents: centsPerDay[date] ?? 0 }));
  const periodNewUsers = user_growth.reduce((sum, d) => sum + d.count, 0);
  const periodRevenue = revenue.reduce((sum, d) => sum + d.cents, 0);
  const perUser = (/** @type {number} */ cents, /** @type {number} */ users) => (users > 0 ? Math.round(cents / users) : 0);
  return {
    days,
    total_users: totalUsers,
    total_revenue_cents: totalRevenue,
    test_payments_cents: testPayments,
    total_proxies: totalProxies,
    avg_revenue_per_user_cents: totalUsers > 0 ? Math.round(totalRevenue / totalUsers) : 0,
    period_new_users: periodNewUsers,
    period_revenue_cents: periodRevenue,
    growth: {
      users: perf.growth(periodNewUsers, prevUsers, against),
      revenue: perf.growth(periodRevenue, prevRevenue, against),
      proxies: perf.growth(newProxies, prevProxies, against),
      avg_revenue_per_user: perf.growth(perUser(periodRevenue, totalUsers), perUser(prevRevenue, usersAtStart), against),
    },
    user_growth,
    revenue,
    proxy_usage: {
      by_type: types,
      by_country: byCountry.map((row) => ({ country: row.country || "Unknown", count: row.n })),
    },
    performance: perf.performance(app, startMs, nowMs, against),
  };
}

/**
 * GET /api/admin/analytics?days=7|30|90 (30 when absent; anything else 400 "Days must be 7, 30 or 90.", data.days)
 * -> {days, total_users, total_revenue_cents, test_payments_cents, total_proxies, avg_revenue_per_user_cents (all time),
 *    period_new_users, period_revenue_cents (the period),
 *    user_growth: [{date: "YYYY-MM-DD", count}], revenue: [{date, cents}] (every UTC day of the period, oldest first),
 *    proxy_usage: {by_type: {RESIDENTIAL: n, DATACENTER: n, SOCKS5: n, HTTP: n, HTTPS: n}, by_country: [{country, count}] (top 5)},
 *    growth: {users, revenue, proxies, avg_revenue_per_user: Growth} (the period's new accounts, money kept, proxies added,
 *      money kept per account, against the previous period of the same length),
 *    performance: {connections_ok, connections_failed, success_rate_percent (null: no connections),
 *      connect_ms_histogram: [13 counts], median_connect: {at_most_ms, over_ms} | null,
 *      uptime_percent (the gateways' average; null: no reports), gateways: [{gateway, up_seconds, seconds, since, uptime_percent}],
 *      traffic: {bytes_up, bytes_down, bytes, connections, failed_connections}, traffic_growth, connections_growth: Growth}}
 * Growth = {current, previous, change_percent (null when "New"), caption: "+12% vs previous 30 days" | "No change" | "New"}.
 *
 * Revenue is money kept (revenue.js, by the day paid), never credits or bonuses; users are
 * every account; proxy usage counts ASSIGNED proxies (in customers' hands). Shop admins
 * only: anonymous 401, customers 403.
 * @param {core.RequestEvent} e
 */
function analytics(e) {
  require(`${__hooks}/lib/core/admin.js`).requireAdmin(e);
  const days = parseDays(String(e.request?.url?.query().get("days") ?? ""));
  return e.json(200, figures(e.app, days));
}

module.exports = { analytics };
