// @ts-check
/// <reference path="../types/pocketbase.d.ts" />
// The admin audit log: every write a shop admin makes through the records API to the
// audited collections is logged in the same transaction as the write
// (lib/core/audit.js auditAdminWrite); the log itself is append-only; the console reads it
// (route docs on the functions in lib/audit/audit-log.js). This file's name sorts before
// the other files that bind these collections' request hooks, so its hooks wrap theirs.

// The routes: lib/api/routes.js (audit).
require(`${__hooks}/lib/core/routes.js`).register(require(`${__hooks}/lib/api/routes.js`).audit, (/** @type {core.RequestEvent} */ e) =>
  require(`${__hooks}/lib/core/routes.js`).dispatch(e, require(`${__hooks}/lib/api/routes.js`).audit),
);

const AUDITED = ["settings", "pricing_plans", "proxies", "support_tickets", "contact_messages"];
onRecordCreateRequest((e) => require(`${__hooks}/lib/core/audit.js`).auditAdminWrite(e, "create"), ...AUDITED);
onRecordUpdateRequest((e) => require(`${__hooks}/lib/core/audit.js`).auditAdminWrite(e, "update"), ...AUDITED);
onRecordDeleteRequest((e) => require(`${__hooks}/lib/core/audit.js`).auditAdminWrite(e, "delete"), ...AUDITED);

// A shop admin's sign-in (password, code or OAuth2; not a token refresh) is audited
// "admin.sign_in" with the address and user agent. Refused customers on /api/admin/* are
// audited by the admin guard (lib/core/admin.js requireAdmin).
onRecordAuthRequest((e) => require(`${__hooks}/lib/core/audit.js`).auditSignIn(e), "users");

// Not even a superuser edits the log through the API.
onRecordCreateRequest(() => {
  throw new ForbiddenError("Audit log entries are written by the server only.");
}, "audit_logs");
onRecordUpdateRequest(() => {
  throw new ForbiddenError("Audit log entries cannot be changed.");
}, "audit_logs");
onRecordDeleteRequest(() => {
  throw new ForbiddenError("Audit log entries cannot be deleted.");
}, "audit_logs");
