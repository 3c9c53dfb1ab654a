// @ts-check
// A user's e-mail address as an admin manages it (issue #15, the admin's tools): change it
// (a notice to the old address, the new one must verify), mark it verified, or send the
// verification mail again. Shop admins only, refused in demo mode and for accounts deleted
// on request; each change with its audit row (target: the user).

/** @type {typeof import("../core/admin.js")} */
const admin = require(`${__hooks}/lib/core/admin.js`);

const ALREADY_VERIFIED = "This user's e-mail address is already verified.";

/**
 * Refuses (400) an account whose address is verified already.
 * @param {core.Record} user
 */
function assertUnverified(user) {
  if (user.getBool("verified")) throw new BadRequestError(ALREADY_VERIFIED, {});
}

/**
 * Sends PocketBase's verification mail (the collection's template, with its link); a
 * failure is logged and answered false.
 * @param {CoreApp} app
 * @param {core.Record} user
 */
function sendVerification(app, user) {
  try {
    $mails.sendRecordVerification(app, user);
    return true;
  } catch (err) {
    app.logger().error("Sending the verification mail failed", "user", user.id, "error", String(err));
    return false;
  }
}

/**
 * POST /api/admin/users/{id}/email {email} -> the user (list fields)
 *
 * Sets a new e-mail address (trimmed, lower case). The address is the user's sign-in, so it
 * must be valid (400 "Enter a valid e-mail address.") and not another account's (400
 * "Another account already uses this e-mail address."). The new address is not proven: the
 * account becomes unverified and the verification mail goes to it (a welcome credit is
 * still granted only once). A notice goes to the old address. 404 unknown user, 409 an
 * account deleted on request. Audit users.email_change {email: {from, to}, verified: {from, to}}.
 * @param {core.RequestEvent} e
 */
function changeEmail(e) {
  /** @type {typeof import("../core/api.js")} */
  const api = require(`${__hooks}/lib/core/api.js`);
  /** @type {typeof import("./user-admin.js")} */
  const users = require(`${__hooks}/lib/accounts/user-admin.js`);
  const caller = admin.requireAdminWrite(e);
  const email = api.text(api.jsonBody(e)["email"]).toLowerCase();
  if (!api.isEmail(email)) throw api.fieldError("email", "Enter a valid e-mail address.", "validation_is_email");
  const userId = e.request?.pathValue("id") ?? "";
  let oldEmail = "";
  const user = admin.auditedChange(e, (txApp) => {
    const record = users.lockTarget(txApp, caller.id, userId);
    users.assertNotDeleted(record);
    oldEmail = record.email();
    if (oldEmail.toLowerCase() === email) throw api.fieldError("email", "This is already the user's e-mail address.", "same_email");
    const taken = new DynamicModel({ n: 0 });
    txApp
      .db()
      .newQuery("SELECT COUNT(*) AS n FROM users WHERE email = {:email} COLLATE NOCASE AND id != {:id}")
      .bind({ email, id: userId })
      .one(taken);
    if (taken.n > 0) throw api.fieldError("email", "Another account already uses this e-mail address.", "validation_not_unique");
    const wasVerified = record.getBool("verified");
    record.setEmail(email);
    record.setVerified(false);
    txApp.save(record);
    require(`${__hooks}/lib/activity/activity.js`).record(
      txApp,
      null,
      userId,
      "email_changed",
      `E-mail address changed from ${oldEmail} to ${email} by the shop`,
      { from: oldEmail, to: email },
    );
    return {
      result: record,
      audit: {
        action: "users.email_change",
        targetType: "users",
        targetId: userId,
        details: { email: { from: oldEmail, to: email }, verified: { from: wasVerified, to: false } },
      },
    };
  });
  require(`${__hooks}/lib/accounts/mails.js`).emailChanged(e.app, oldEmail, email);
  sendVerification(e.app, user);
  return e.json(200, users.findUser(e.app, userId));
}

/**
 * POST /api/admin/users/{id}/verify -> the user (list fields)
 *
 * Marks the user's e-mail address verified, as the verification link would: the welcome
 * credit follows through the same users hook (lib/accounts/user-rights.js verifiedChanged,
 * once per account). 400 already verified, 404 unknown user, 409 an account deleted on
 * request. Audit users.verify {email, verified: {from: false, to: true}}.
 * @param {core.RequestEvent} e
 */
function markVerified(e) {
  /** @type {typeof import("./user-admin.js")} */
  const users = require(`${__hooks}/lib/accounts/user-admin.js`);
  const caller = admin.requireAdminWrite(e);
  const userId = e.request?.pathValue("id") ?? "";
  admin.auditedChange(e, (txApp) => {
    const record = users.lockTarget(txApp, caller.id, userId);
    users.assertNotDeleted(record);
    assertUnverified(record);
    record.setVerified(true);
    txApp.save(record);
    return {
      result: null,
      audit: {
        action: "users.verify",
        targetType: "users",
        targetId: userId,
        details: { email: record.email(), verified: { from: false, to: true } },
      },
    };
  });
  return e.json(200, users.findUser(e.app, userId));
}

/**
 * POST /api/admin/users/{id}/verification -> the user (list fields)
 *
 * Sends the verification mail (the link the sign-up mail has) to an unverified user again.
 * 400 already verified, 404 unknown user, 409 an account deleted on request, 503 when the
 * mail could not be sent (nothing logged). Audit users.verification_resend {email}.
 * @param {core.RequestEvent} e
 */
function resendVerification(e) {
  /** @type {typeof import("./user-admin.js")} */
  const users = require(`${__hooks}/lib/accounts/user-admin.js`);
  const caller = admin.requireAdminWrite(e);
  const userId = e.request?.pathValue("id") ?? "";
  const record = users.lockTarget(e.app, caller.id, userId);
  users.assertNotDeleted(record);
  assertUnverified(record);
  // The mail goes out before the audit row: never inside a transaction (lib/core/mail.js).
  if (!sendVerification(e.app, record)) {
    throw new ApiError(503, "The verification mail could not be sent just now. Try again in a moment.", {});
  }
  admin.auditedChange(e, () => ({
    result: null,
    audit: { action: "users.verification_resend", targetType: "users", targetId: userId, details: { email: record.email() } },
  }));
  return e.json(200, users.findUser(e.app, userId));
}

module.exports = { changeEmail, markVerified, resendVerification };
