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
  require(`${__hooks}/lib/settings/demo-mode.js`).refuseInDemoMode(e.app);
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

module.exports = { writeAuditLog, auditAdminWrite, isShopAdmin };
