// @ts-check
// Passwords a person chooses (the settings form, a reset link, admin registration) follow
// the forms' rules (lib/password-rules.json) and mark the account's password_set. Passwords
// set by superusers, the seed or the sign-up's random secret are not checked.

/**
 * Refuses a password unless it follows the forms' rules: at least 8 characters, an
 * uppercase letter, a digit and a special character. Throws a 400 whose data.password
 * carries the first broken rule's message (code "weak_password"), like the web app's own
 * validation.
 * @param {unknown} pw
 */
function assertStrongPassword(pw) {
  /** @type {{ pattern: string, message: string }[]} */
  const rules = require(`${__hooks}/lib/password-rules.json`);
  const value = typeof pw === "string" ? pw : "";
  for (const rule of rules) {
    if (!new RegExp(rule.pattern).test(value)) {
      throw new BadRequestError(rule.message, { password: new ValidationError("weak_password", rule.message) });
    }
  }
}

/**
 * The users hook on a password set through an e-mailed link: it must be strong too
 * (checked after PocketBase's own token/confirm validation, before anything is saved), and
 * counts as chosen. Not a model hook: an OTP sign-in of an unverified account randomizes the
 * password (PocketBase's guard against pre-registration), which must not count as "has a
 * password".
 * @param {core.RecordConfirmPasswordResetRequestEvent} e
 */
function confirmPasswordReset(e) {
  assertStrongPassword(e.requestInfo().body["password"]);
  if (e.record) e.record.set("password_set", true);
  return e.next();
}

module.exports = { assertStrongPassword, confirmPasswordReset };
