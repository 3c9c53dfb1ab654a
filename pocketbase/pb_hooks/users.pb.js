// @ts-check
/// <reference path="../types/pocketbase.d.ts" />
// Every hook on the users collection. New users (sign-up route, dashboard, seed) get their
// balance and affiliate rows in the transaction that creates them; a user can never raise
// their own rights or change their e-mail through the API; passwords a person chooses
// must be strong and mark password_set; referral counts follow e-mail verification.
// Helpers: lib/accounts/new-user.js, lib/accounts/accounts.js.

// Provisioning, and password_set: false only for accounts made by sign-up (their secret is
// random and nobody knows it), true for every other way of creating a user.
onRecordCreate((e) => {
  /** @type {typeof import("./lib/accounts/new-user.js")} */
  const { provisionUser } = require(`${__hooks}/lib/accounts/new-user.js`);
  const { SIGNUP_MARKER } = require(`${__hooks}/lib/accounts/accounts.js`);
  const record = e.record;
  if (record && record.get(SIGNUP_MARKER) !== true) record.set("password_set", true);
  e.app.runInTransaction((txApp) => {
    e.app = txApp;
    e.next();
    provisionUser(txApp, record?.id ?? "");
  });
}, "users");

// Privileged fields keep their stored values (defence in depth: the update rule in
// 1764000000_users.js answers 404 first). The browser may never write password_set; a new
// password a user chooses (settings form, with oldPassword) must pass the strength rules
// and sets password_set. Superusers set passwords unchecked.
onRecordUpdateRequest((e) => {
  const record = e.record;
  if (!record) return e.next();
  const body = e.requestInfo().body;
  const newPassword = typeof body["password"] === "string" && body["password"] !== "";
  if (!e.hasSuperuserAuth()) {
    if (body["password_set"] !== undefined) {
      throw new ForbiddenError("You are not allowed to change this field.");
    }
    const stored = record.original();
    for (const field of ["is_admin", "verified", "emailVisibility"]) {
      record.set(field, stored.get(field));
    }
    record.setEmail(stored.email());
    if (newPassword) require(`${__hooks}/lib/accounts/accounts.js`).assertStrongPassword(body["password"]);
  }
  if (newPassword) record.set("password_set", true);
  e.next();
}, "users");

// A password set through an e-mailed link must be strong too (checked after PocketBase's
// own token/confirm validation, before anything is saved), and counts as chosen. Not a
// model hook: an OTP sign-in of an unverified account randomizes the password
// (PocketBase's guard against pre-registration), which must not count as "has a password".
onRecordConfirmPasswordResetRequest((e) => {
  require(`${__hooks}/lib/accounts/accounts.js`).assertStrongPassword(e.requestInfo().body["password"]);
  if (e.record) e.record.set("password_set", true);
  e.next();
}, "users");

// Verification of an account made by sign-up by someone who holds no session of it (the
// link opened on another device, or by the address's real owner after an impostor signed
// up with it): every earlier session ends (a new token key), the referral the sign-up chose
// is dropped, and the visitor who opened the link is signed in (the link proved the
// mailbox, as an e-mailed code does). The token key change also spends the link. Opened in
// the browser that signed up (its session sent along), nothing changes but `verified`.
onRecordConfirmVerificationRequest((e) => {
  /** @type {typeof import("./lib/accounts/accounts.js")} */
  const accounts = require(`${__hooks}/lib/accounts/accounts.js`);
  const record = e.record;
  if (!record || !accounts.verifiesWithoutSignupSession(e, record)) return e.next();
  e.app.runInTransaction((txApp) => {
    accounts.dropSignupReferral(txApp, record.id);
    record.setVerified(true);
    record.refreshTokenKey();
    txApp.save(record);
  });
  e.app.store().remove(`@limitVerificationEmail_${record.collection().id}${record.id}`);
  // The answer of a sign-in ({token, record}); $apis.recordAuthResponse needs the bare
  // request event, which this hook's event only embeds. The owner sees their own e-mail.
  record.ignoreEmailVisibility(true);
  return e.json(200, { token: record.newAuthToken(), record });
}, "users");

// The same for a first sign-in with an e-mailed code: PocketBase verifies the account and
// gives it a new random password (so a new token key: earlier sessions end); the referral
// of a sign-up whose session is not the one signing in is dropped.
onRecordAuthWithOTPRequest((e) => {
  /** @type {typeof import("./lib/accounts/accounts.js")} */
  const accounts = require(`${__hooks}/lib/accounts/accounts.js`);
  const record = e.record;
  if (record && accounts.verifiesWithoutSignupSession(e, record)) {
    e.app.runInTransaction((txApp) => {
      accounts.dropSignupReferral(txApp, record.id);
    });
  }
  return e.next();
}, "users");

onRecordRequestEmailChangeRequest((e) => {
  if (!e.hasSuperuserAuth()) {
    throw new ForbiddenError("Contact support to change your email address.");
  }
  e.next();
}, "users");

// When `verified` changes (first successful e-mailed-code sign-in, the verification link,
// a superuser), in the save's transaction: affiliates.total_referrals is recounted (only
// verified referred users count, so unverified sign-ups with someone's code do not
// inflate it), and an account verifying for the first time gets the welcome credit.
onRecordUpdate((e) => {
  const record = e.record;
  if (!record) return e.next();
  const wasVerified = record.original().getBool("verified");
  e.app.runInTransaction((txApp) => {
    e.app = txApp;
    e.next();
    if (record.getBool("verified") !== wasVerified) {
      /** @type {typeof import("./lib/accounts/accounts.js")} */
      const accounts = require(`${__hooks}/lib/accounts/accounts.js`);
      accounts.recountReferrals(txApp, record.id);
      if (record.getBool("verified")) accounts.grantWelcomeCredit(txApp, record.id);
    }
  });
}, "users");
