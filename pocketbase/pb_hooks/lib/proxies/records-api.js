// @ts-check
// The records API on `proxies` (the hooks in proxies.pb.js):
// - passwords encrypted at rest (lib/proxies/credentials.js): `password_encrypted` is
//   hidden; whoever may view a proxy (its owner, admins; records API list/view, realtime)
//   reads the plaintext as `password`. Writes (admins, superusers) send a plain `password`,
//   sealed before the save.
// - owner, status and term are the server's only (security review #13, finding 6): no
//   records-API write sets a proxy's owner, status, expiry, auto-renewal, expiry notice or
//   term start (term_started_at, where its quota's month begins: #26 finding 12),
//   superusers (the dashboard) included, as for the money collections (money.pb.js): a new
//   proxy starts Available with none of them, and an update never changes them. Purchases,
//   renewals, refunds and expiry save through app.save() (no request hooks); admins change
//   them through Proxy Management's audited PATCH /api/admin/proxies/{id}.

/** @type {typeof import("./credentials.js")} */
const credentials = require(`${__hooks}/lib/proxies/credentials.js`);

/** The fields only the server writes: purchases, renewals, refunds, expiry, console routes. */
const SERVER_FIELDS = [
  "assigned_to_user_id",
  "status",
  "expires_at",
  "auto_renew",
  "expiry_notice_sent_at",
  "term_started_at",
  // The upstream health job's and the replacements' marks (issue #28, lib/proxies/upstream-health.js).
  "withdrawn_at",
  "exit_down_at",
  "replacements_used",
  "replacements_for",
];
const SERVER_FIELDS_MESSAGE =
  "A proxy's owner, status, expiry and auto-renewal cannot be set through the records API: change them in the console's Proxy Management (PATCH /api/admin/proxies/{id}), which audits every change.";

/**
 * onRecordEnrich: the plaintext `password` for whoever may view the proxy, and `ports`,
 * every gateway port its type may use (lib/proxies/gateway-endpoint.js). Where the proxy
 * exits (exit, bind_address, upstream_*) is hidden: the records API never shows it.
 * @param {core.RecordEnrichEvent} e
 */
function addPassword(e) {
  const record = /** @type {core.Record} */ (e.record);
  require(`${__hooks}/lib/proxies/gateway-endpoint.js`).withPorts(record);
  try {
    credentials.withPassword(record);
  } catch (err) {
    // One damaged value must not hide a customer's whole list; it is logged loudly.
    e.app.logger().error("proxy password cannot be decrypted", "proxy", record.id, "error", String(err));
    record.withCustomData(true);
    record.set("password", "");
  }
  e.next();
}

/**
 * onRecordCreateRequest: the password sealed, and a new proxy Available with no owner,
 * expiry, auto-renewal or expiry notice (403 otherwise).
 * @param {core.RecordRequestEvent} e
 */
function checkCreate(e) {
  credentials.sealRequestPassword(e, true);
  const record = e.record;
  const clean =
    !record ||
    (record.getString("status") === "AVAILABLE" &&
      record.getString("assigned_to_user_id") === "" &&
      record.getString("expires_at") === "" &&
      !record.getBool("auto_renew") &&
      record.getString("expiry_notice_sent_at") === "");
  if (!clean) {
    throw new ForbiddenError(
      "A new proxy starts Available, with no owner, expiry or auto-renewal: customers get proxies by buying them, and admins change a proxy's status in the console's Proxy Management.",
    );
  }
  e.next();
}

/**
 * onRecordUpdateRequest: a new password sealed, and the server's fields left as they are
 * (403 naming the first one changed).
 * @param {core.RecordRequestEvent} e
 */
function checkUpdate(e) {
  const changed = credentials.sealRequestPassword(e, false);
  if (e.record) {
    const stored = e.record.original();
    for (const field of SERVER_FIELDS) {
      if (String(e.record.get(field)) !== String(stored.get(field))) {
        throw new ForbiddenError(SERVER_FIELDS_MESSAGE, { [field]: new ValidationError("server_field", SERVER_FIELDS_MESSAGE) });
      }
    }
  }
  e.next();
  // The answer is written; the audit row (lib/core/audit.js, after this) lists the password as
  // changed ("[redacted]") only when it was.
  if (!changed) e.record?.withCustomData(false);
}

module.exports = { SERVER_FIELDS, addPassword, checkCreate, checkUpdate };
