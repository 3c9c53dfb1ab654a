// @ts-check
// The console's Analytics figures (get_admin_analytics_data in the spec), all counted in
// SQL with GROUP BY over indexed ranges, never by loading rows:
// - cards, all time: every account (customers and admins), the money kept (revenue.js:
//   not credits, not bonuses), every proxy in the inventory, and revenue / users;
// - per UTC day of the period (every day present, zeros filled): new accounts, money
//   received (by the day it was paid);
// - proxy usage: proxies in customers' hands now (ASSIGNED), by type and top 5 countries.

/** @type {typeof import("../core/sql.js")} */
const sql = require(`${__hooks}/lib/core/sql.js`);
/** @type {typeof import("./revenue.js")} */
const revenueSql = require(`${__hooks}/lib/reports/revenue.js`);

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
  return {
    days,
    total_users: totalUsers,
    total_revenue_cents: totalRevenue,
    test_payments_cents: testPayments,
    total_proxies: totalProxies,
    avg_revenue_per_user_cents: totalUsers > 0 ? Math.round(totalRevenue / totalUsers) : 0,
    period_new_users: user_growth.reduce((sum, d) => sum + d.count, 0),
    period_revenue_cents: revenue.reduce((sum, d) => sum + d.cents, 0),
    user_growth,
    revenue,
    proxy_usage: {
      by_type: types,
      by_country: byCountry.map((row) => ({ country: row.country || "Unknown", count: row.n })),
    },
  };
}

/**
 * GET /api/admin/analytics?days=7|30|90 (30 when absent; anything else 400 "Days must be 7, 30 or 90.", data.days)
 * -> {days, total_users, total_revenue_cents, test_payments_cents, total_proxies, avg_revenue_per_user_cents (all time),
 *    period_new_users, period_revenue_cents (the period),
 *    user_growth: [{date: "YYYY-MM-DD", count}], revenue: [{date, cents}] (every UTC day of the period, oldest first),
 *    proxy_usage: {by_type: {RESIDENTIAL: n, DATACENTER: n, SOCKS5: n, HTTP: n, HTTPS: n}, by_country: [{country, count}] (top 5)}}
 *
 * Revenue is money kept (revenue.js, by the day paid), never credits or bonuses; users are
 * every account; proxy usage counts ASSIGNED proxies (in customers' hands). Shop admins
 * only: anonymous 401, customers 403.
 * @param {core.RequestEvent} e
 */
function analytics(e) {
  require(`${__hooks}/lib/audit/admin.js`).requireAdmin(e);
  const days = parseDays(String(e.request?.url?.query().get("days") ?? ""));
  return e.json(200, figures(e.app, days));
}

module.exports = { analytics };
