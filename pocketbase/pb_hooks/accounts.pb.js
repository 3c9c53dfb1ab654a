/// <reference path="../types/pocketbase.d.ts" />
// @ts-check
// Accounts: sign-up without a shared password, the environment-driven mail settings and
// referral counts. The users collection's own hooks are in users.pb.js. Helpers:
// lib/accounts/accounts.js.

// Mail settings (SMTP, sender) and SHOP_AUTH_RATE_LIMIT from the environment, on every start.
onBootstrap((e) => {
  e.next();
  require(`${__hooks}/lib/accounts/accounts.js`).applyEnvSettings(e.app);
});

// POST /api/shop/signup {first_name, last_name, email, country, ref?}
// Creates the account with a random secret nobody learns (the user signs in later with
// an e-mailed code or a password they set), links the referral, and signs the browser in.
routerAdd("POST", "/api/shop/signup", (e) => {
  const lib = require(`${__hooks}/lib/accounts/accounts.js`);
  const input = lib.validateSignup(require(`${__hooks}/lib/core/api.js`).jsonBody(e));
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

  const users = e.app.findCachedCollectionByNameOrId("users");
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
      // The client address (PocketBase trusts the web server's forwarded one): welcome
      // credits per address and the console's referral flags (finding 10).
      record.set("signup_ip", e.realIP());
      txApp.save(record);
      lib.linkReferral(txApp, record, input.ref);
    });
  } catch (err) {
    const message = String(err);
    if (/not_unique|must be unique/i.test(message)) throw duplicate();
    throw err;
  }

  // Buying needs a verified address: the verification mail goes out at once (outside the
  // transaction; a mail failure is logged and the link can be asked for again).
  try {
    $mails.sendRecordVerification(e.app, record);
  } catch (err) {
    e.app.logger().error("Sending the verification mail failed", "user", record.id, "error", String(err));
  }

  return $apis.recordAuthResponse(e, record, "", null);
});

// A referral that goes away (its user deleted) no longer counts. After the commit, so a
// cascade that also deletes the affiliate finds nothing to update.
onRecordAfterDeleteSuccess((e) => {
  e.next();
  if (!e.record) return;
  require(`${__hooks}/lib/accounts/accounts.js`).recountAffiliate(e.app, e.record.getString("affiliate_id"));
}, "referrals");
