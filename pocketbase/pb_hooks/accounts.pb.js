/// <reference path="../types/pocketbase.d.ts" />
// @ts-check
// Accounts: sign-up without a shared password, password_set tracking, server-side
// password strength, and the environment-driven mail settings. Helpers: lib/accounts.js.

// Mail settings (SMTP, sender) and SHOP_AUTH_RATE_LIMIT from the environment, on every start.
onBootstrap((e) => {
  e.next();
  require(`${__hooks}/lib/accounts.js`).applyEnvSettings(e.app);
});

// POST /api/shop/signup {first_name, last_name, email, country, ref?}
// Creates the account with a random secret nobody learns (the user signs in later with
// an e-mailed code or a password they set), links the referral, and signs the browser in.
routerAdd("POST", "/api/shop/signup", (e) => {
  const lib = require(`${__hooks}/lib/accounts.js`);
  const input = lib.validateSignup(e.requestInfo().body);
  const duplicate = () =>
    new BadRequestError("An account with this email already exists. Please sign in instead.", {
      email: new ValidationError("validation_not_unique", "An account with this email already exists"),
    });

  /** @type {core.Record | null} */
  let existing = null;
  try {
    existing = e.app.findAuthRecordByEmail("users", input.email);
  } catch (_) {
    // no such account
  }
  if (existing) throw duplicate();

  const users = e.app.findCollectionByNameOrId("users");
  const record = new Record(users);
  try {
    e.app.runInTransaction((txApp) => {
      record.set("email", input.email);
      record.set("first_name", input.first_name);
      record.set("last_name", input.last_name);
      record.set("country", input.country);
      record.set("verified", false);
      record.set("password_set", false);
      record.setPassword($security.randomString(48));
      record.set(lib.SIGNUP_MARKER, true);
      txApp.save(record);
      lib.linkReferral(txApp, record, input.ref);
    });
  } catch (err) {
    const message = String(err);
    if (/not_unique|must be unique/i.test(message)) throw duplicate();
    throw err;
  }

  return $apis.recordAuthResponse(e, record, "", null);
});

// password_set: false only for accounts made by sign-up (random secret), true otherwise.
onRecordCreate((e) => {
  const { SIGNUP_MARKER } = require(`${__hooks}/lib/accounts.js`);
  if (e.record && e.record.get(SIGNUP_MARKER) !== true) e.record.set("password_set", true);
  e.next();
}, "users");

// A password the person chose (settings form with oldPassword, reset link, superuser)
// sets password_set. Not a model hook: an OTP sign-in of an unverified account
// randomizes the password (PocketBase's guard against pre-registration), which must
// not count as "has a password".
// The new password must pass the forms' strength rules (checked after PocketBase's own
// token/confirm validation, before anything is saved).
onRecordConfirmPasswordResetRequest((e) => {
  require(`${__hooks}/lib/accounts.js`).assertStrongPassword(e.requestInfo().body["password"]);
  if (e.record) e.record.set("password_set", true);
  e.next();
}, "users");

// The browser may never write password_set (the update rule does not cover it; e-mail
// and the other privileged fields are the rule's, see 1764000000_users.js). A new
// password a user chooses (settings form, with oldPassword) must pass the strength
// rules; superusers set passwords unchecked.
onRecordUpdateRequest((e) => {
  const body = e.requestInfo().body;
  const record = e.record;
  if (!record) return e.next();
  const newPassword = typeof body["password"] === "string" && body["password"] !== "";
  if (!e.hasSuperuserAuth()) {
    if (body["password_set"] !== undefined) {
      throw new ForbiddenError("You are not allowed to change this field.");
    }
    if (newPassword) require(`${__hooks}/lib/accounts.js`).assertStrongPassword(body["password"]);
  }
  if (newPassword) record.set("password_set", true);
  e.next();
}, "users");

// affiliates.total_referrals counts only referred users who verified their e-mail
// (first successful e-mailed-code sign-in, or the verification link), so unverified
// sign-ups with someone's code do not inflate it. Recounted in the save's transaction
// whenever `verified` changes.
onRecordUpdate((e) => {
  const record = e.record;
  if (!record) return e.next();
  const wasVerified = record.original().getBool("verified");
  e.app.runInTransaction((txApp) => {
    e.app = txApp;
    e.next();
    if (record.getBool("verified") !== wasVerified) {
      require(`${__hooks}/lib/accounts.js`).recountReferrals(txApp, record.id);
    }
  });
}, "users");

// A referral that goes away (its user deleted) no longer counts. After the commit, so a
// cascade that also deletes the affiliate finds nothing to update.
onRecordAfterDeleteSuccess((e) => {
  e.next();
  if (!e.record) return;
  require(`${__hooks}/lib/accounts.js`).recountAffiliate(e.app, e.record.getString("affiliate_id"));
}, "referrals");
