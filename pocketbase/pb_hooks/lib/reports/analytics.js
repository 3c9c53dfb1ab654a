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
// - performance, from the gateway's metering (gateway_stats, proxy_usage: hourly rows, so
//   the period is counted by the hours that begin in it): connection success rate, the
//   median connect time (the histogram bucket holding it), each gateway's uptime and the
//   traffic and connections of the period against the previous one.

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

/** Upper bounds (ms) of the gateway's connect-time histogram (pocketbase/gateway/meter.go
 * ConnectBucketsMs); one more bucket holds everything slower. */
const CONNECT_BUCKETS_MS = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000];
const HOUR_MS = 3600000;

/**
 * A share as a percentage with one decimal, never rounded up to 100 while some part is
 * missing nor down to 0 while some is there; null when there is nothing to share.
 * @param {number} part
 * @param {number} whole
 * @returns {number | null}
 */
function percentOf(part, whole) {
  if (!(whole > 0)) return null;
  const p = Math.round((part / whole) * 1000) / 10;
  if (p >= 100 && part < whole) return 99.9;
  if (p <= 0 && part > 0) return 0.1;
  return Math.min(100, p);
}

/**
 * How `current` compares with `previous` (the period before, of the same length):
 * "+12% vs previous 30 days", "-5% vs previous 30 days", "+1,100% ...", "No change" (equal, or a change
 * that rounds to 0%), "New" (nothing in the previous period).
 * @param {number} current
 * @param {number} previous
 * @param {string} against  e.g. "previous 30 days"
 * @returns {{current: number, previous: number, change_percent: number | null, caption: string}}
 */
function growth(current, previous, against) {
  if (previous <= 0) {
    return current > 0
      ? { current, previous, change_percent: null, caption: "New" }
      : { current, previous, change_percent: 0, caption: "No change" };
  }
  const change = Math.round(((current - previous) / previous) * 100);
  if (change === 0) return { current, previous, change_percent: 0, caption: "No change" };
  const grouped = String(Math.abs(change)).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  return { current, previous, change_percent: change, caption: `${change > 0 ? "+" : "-"}${grouped}% vs ${against}` };
}

/**
 * Proxy traffic (proxy_usage) of the hours beginning in [from, to).
 * @param {CoreApp} app
 * @param {string} from  a PocketBase date
 * @param {string} to
 */
function trafficBetween(app, from, to) {
  const row = new DynamicModel({ bytes_up: 0, bytes_down: 0, connections: 0, failed_connections: 0 });
  app
    .db()
    .newQuery(
      `SELECT COALESCE(SUM(bytes_up), 0) AS bytes_up, COALESCE(SUM(bytes_down), 0) AS bytes_down,
              COALESCE(SUM(connections), 0) AS connections, COALESCE(SUM(failed_connections), 0) AS failed_connections
       FROM proxy_usage WHERE hour >= {:from} AND hour < {:to}`,
    )
    .bind({ from, to })
    .one(row);
  return {
    bytes_up: row.bytes_up,
    bytes_down: row.bytes_down,
    bytes: row.bytes_up + row.bytes_down,
    connections: row.connections,
    failed_connections: row.failed_connections,
  };
}

/**
 * The gateways' connect figures (gateway_stats) of the hours beginning in [from, to): the
 * connections that reached their target and that failed, the success rate (ok / (ok +
 * failed), one decimal, null without connections), the summed connect-time histogram and
 * its median: the upper bound of the first bucket by which at least half of the connections
 * had connected (at_most_ms; over_ms 5000 when that is the last, open bucket), null without
 * connections.
 * @param {CoreApp} app
 * @param {string} from
 * @param {string} to
 */
function connectsBetween(app, from, to) {
  /** @type {Record<string, number>} */
  const shape = { ok: 0, failed: 0 };
  const sums = ["COALESCE(SUM(connections_ok), 0) AS ok", "COALESCE(SUM(connections_failed), 0) AS failed"];
  for (let i = 0; i <= CONNECT_BUCKETS_MS.length; i++) {
    shape[`b${i}`] = 0;
    sums.push(`COALESCE(SUM(json_extract(connect_ms_histogram, '$[${i}]')), 0) AS b${i}`);
  }
  const row = new DynamicModel(shape);
  app
    .db()
    .newQuery(`SELECT ${sums.join(", ")} FROM gateway_stats WHERE hour >= {:from} AND hour < {:to}`)
    .bind({ from, to })
    .one(row);
  const record = /** @type {Record<string, number>} */ (/** @type {unknown} */ (row));
  /** @type {number[]} */
  const histogram = [];
  for (let i = 0; i <= CONNECT_BUCKETS_MS.length; i++) histogram.push(Number(record[`b${i}`]) || 0);
  const timed = histogram.reduce((sum, n) => sum + n, 0);
  /** @type {{at_most_ms: number | null, over_ms: number | null} | null} */
  let median = null;
  let seen = 0;
  for (let i = 0; i < histogram.length && timed > 0; i++) {
    seen += histogram[i] ?? 0;
    if (seen * 2 >= timed) {
      const bound = CONNECT_BUCKETS_MS[i];
      median =
        bound === undefined
          ? { at_most_ms: null, over_ms: CONNECT_BUCKETS_MS[CONNECT_BUCKETS_MS.length - 1] ?? 0 }
          : { at_most_ms: bound, over_ms: null };
      break;
    }
  }
  return {
    connections_ok: row.ok,
    connections_failed: row.failed,
    success_rate_percent: percentOf(row.ok, row.ok + row.failed),
    connect_ms_histogram: histogram,
    median_connect: median,
  };
}

/**
 * Each gateway's uptime over the period: its up_seconds in the period's hours over the
 * seconds from the period's start (or from when it started, if later) until now. It is
 * taken to have started at the end of its first hour (or now, when that is the current
 * hour) minus that hour's up seconds, i.e. up without a break from its start to the end of
 * that hour. Only gateways that reported in the period are listed (one that stopped before
 * it is gone from the figures). `uptime_percent` is the average of the gateways' own figures.
 * @param {CoreApp} app
 * @param {number} startMs
 * @param {number} nowMs
 */
function uptimeSince(app, startMs, nowMs) {
  const rows = sql.rowsLike({ gateway: "", up: 0, first_hour: "", first_up: 0 });
  app
    .db()
    .newQuery(
      `SELECT s.gateway AS gateway, COALESCE(SUM(s.up_seconds), 0) AS up,
              (SELECT f.hour FROM gateway_stats f WHERE f.gateway = s.gateway ORDER BY f.hour LIMIT 1) AS first_hour,
              (SELECT f.up_seconds FROM gateway_stats f WHERE f.gateway = s.gateway ORDER BY f.hour LIMIT 1) AS first_up
       FROM gateway_stats s WHERE s.hour >= {:start} AND s.hour <= {:now} GROUP BY s.gateway ORDER BY s.gateway`,
    )
    .bind({ start: sql.dbDate(startMs), now: sql.dbDate(nowMs) })
    .all(rows);
  /** @type {{gateway: string, up_seconds: number, seconds: number, since: string, uptime_percent: number | null}[]} */
  const gateways = [];
  for (const row of rows) {
    const firstHourMs = Date.parse(row.first_hour.replace(" ", "T"));
    const firstSeenMs = Number.isFinite(firstHourMs) ? Math.min(firstHourMs + HOUR_MS, nowMs) - row.first_up * 1000 : startMs;
    const fromMs = Math.max(startMs, firstSeenMs);
    const seconds = Math.max(0, Math.round((nowMs - fromMs) / 1000));
    const up = Math.min(row.up, seconds);
    gateways.push({
      gateway: row.gateway,
      up_seconds: up,
      seconds,
      since: sql.dbDate(fromMs),
      uptime_percent: percentOf(up, seconds),
    });
  }
  const known = gateways.filter((g) => g.uptime_percent !== null);
  const average = known.length ? Math.round((known.reduce((sum, g) => sum + (g.uptime_percent ?? 0), 0) / known.length) * 10) / 10 : null;
  return { uptime_percent: average, gateways };
}

/**
 * The performance block for [startMs, nowMs), with the traffic and connections of the
 * previous period of the same length beside it.
 * @param {CoreApp} app
 * @param {number} startMs
 * @param {number} nowMs
 * @param {string} against  the caption's name of the previous period
 */
function performance(app, startMs, nowMs, against) {
  const start = sql.dbDate(startMs);
  const end = sql.dbDate(nowMs + 1);
  const prevStart = sql.dbDate(startMs - (nowMs - startMs));
  const traffic = trafficBetween(app, start, end);
  const previous = trafficBetween(app, prevStart, start);
  const uptime = uptimeSince(app, startMs, nowMs);
  return {
    ...connectsBetween(app, start, end),
    uptime_percent: uptime.uptime_percent,
    gateways: uptime.gateways,
    traffic,
    traffic_growth: growth(traffic.bytes, previous.bytes, against),
    connections_growth: growth(traffic.connections, previous.connections, against),
  };
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
      users: growth(periodNewUsers, prevUsers, against),
      revenue: growth(periodRevenue, prevRevenue, against),
      proxies: growth(newProxies, prevProxies, against),
      avg_revenue_per_user: growth(perUser(periodRevenue, totalUsers), perUser(prevRevenue, usersAtStart), against),
    },
    user_growth,
    revenue,
    proxy_usage: {
      by_type: types,
      by_country: byCountry.map((row) => ({ country: row.country || "Unknown", count: row.n })),
    },
    performance: performance(app, startMs, nowMs, against),
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

module.exports = { analytics, growth, percentOf, trafficBetween, connectsBetween, uptimeSince };
