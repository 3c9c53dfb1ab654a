// @ts-check
/// <reference path="../types/pocketbase.d.ts" />
// Every write a shop admin makes through the API to the audited collections is logged
// in the same transaction as the write (lib/audit/audit.js auditAdminWrite).

onRecordCreateRequest(
  (e) => {
    /** @type {typeof import("./lib/audit/audit.js")} */
    const audit = require(`${__hooks}/lib/audit/audit.js`);
    audit.auditAdminWrite(e, "create");
  },
  "settings",
  "pricing_plans",
  "proxies",
  "support_tickets",
  "contact_messages",
);

onRecordUpdateRequest(
  (e) => {
    /** @type {typeof import("./lib/audit/audit.js")} */
    const audit = require(`${__hooks}/lib/audit/audit.js`);
    audit.auditAdminWrite(e, "update");
  },
  "settings",
  "pricing_plans",
  "proxies",
  "support_tickets",
  "contact_messages",
);

onRecordDeleteRequest(
  (e) => {
    /** @type {typeof import("./lib/audit/audit.js")} */
    const audit = require(`${__hooks}/lib/audit/audit.js`);
    audit.auditAdminWrite(e, "delete");
  },
  "settings",
  "pricing_plans",
  "proxies",
  "support_tickets",
  "contact_messages",
);

// The log is append-only: not even a superuser edits it through the API.
onRecordCreateRequest(() => {
  throw new ForbiddenError("Audit log entries are written by the server only.");
}, "audit_logs");

onRecordUpdateRequest(() => {
  throw new ForbiddenError("Audit log entries cannot be changed.");
}, "audit_logs");

onRecordDeleteRequest(() => {
  throw new ForbiddenError("Audit log entries cannot be deleted.");
}, "audit_logs");
