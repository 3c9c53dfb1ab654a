// @ts-check
/// <reference path="../types/pocketbase.d.ts" />
// The demo accounts (users.is_demo, set by the demo seed) have published passwords. While
// the demo_mode setting is on (security review #13, finding 5), nobody but a superuser can
// change them and they cannot spend: no records-API update of their user row (names,
// country, e-mail, password, onboarding ...), no password reset or e-mail change, and none
// of the customer routes that buy or change a proxy or buy credits (purchase, renew,
// auto-renew, regenerate credentials, credits checkout). Reads and support tickets work.
// Every refusal is 403 with lib/audit/admin.js DEMO_ACCOUNT_MESSAGE. The customer routes that
// spend or change a proxy refuse through lib/core/api.js actingCustomer (a check on those routes
// only, not a middleware every request pays for); the console's own routes are read-only in
// demo mode already (lib/audit/admin.js requireAdminWrite).

// The user row: only a superuser (the PocketBase dashboard) changes a demo account in demo
// mode, whoever else asks (the account itself, or an admin managing users).
onRecordUpdateRequest((e) => {
  if (e.record && !e.hasSuperuserAuth()) require(`${__hooks}/lib/audit/admin.js`).refuseDemoAccount(e.app, e.record.original());
  e.next();
}, "users");

onRecordConfirmPasswordResetRequest((e) => {
  require(`${__hooks}/lib/audit/admin.js`).refuseDemoAccount(e.app, e.record);
  e.next();
}, "users");

onRecordRequestEmailChangeRequest((e) => {
  if (!e.hasSuperuserAuth()) require(`${__hooks}/lib/audit/admin.js`).refuseDemoAccount(e.app, e.record);
  e.next();
}, "users");

onRecordConfirmEmailChangeRequest((e) => {
  require(`${__hooks}/lib/audit/admin.js`).refuseDemoAccount(e.app, e.record);
  e.next();
}, "users");
