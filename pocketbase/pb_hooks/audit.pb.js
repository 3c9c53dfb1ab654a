// @ts-check
/// <reference path="../types/pocketbase.d.ts" />
// Every write a shop admin makes through the API to the audited collections is logged
// in the same transaction as the write (a failed write leaves no log row, and a failed
// log write undoes the change).

onRecordCreateRequest((e) => {
  /** @type {typeof import("./lib/audit.js")} */
  const audit = require(`${__hooks}/lib/audit.js`);
  if (!audit.isShopAdmin(e) || !e.record) return e.next();
  const record = e.record;
  const collection = record.collection().name;
  e.app.runInTransaction((txApp) => {
    e.app = txApp;
    e.next();
    audit.writeAuditLog(txApp, {
      adminId: e.auth?.id ?? "",
      action: `${collection}.create`,
      targetType: collection,
      targetId: record.id,
      details: { record: audit.snapshot(record) },
    });
  });
}, "settings", "pricing_plans", "proxies", "support_tickets", "contact_messages");

onRecordUpdateRequest((e) => {
  /** @type {typeof import("./lib/audit.js")} */
  const audit = require(`${__hooks}/lib/audit.js`);
  if (!audit.isShopAdmin(e) || !e.record) return e.next();
  const record = e.record;
  const collection = record.collection().name;
  const before = audit.snapshot(record.original());
  e.app.runInTransaction((txApp) => {
    e.app = txApp;
    e.next();
    audit.writeAuditLog(txApp, {
      adminId: e.auth?.id ?? "",
      action: `${collection}.update`,
      targetType: collection,
      targetId: record.id,
      details: { changes: audit.diff(before, audit.snapshot(record)) },
    });
  });
}, "settings", "pricing_plans", "proxies", "support_tickets", "contact_messages");

onRecordDeleteRequest((e) => {
  /** @type {typeof import("./lib/audit.js")} */
  const audit = require(`${__hooks}/lib/audit.js`);
  if (!audit.isShopAdmin(e) || !e.record) return e.next();
  const record = e.record;
  const collection = record.collection().name;
  const before = audit.snapshot(record);
  e.app.runInTransaction((txApp) => {
    e.app = txApp;
    e.next();
    audit.writeAuditLog(txApp, {
      adminId: e.auth?.id ?? "",
      action: `${collection}.delete`,
      targetType: collection,
      targetId: record.id,
      details: { record: before },
    });
  });
}, "settings", "pricing_plans", "proxies", "support_tickets", "contact_messages");

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
