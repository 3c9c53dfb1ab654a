// @ts-check
// The proxies domain's webhook events (issue #18), queued through lib/webhooks/events.js in
// the transaction of the change they report:
// - proxy.expiring       the expiry job's reminder step (lib/proxies/expiry.js), 3 days
//                        (REMINDER_DAYS) before the expiry, once per term: {proxy, expires_at}
// - proxy.expired        the expiry job, when it expires a proxy: {proxy}
// - proxy.quota_reached  the webhook events job below (events.pb.js, every minute): a proxy's
//                        UTC month (of its current owner's term, as the quota counts it)
//                        reaching 80% and 100% of its bandwidth quota, once each a month:
//                        {proxy, level, bytes, quota_bytes}
// Proxies are the API's proxy view WITHOUT the password (lib/webhooks/events.js publicProxy).

/** @typedef {import("../webhooks/events.js").PublicProxy} PublicProxy */

/** @type {typeof import("../webhooks/events.js")} */
const events = require(`${__hooks}/lib/webhooks/events.js`);

/**
 * The proxies `ids` as webhook bodies show them (no password), in the order of `ids`.
 * @param {CoreApp} app
 * @param {string[]} ids
 * @returns {PublicProxy[]}
 */
function publicProxies(app, ids) {
  if (ids.length === 0) return [];
  /** @type {typeof import("./proxies.js")} */
  const proxies = require(`${__hooks}/lib/proxies/proxies.js`);
  /** @type {typeof import("../core/sql.js")} */
  const sql = require(`${__hooks}/lib/core/sql.js`);
  /** @type {typeof import("../core/views.js")} */
  const views = require(`${__hooks}/lib/core/views.js`);
  const list = sql.inList("id", ids);
  const rows = proxies.proxyRows();
  app.db().newQuery(`SELECT ${proxies.PROXY_COLUMNS} FROM proxies WHERE ${list.sql}`).bind(list.params).all(rows);
  rows.sort((a, b) => ids.indexOf(a.id) - ids.indexOf(b.id));
  return rows.map((row) => events.publicProxy(views.proxyView({ ...row, password: "" })));
}

/**
 * proxy.expiring for a customer's proxies `ids`, inside the transaction that marks their
 * reminder sent (once per term: a renewal or purchase clears the marker).
 * @param {CoreApp} txApp
 * @param {string} userId
 * @param {string[]} ids
 */
function proxiesExpiring(txApp, userId, ids) {
  /** @type {typeof import("../webhooks/queue.js")} */
  const queue = require(`${__hooks}/lib/webhooks/queue.js`);
  const endpoints = queue.subscribedEndpoints(txApp, userId, "proxy.expiring");
  if (endpoints.length === 0) return 0;
  let queued = 0;
  for (const proxy of publicProxies(txApp, ids)) {
    queued += events.enqueueTo(txApp, endpoints, userId, "proxy.expiring", { proxy, expires_at: proxy.expires_at });
  }
  return queued;
}

/**
 * proxy.expired for proxies the expiry job has just expired, inside its transaction.
 * @param {CoreApp} txApp
 * @param {{ id: string, user_id: string }[]} rows
 */
function proxiesExpired(txApp, rows) {
  /** @type {typeof import("../webhooks/queue.js")} */
  const queue = require(`${__hooks}/lib/webhooks/queue.js`);
  /** @type {Map<string, string[]>} */
  const byUser = new Map();
  for (const row of rows) byUser.set(row.user_id, [...(byUser.get(row.user_id) ?? []), row.id]);
  let queued = 0;
  for (const [userId, ids] of byUser) {
    const endpoints = queue.subscribedEndpoints(txApp, userId, "proxy.expired");
    if (endpoints.length === 0) continue;
    for (const proxy of publicProxies(txApp, ids)) queued += events.enqueueTo(txApp, endpoints, userId, "proxy.expired", { proxy });
  }
  return queued;
}

// ---- proxy.quota_reached: the webhook events job ------------------------------------

/**
 * The UTC month of `ms`: its key ("2026-11") and first instant.
 * @param {number} ms
 */
function monthOf(ms) {
  const d = new Date(ms);
  const start = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
  return { key: new Date(start).toISOString().slice(0, 7), start };
}

/**
 * The level a month's usage has reached: 100 at or past the quota, 80 at or past 80% of
 * it, else 0.
 * @param {number} bytes
 * @param {number} quotaBytes  > 0
 * @returns {0 | 80 | 100}
 */
function quotaLevel(bytes, quotaBytes) {
  if (bytes >= quotaBytes) return 100;
  if (bytes * 100 >= quotaBytes * 80) return 80;
  return 0;
}

/**
 * Announces proxy.quota_reached for every assigned proxy with a quota whose month reached a
 * level not announced yet this month (only the highest one reached: a month that jumps
 * past 100% at once gets one event, level 100). Only proxies whose owner has an enabled
 * endpoint that may subscribe to it are read (the month's usage as its quota counts it:
 * the current owner's term, lib/proxies/usage.js monthBytesSql, one lookup of the (proxy_id,
 * user_id, hour) index each), so a shop without such endpoints pays one small query a minute.
 * Each announcement marks the proxy (quota_notice_month/level) in the transaction that
 * queues it, so two runs side by side announce once.
 * @param {CoreApp} app
 * @param {number} [nowMs]
 * @returns {number} how many proxies were announced
 */
function announceQuotas(app, nowMs = Date.now()) {
  /** @type {typeof import("../core/sql.js")} */
  const sql = require(`${__hooks}/lib/core/sql.js`);
  /** @type {typeof import("./usage.js")} */
  const usage = require(`${__hooks}/lib/proxies/usage.js`);
  const month = monthOf(nowMs);
  const rows = sql.rowsLike({ id: "", user_id: "", bytes: 0, quota_bytes: 0, notice_month: "", notice_level: 0 });
  app
    .db()
    .newQuery(
      `SELECT * FROM (
         SELECT p.id, p.assigned_to_user_id AS user_id, ${usage.monthBytesSql("p")} AS bytes,
           CAST(p.bandwidth_quota_bytes AS INTEGER) AS quota_bytes, p.quota_notice_month AS notice_month,
           CAST(p.quota_notice_level AS INTEGER) AS notice_level
         FROM proxies p
         WHERE p.assigned_to_user_id IN (
             SELECT w.user FROM webhook_endpoints w WHERE w.enabled = TRUE AND w.events LIKE '%proxy.quota_reached%')
           AND p.status = 'ASSIGNED' AND p.bandwidth_quota_bytes > 0
           AND NOT (p.quota_notice_month = {:notice_month} AND p.quota_notice_level >= 100))
       WHERE bytes * 100 >= quota_bytes * 80`,
    )
    .bind({ ...usage.monthParams(nowMs), notice_month: month.key })
    .all(rows);
  /** @type {typeof import("../webhooks/queue.js")} */
  const queue = require(`${__hooks}/lib/webhooks/queue.js`);
  let announced = 0;
  for (const row of rows) {
    const level = quotaLevel(row.bytes, row.quota_bytes);
    const before = row.notice_month === month.key ? row.notice_level : 0;
    if (level <= before) continue;
    app.runInTransaction((txApp) => {
      const marked = txApp
        .db()
        .newQuery(
          `UPDATE proxies SET quota_notice_month = {:month}, quota_notice_level = {:level}
           WHERE id = {:id} AND status = 'ASSIGNED' AND assigned_to_user_id = {:user}
             AND NOT (quota_notice_month = {:month} AND quota_notice_level >= {:level})`,
        )
        .bind({ id: row.id, user: row.user_id, month: month.key, level })
        .execute()
        .rowsAffected();
      if (marked === 0) return; // a run beside this one announced it
      const [proxy] = publicProxies(txApp, [row.id]);
      queue.enqueue(txApp, row.user_id, "proxy.quota_reached", { proxy, level, bytes: row.bytes, quota_bytes: row.quota_bytes });
      announced += 1;
    });
  }
  return announced;
}

/**
 * Runs the webhook events job once (the quota announcements); returns what it did.
 * @param {CoreApp} app
 */
function runEventsJob(app) {
  return { quota_reached: announceQuotas(app) };
}

/** The cron "webhook_events", every minute: runs the job and logs what it did, if anything. */
function runScheduled() {
  const report = runEventsJob($app);
  if (report.quota_reached > 0) $app.logger().info("Webhook events job", "report", JSON.stringify(report));
}

/**
 * POST /api/admin/jobs/webhook-events: runs the job now and answers its report (superusers
 * only; tests use it instead of waiting for the cron).
 * @param {core.RequestEvent} e
 */
function runJobRoute(e) {
  return e.json(200, runEventsJob(e.app));
}

module.exports = {
  proxiesExpiring,
  proxiesExpired,
  quotaLevel,
  announceQuotas,
  runEventsJob,
  runScheduled,
  runJobRoute,
};
