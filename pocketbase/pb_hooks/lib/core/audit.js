// @ts-check
// The admin audit log. Rows are only ever written here, inside the transaction of the
// change they describe; the API refuses any direct write (audit.pb.js).

/** Field values never copied into the log. */
const REDACTED_FIELDS = ["password", "tokenKey"];

/**
 * @typedef {object} AuditEntry
 * @property {string} adminId     users id of the admin ("" when not a users record)
 * @property {string} action      e.g. "settings.update", "proxies.generate"
 * @property {string} targetType  usually the collection name
 * @property {string} targetId
 * @property {unknown} [details]
 */

/**
 * @param {CoreApp} txApp
 * @param {AuditEntry} entry
 * @returns {core.Record}
 */
function writeAuditLog(txApp, entry) {
  const record = new Record(txApp.findCachedCollectionByNameOrId("audit_logs"));
  record.set("admin_id", entry.adminId);
  record.set("action", entry.action);
  record.set("target_type", entry.targetType);
  record.set("target_id", entry.targetId);
  record.set("details", entry.details ?? {});
  txApp.save(record);
  return record;
}

/**
 * A record's field values as plain JSON, secrets replaced.
 * @param {core.Record} record
 * @returns {{[field: string]: unknown}}
 */
function snapshot(record) {
  /** @type {{[field: string]: unknown}} */
  const data = JSON.parse(JSON.stringify(record.publicExport()));
  for (const field of REDACTED_FIELDS) {
    if (field in data) data[field] = "[redacted]";
  }
  return data;
}

/**
 * Field-by-field changes between two snapshots: { field: { from, to } }.
 * @param {{[field: string]: unknown}} before
 * @param {{[field: string]: unknown}} after
 */
function diff(before, after) {
  /** @type {{[field: string]: { from: unknown, to: unknown }}} */
  const changes = {};
  for (const field of Object.keys(after)) {
    if (field === "updated") continue;
    if (JSON.stringify(before[field]) !== JSON.stringify(after[field])) {
      changes[field] = { from: before[field], to: after[field] };
    }
  }
  return changes;
}

/**
 * True when the request comes from a shop admin (a users record with is_admin).
 * @param {core.RequestEvent} e
 */
function isShopAdmin(e) {
  return !!e.auth && e.auth.collection().name === "users" && e.auth.getBool("is_admin");
}

/**
 * Runs a records-API write (e.next()) and, when a shop admin makes it, logs it in the
 * same transaction: a failed write leaves no log row, a failed log write undoes it.
 * In demo mode an admin's write is refused.
 * @param {core.RecordRequestEvent} e  a create, update or delete request event
 * @param {"create" | "update" | "delete"} action
 */
function auditAdminWrite(e, action) {
  if (!isShopAdmin(e) || !e.record) return e.next();
  require(`${__hooks}/lib/core/demo-mode.js`).refuseInDemoMode(e.app);
  const record = e.record;
  const collection = record.collection().name;
  // Taken before the write: the stored values an update changes, or the deleted row.
  const before = action === "create" ? {} : snapshot(action === "update" ? record.original() : record);
  e.app.runInTransaction((txApp) => {
    e.app = txApp;
    e.next();
    writeAuditLog(txApp, {
      adminId: e.auth?.id ?? "",
      action: `${collection}.${action}`,
      targetType: collection,
      targetId: record.id,
      details:
        action === "create"
          ? { record: snapshot(record) }
          : action === "update"
            ? { changes: diff(before, snapshot(record)) }
            : { record: before },
    });
  });
}

/** How long a caller's refusal on one route is logged once (ms), and how many refusals of one caller an hour are logged at most. */
const REFUSAL_WINDOW_MS = 10 * 60 * 1000;
const REFUSALS_PER_HOUR = 20;

/**
 * Where a request came from: the client's address and user agent (at most 300 characters).
 * @param {core.RequestEvent} e
 */
function origin(e) {
  // requestInfo(): in the record auth hooks e.request's header cannot be read from the JS VM.
  /** @type {string} */
  let agent = "";
  try {
    agent = String(e.requestInfo().headers["user_agent"] ?? "");
  } catch (_) {
    agent = "";
  }
  return { ip: e.realIP(), user_agent: agent.slice(0, 300) };
}

/**
 * After a shop admin signs in (onRecordAuthRequest, audit.pb.js): "admin.sign_in" with the
 * method (password, otp, oauth2), address and user agent (no target: the admin is the actor). An auth refresh or an impersonation
 * (no method) is not a sign-in; a sign-in that stops short (MFA asked, refused) is not logged.
 * @param {core.RecordAuthRequestEvent} e
 */
function auditSignIn(e) {
  e.next();
  const user = e.record;
  if (!user || !e.authMethod || user.collection().name !== "users" || !user.getBool("is_admin")) return;
  try {
    writeAuditLog(e.app, {
      adminId: user.id,
      action: "admin.sign_in",
      targetType: "",
      targetId: "",
      details: { method: e.authMethod, ...origin(e) },
    });
  } catch (err) {
    // The admin is signed in already (the answer is written): a failed log write is logged, not thrown.
    e.app.logger().error("admin sign-in not audited", "user", user.id, "error", String(err));
  }
}

/**
 * A signed-in user who is not a shop admin refused on an /api/admin/ route: "admin.refused"
 * with no admin, the caller as the target, the method, route, address and user agent.
 * Logged once per caller and route in 10 minutes and at most 20 times per caller an hour,
 * so nobody floods the log by repeating calls. Anonymous callers are not logged: they have
 * no account to name (PocketBase's request log keeps their address).
 * Written on its own (the refusal that follows undoes nothing).
 * @param {core.RequestEvent} e
 * @param {core.Record} caller
 */
function auditRefused(e, caller) {
  try {
    logRefusal(e, caller);
  } catch (err) {
    // The refusal stands whatever happens to its log row.
    e.app.logger().error("admin refusal not audited", "user", caller.id, "error", String(err));
  }
}

/**
 * @param {core.RequestEvent} e
 * @param {core.Record} caller
 */
function logRefusal(e, caller) {
  const method = e.request?.method ?? "";
  const route = e.request?.url?.path ?? "";
  const now = Date.now();
  /** @type {typeof import("./sql.js")} */
  const sql = require(`${__hooks}/lib/core/sql.js`);
  const seen = new DynamicModel({ hour: 0, same: 0 });
  e.app
    .db()
    .newQuery(
      `SELECT COUNT(*) AS hour,
              COALESCE(SUM(created >= {:recent} AND json_extract(details, '$.method') = {:method}
                           AND json_extract(details, '$.route') = {:route}), 0) AS same
       FROM audit_logs WHERE action = 'admin.refused' AND created >= {:hourAgo} AND target_id = {:caller}`,
    )
    .bind({
      recent: sql.dbDate(now - REFUSAL_WINDOW_MS),
      hourAgo: sql.dbDate(now - 3600000),
      method,
      route,
      caller: caller.id,
    })
    .one(seen);
  if (seen.same > 0 || seen.hour >= REFUSALS_PER_HOUR) return;
  writeAuditLog(e.app, {
    adminId: "",
    action: "admin.refused",
    targetType: "users",
    targetId: caller.id,
    details: { method, route, ...origin(e) },
  });
}

module.exports = { writeAuditLog, auditAdminWrite, isShopAdmin, auditSignIn, auditRefused };
