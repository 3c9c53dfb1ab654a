// @ts-check
// Sign-up without a shared password: the account gets a random secret nobody learns, and
// its owner proves the mailbox later (an e-mailed code, the verification link) or sets a
// password. Until then, whoever verifies it without the sign-up's session may be the
// address's real owner after an impostor signed up with it (security review #13, finding 3).

/** Marker a sign-up sets on the new record so the create hook leaves password_set false. */
const SIGNUP_MARKER = "__shop_signup";

const REF_CODE = /^[A-Za-z0-9_-]{1,32}$/;

/**
 * @typedef {{ first_name: string, last_name: string, email: string, country: string, ref: string }} SignupInput
 */

/**
 * The errors of a person's names and e-mail, as the sign-up and admin registration forms
 * show them (the e-mail already trimmed and lower-cased).
 * @param {{ first_name: string, last_name: string, email: string }} input
 * @returns {Record<string, ValidationError>}
 */
function personErrors(input) {
  /** @type {typeof import("../core/api.js")} */
  const { chars, isEmail } = require(`${__hooks}/lib/core/api.js`);
  /** @type {Record<string, ValidationError>} */
  const errors = {};
  if (!isEmail(input.email)) {
    errors["email"] = new ValidationError("validation_invalid_email", "Please enter a valid email address");
  }
  if (chars(input.first_name) < 2 || chars(input.first_name) > 100) {
    errors["first_name"] = new ValidationError("validation_length", "First name must be at least 2 characters");
  }
  if (chars(input.last_name) < 2 || chars(input.last_name) > 100) {
    errors["last_name"] = new ValidationError("validation_length", "Last name must be at least 2 characters");
  }
  return errors;
}

/**
 * Throws the 400 that lists `errors` per field, when there are any.
 * @param {Record<string, ValidationError>} errors
 */
function throwFieldErrors(errors) {
  if (Object.keys(errors).length > 0) throw new BadRequestError("Please check the highlighted fields.", errors);
}

/**
 * The 400 for an e-mail address that already has an account.
 * @param {string} message  what the form's banner says
 */
function emailTaken(message) {
  return new BadRequestError(message, {
    email: new ValidationError("validation_not_unique", "An account with this email already exists"),
  });
}

/**
 * Validates a sign-up body like the sign-up form (spec section 5). Throws a 400 with
 * per-field messages.
 * @param {Record<string, unknown>} body
 * @returns {SignupInput}
 */
function validateSignup(body) {
  /** @type {typeof import("../core/api.js")} */
  const { text } = require(`${__hooks}/lib/core/api.js`);
  const countries = require(`${__hooks}/lib/countries.json`);
  const input = {
    first_name: text(body["first_name"]),
    last_name: text(body["last_name"]),
    email: text(body["email"]).toLowerCase(),
    country: text(body["country"]),
    ref: text(body["ref"]),
  };
  const errors = personErrors(input);
  if (countries.indexOf(input.country) < 0) {
    errors["country"] = new ValidationError("validation_country", "Please select your country");
  }
  throwFieldErrors(errors);
  if (!REF_CODE.test(input.ref)) input.ref = "";
  return input;
}

/**
 * POST /api/shop/signup {first_name, last_name, email, country, ref?} -> {token, record}
 *
 * Public (no sign-in; rate limited per IP). Creates the account with a random secret nobody
 * learns (the user signs in later with an e-mailed code or a password they set), links the
 * referral of the affiliate code `ref` (unknown codes are ignored), sends the verification
 * mail and signs the browser in. 400 per field, or for an e-mail that has an account.
 * @param {core.RequestEvent} e
 */
function signup(e) {
  const input = validateSignup(require(`${__hooks}/lib/core/api.js`).jsonBody(e));
  const duplicate = () => emailTaken("An account with this email already exists. Please sign in instead.");

  /** @type {core.Record | null} */
  let existing = null;
  try {
    existing = e.app.findAuthRecordByEmail("users", input.email);
  } catch (_) {
    // no such account
  }
  if (existing) throw duplicate();

  const record = new Record(e.app.findCachedCollectionByNameOrId("users"));
  try {
    e.app.runInTransaction((txApp) => {
      record.set("email", input.email);
      record.set("first_name", input.first_name);
      record.set("last_name", input.last_name);
      record.set("country", input.country);
      record.set("verified", false);
      record.set("password_set", false);
      record.setPassword($security.randomString(48));
      record.set(SIGNUP_MARKER, true);
      // The client address (PocketBase trusts the web server's forwarded one): welcome
      // credits per address and the console's referral flags (finding 10).
      record.set("signup_ip", e.realIP());
      txApp.save(record);
      require(`${__hooks}/lib/affiliate/referrals.js`).linkReferral(txApp, record, input.ref);
    });
  } catch (err) {
    if (/not_unique|must be unique/i.test(String(err))) throw duplicate();
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
}

/**
 * True when this request would verify an account made by sign-up (no password of its own)
 * without holding a session of that account: the e-mailed link or code proves the mailbox,
 * but nothing ties its owner to whoever signed up with the address. Such a verification must
 * end every earlier session and drop the referral the sign-up chose.
 * @param {core.RequestEvent} e
 * @param {core.Record} user
 */
function verifiesWithoutSignupSession(e, user) {
  if (user.getBool("verified") || user.getBool("password_set")) return false;
  const auth = e.auth;
  return !(auth && auth.collection().name === "users" && auth.id === user.id);
}

/**
 * The users hook on the verification link. Opened by someone who holds no session of a
 * signed-up account (the link opened on another device, or by the address's real owner
 * after an impostor signed up with it): every earlier session ends (a new token key, which
 * also spends the link), the referral the sign-up chose is dropped, and the visitor who
 * opened the link is signed in (the link proved the mailbox, as an e-mailed code does).
 * Opened in the browser that signed up (its session sent along), nothing changes but
 * `verified`.
 * @param {core.RecordConfirmVerificationRequestEvent} e
 */
function confirmVerification(e) {
  const record = e.record;
  if (!record || !verifiesWithoutSignupSession(e, record)) return e.next();
  e.app.runInTransaction((txApp) => {
    require(`${__hooks}/lib/affiliate/referrals.js`).dropSignupReferral(txApp, record.id);
    record.setVerified(true);
    record.refreshTokenKey();
    txApp.save(record);
  });
  e.app.store().remove(`@limitVerificationEmail_${record.collection().id}${record.id}`);
  // The answer of a sign-in ({token, record}); $apis.recordAuthResponse needs the bare
  // request event, which this hook's event only embeds. The owner sees their own e-mail.
  record.ignoreEmailVisibility(true);
  return e.json(200, { token: record.newAuthToken(), record });
}

/**
 * The users hook on a sign-in with an e-mailed code. On a first one PocketBase verifies the
 * account and gives it a new random password (so a new token key: earlier sessions end);
 * the referral of a sign-up whose session is not the one signing in is dropped.
 * @param {core.RecordAuthWithOTPRequestEvent} e
 */
function authWithOTP(e) {
  const record = e.record;
  if (record && verifiesWithoutSignupSession(e, record)) {
    e.app.runInTransaction((txApp) => {
      require(`${__hooks}/lib/affiliate/referrals.js`).dropSignupReferral(txApp, record.id);
    });
  }
  return e.next();
}

module.exports = { SIGNUP_MARKER, personErrors, throwFieldErrors, emailTaken, signup, confirmVerification, authWithOTP };
