// @ts-check
/// <reference path="../types/pocketbase.d.ts" />
// Users: every new user (sign-up route, dashboard, seed) gets its balance and affiliate
// rows in the same transaction; a user can never raise their own rights or change
// their e-mail through the API.

onRecordCreate((e) => {
  /** @type {typeof import("./lib/new-user.js")} */
  const { provisionUser } = require(`${__hooks}/lib/new-user.js`);
  e.app.runInTransaction((txApp) => {
    e.app = txApp;
    e.next();
    provisionUser(txApp, e.record?.id ?? "");
  });
}, "users");

// Defence in depth only: the update rule (1764000000_users.js) is the real check and
// answers 404 first; should it ever loosen, privileged fields still keep their stored values.
onRecordUpdateRequest((e) => {
  if (!e.hasSuperuserAuth() && e.record) {
    const stored = e.record.original();
    for (const field of ["is_admin", "verified", "emailVisibility"]) {
      e.record.set(field, stored.get(field));
    }
    e.record.setEmail(stored.email());
  }
  e.next();
}, "users");

onRecordRequestEmailChangeRequest((e) => {
  if (!e.hasSuperuserAuth()) {
    throw new ForbiddenError("Contact support to change your email address.");
  }
  e.next();
}, "users");
