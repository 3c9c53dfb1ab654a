// @ts-check
// Suspending an account (issue #15, the admin's tools): an admin suspends or unsuspends
// another user (users.suspended). Suspending ends every session at once (a new token key:
// every token issued before stops working, and so does a pending verification link) and
// refuses every sign-in (password, e-mailed code, refresh) with SUSPENDED_MESSAGE. When the
// proxy gateway exists it must refuse a suspended user's proxies too.

/** What a suspended user is told when they try to sign in. */
const SUSPENDED_MESSAGE = "This account is suspended. Contact support.";

/**
 * The users hook on every sign-in and token refresh (onRecordAuthRequest), on an e-mailed
 * code (checked already; refused before it could verify the account) and on the
 * verification link (which signs its opener in): 403 with SUSPENDED_MESSAGE for a suspended
 * account.
 * @param {core.RecordAuthRequestEvent | core.RecordAuthWithOTPRequestEvent | core.RecordConfirmVerificationRequestEvent} e
 */
function refuseSuspended(e) {
  if (e.record && e.record.getBool("suspended")) throw new ForbiddenError(SUSPENDED_MESSAGE);
  return e.next();
}

/**
 * POST /api/admin/users/{id}/suspension {suspended: boolean} -> the user (list fields)
 *
 * Suspends (sessions end at once, sign-in refused) or unsuspends another user. 400 for the
 * caller's own account ("You cannot suspend your own account.") or a body without a
 * boolean `suspended`; 404 unknown user; 409 an account deleted on request (it stays
 * suspended). Audit users.suspend | users.unsuspend {email, suspended: {from, to}}; setting
 * the state the user already has changes nothing and writes no audit row.
 * @param {core.RequestEvent} e
 */
function setSuspended(e) {
  /** @type {typeof import("../core/admin.js")} */
  const admin = require(`${__hooks}/lib/core/admin.js`);
  /** @type {typeof import("../core/api.js")} */
  const api = require(`${__hooks}/lib/core/api.js`);
  /** @type {typeof import("./user-admin.js")} */
  const users = require(`${__hooks}/lib/accounts/user-admin.js`);
  /** @type {typeof import("../core/audit.js")} */
  const audit = require(`${__hooks}/lib/core/audit.js`);
  const caller = admin.requireAdminWrite(e);
  const body = api.jsonBody(e);
  // A boolean: the admin document states it (the request validation answered anything else).
  const suspended = body["suspended"] === true;
  const userId = e.request?.pathValue("id") ?? "";
  if (userId === caller.id) throw api.fieldError("suspended", "You cannot suspend your own account.", "own_account");
  e.app.runInTransaction((txApp) => {
    const user = users.lockTarget(txApp, caller.id, userId);
    const before = user.getBool("suspended");
    if (before === suspended) return;
    users.assertNotDeleted(user);
    user.set("suspended", suspended);
    if (suspended) user.refreshTokenKey();
    txApp.save(user);
    audit.writeAuditLog(txApp, {
      adminId: caller.id,
      action: suspended ? "users.suspend" : "users.unsuspend",
      targetType: "users",
      targetId: userId,
      details: { email: user.email(), suspended: { from: before, to: suspended } },
    });
  });
  return e.json(200, users.findUser(e.app, userId));
}

module.exports = { SUSPENDED_MESSAGE, refuseSuspended, setSuspended };
