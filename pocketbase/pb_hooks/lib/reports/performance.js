// @ts-check
// The Analytics page's performance block, from the gateway's metering (gateway_stats,
// proxy_usage: hourly rows, so the period is counted by the hours that begin in it):
// connection success rate, the median connect time (the histogram bucket holding it), each
// gateway's uptime and the traffic and connections of the period against the previous one.
// The audit log's summary shows the same uptime (lib/audit/audit-log.js).

/** @type {typeof import("../core/sql.js")} */
const sql = require(`${__hooks}/lib/core/sql.js`);

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
 * connections that reached their target and that failed, the clients refused apart (407,
 * 429: never connections), the success rate (ok / (ok +
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
  const shape = { ok: 0, failed: 0, refused: 0 };
  const sums = [
    "COALESCE(SUM(connections_ok), 0) AS ok",
    "COALESCE(SUM(connections_failed), 0) AS failed",
    "COALESCE(SUM(connections_refused), 0) AS refused",
  ];
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
    connections_refused: row.refused,
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
 * `traffic` (proxy_usage bytes) with the one count of connections the reports use (issue
 * #28): the gateways' authorised attempts (gateway_stats), `connects`' ok + failed.
 * @param {ReturnType<typeof trafficBetween>} traffic
 * @param {{connections_ok: number, connections_failed: number}} connects
 */
function withConnections(traffic, connects) {
  return {
    ...traffic,
    connections: connects.connections_ok + connects.connections_failed,
    failed_connections: connects.connections_failed,
  };
}

/**
 * The performance block for [startMs, nowMs), with the traffic and connections of the
 * previous period of the same length beside it. A connection is counted one way everywhere:
 * an authorised attempt through a gateway (gateway_stats), which reached its target or
 * failed; refused clients (407, 429) are connections_refused, apart.
 * @param {CoreApp} app
 * @param {number} startMs
 * @param {number} nowMs
 * @param {string} against  the caption's name of the previous period
 */
function performance(app, startMs, nowMs, against) {
  const start = sql.dbDate(startMs);
  const end = sql.dbDate(nowMs + 1);
  const prevStart = sql.dbDate(startMs - (nowMs - startMs));
  const connects = connectsBetween(app, start, end);
  const traffic = withConnections(trafficBetween(app, start, end), connects);
  const previous = withConnections(trafficBetween(app, prevStart, start), connectsBetween(app, prevStart, start));
  const uptime = uptimeSince(app, startMs, nowMs);
  return {
    ...connects,
    uptime_percent: uptime.uptime_percent,
    gateways: uptime.gateways,
    traffic,
    traffic_growth: growth(traffic.bytes, previous.bytes, against),
    connections_growth: growth(traffic.connections, previous.connections, against),
  };
}

module.exports = { percentOf, growth, trafficBetween, connectsBetween, withConnections, uptimeSince, performance };
