// @ts-check
// What a user may change on their own users record through the API, and what follows
// when `verified` changes.

/**
 * The users update-request hook. Privileged fields keep their stored values (defence in
 * depth: the update rule in 1764000000_users.js answers 404 first). The browser may never
 * write password_set; a new password a user chooses (settings form, with oldPassword) must
 * pass the strength rules and sets password_set. Superusers set passwords unchecked.
 * @param {core.RecordRequestEvent} e
 */
function keepPrivilegedFields(e) {
  const record = e.record;
  if (!record) return e.next();
  const body = e.requestInfo().body;
  const newPassword = typeof body["password"] === "string" && body["password"] !== "";
  if (!e.hasSuperuserAuth()) {
    if (body["password_set"] !== undefined) {
      throw new ForbiddenError("You are not allowed to change this field.");
    }
    const stored = record.original();
    for (const field of ["is_admin", "verified", "emailVisibility", "suspended", "deleted", "welcome_credit_withheld"]) {
      record.set(field, stored.get(field));
    }
    record.setEmail(stored.email());
    // A profile edit keeps to the sign-up form's country list (signup.js).
    if (record.getString("country") !== stored.getString("country")) {
      const countries = require(`${__hooks}/lib/countries.json`);
      if (countries.indexOf(record.getString("country")) < 0) {
        throw new BadRequestError("Please select your country", {
          country: new ValidationError("validation_country", "Please select your country"),
        });
      }
    }
    if (newPassword) require(`${__hooks}/lib/accounts/passwords.js`).assertStrongPassword(body["password"]);
  }
  if (newPassword) record.set("password_set", true);
  return e.next();
}

/**
 * The users hook on an e-mail change request: only a superuser changes an address.
 * @param {core.RecordRequestEmailChangeRequestEvent} e
 */
function refuseEmailChange(e) {
  if (!e.hasSuperuserAuth()) throw new ForbiddenError("Contact support to change your email address.");
  return e.next();
}

/**
 * The users update hook. When `verified` changes (first successful e-mailed-code sign-in,
 * the verification link, a superuser), in the save's transaction: the referring
 * affiliate's total_referrals is recounted, and an account verifying for the first time
 * gets the welcome credit.
 * @param {core.RecordEvent} e
 */
function verifiedChanged(e) {
  const record = e.record;
  if (!record) return e.next();
  const wasVerified = record.original().getBool("verified");
  e.app.runInTransaction((txApp) => {
    e.app = txApp;
    e.next();
    if (record.getBool("verified") !== wasVerified) {
      require(`${__hooks}/lib/affiliate/referrals.js`).recountReferrals(txApp, record.id);
      // Withheld: stored already; the record in hand says so too, so a later save keeps it.
      if (record.getBool("verified") && require(`${__hooks}/lib/money/welcome-credit.js`).grantWelcomeCredit(txApp, record.id)) {
        record.set("welcome_credit_withheld", true);
      }
    }
  });
}

module.exports = { keepPrivilegedFields, refuseEmailChange, verifiedChanged };
