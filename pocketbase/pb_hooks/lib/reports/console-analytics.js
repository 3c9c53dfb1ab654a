// @ts-check
// The console's Analytics figures (get_admin_analytics_data in the spec), all counted in
// SQL with GROUP BY over indexed ranges, never by loading rows:
// - cards, all time: every account (customers and admins), the money received (paid
//   payments' amount_cents: not credits, not bonuses), every proxy in the inventory, and
//   revenue / users;
// - per UTC day of the period (every day present, zeros filled): new accounts, money
//   received (by the day it was paid);
// - proxy usage: proxies in customers' hands now (ASSIGNED), by type and top 5 countries.

/** @type {typeof import("../core/sql.js")} */
const sql = require(`${__hooks}/lib/core/sql.js`);

const PERIODS = [7, 30, 90];
const DEFAULT_DAYS = 30;
const PROXY_TYPES = ["RESIDENTIAL", "DATACENTER", "SOCKS5", "HTTP", "HTTPS"];
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
function analytics(app, days, nowMs = Date.now()) {
  const dates = periodDates(days, nowMs);
  // PocketBase dates are "YYYY-MM-DD HH:MM:SS.mmmZ" (UTC), so text order is time order.
  const start = `${dates[0]} 00:00:00.000Z`;

  const totalUsers = scalar(app, "SELECT COUNT(*) AS n FROM users");
  // Money kept from real payments (Stripe, minus refunds and lost disputes); test payments
  // moved no money and are counted apart.
  const totalRevenue = scalar(
    app,
    "SELECT COALESCE(SUM(MAX(0, amount_cents - COALESCE(refunded_cents, 0) - CASE WHEN dispute_status = 'lost' THEN COALESCE(disputed_cents, 0) ELSE 0 END)), 0) AS n FROM payments WHERE provider = 'stripe' AND status IN ('paid', 'partially_refunded', 'refunded', 'disputed')",
  );
  const testPayments = scalar(
    app,
    "SELECT COALESCE(SUM(amount_cents), 0) AS n FROM payments WHERE provider = 'test' AND status IN ('paid', 'partially_refunded', 'refunded', 'disputed')",
  );
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
      `SELECT substr(paid_at, 1, 10) AS day, SUM(MAX(0, amount_cents - COALESCE(refunded_cents, 0) - CASE WHEN dispute_status = 'lost' THEN COALESCE(disputed_cents, 0) ELSE 0 END)) AS n FROM payments
       WHERE provider = 'stripe' AND status IN ('paid', 'partially_refunded', 'refunded', 'disputed') AND paid_at >= {:start} GROUP BY day`,
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

module.exports = { parseDays, analytics };
