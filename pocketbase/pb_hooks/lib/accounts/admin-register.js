// @ts-check
// The invitee's side of an admin invitation (public: no sign-in; rate limited per IP,
// lib/settings/rate-limits.js): check the link, then register with it. Both answer 403
// while registration is closed or in demo mode, 404 for an unknown token and 410 for a
// used, revoked or expired one, each with its message (invitation-links.js).

/** @type {typeof import("./invitation-links.js")} */
const links = require(`${__hooks}/lib/accounts/invitation-links.js`);
/** @type {typeof import("./signup.js")} */
const signup = require(`${__hooks}/lib/accounts/signup.js`);

/**
 * The request's body and the invitation its token names, which must be pending, while
 * registration is open and demo mode off.
 * @param {core.RequestEvent} e
 * @returns {{ body: Record<string, unknown>, invitation: core.Record }}
 */
function openInvitation(e) {
  /** @type {typeof import("../core/api.js")} */
  const api = require(`${__hooks}/lib/core/api.js`);
  require(`${__hooks}/lib/core/demo-mode.js`).refuseInDemoMode(e.app);
  if (!links.registrationEnabled(e.app)) throw new ForbiddenError(links.MESSAGES.closed);
  const body = api.jsonBody(e);
  return { body, invitation: links.usableInvitation(e.app, api.text(body["token"])) };
}

/**
 * GET /api/shop/admin-invitations/check: the old query form (?token=) answers 405 and
 * checks nothing: a token in the URL would be kept in PocketBase's request log (security
 * review #13, finding 9).
 */
function checkByGet() {
  throw new ApiError(405, links.MESSAGES.checkByPost);
}

/**
 * POST /api/shop/admin-invitations/check {token} -> {valid: true, email: string | null, expires_at}
 * @param {core.RequestEvent} e
 */
function check(e) {
  const { invitation } = openInvitation(e);
  return e.json(200, {
    valid: true,
    email: invitation.getString("email") || null,
    expires_at: invitation.getDateTime("expires_at").string(),
  });
}

/**
 * POST /api/shop/admin-register {token, first_name, last_name, email, password} -> {token, record}
 *
 * Signed in, like /api/shop/signup: a verified admin account, onboarded, with the password
 * checked by the shop's strength rules. The invitation is claimed by a conditional UPDATE in
 * the same transaction (single use under concurrency) and the audit row
 * "invitations.accept" is written with the new admin as admin_id. Refusals: 403
 * closed/demo, 404/410 as above, 400 fields (e-mail not the invited one, e-mail taken, weak
 * password).
 * @param {core.RequestEvent} e
 */
function register(e) {
  const { body, invitation } = openInvitation(e);
  /** @type {typeof import("./admin-account.js")} */
  const account = require(`${__hooks}/lib/accounts/admin-account.js`);
  const user = acceptInvitation(e.app, invitation, account.adminAccountInput(body));
  return $apis.recordAuthResponse(e, user, "password", null);
}

/**
 * Creates the admin account an invitation allows, in one transaction: the invitation is
 * claimed with a conditional UPDATE (so two simultaneous registrations cannot both use
 * it), the user is created verified, is_admin, onboarded, and the audit row
 * invitations.accept is written with the new admin as its admin.
 * @param {CoreApp} app
 * @param {core.Record} invitation  from links.usableInvitation
 * @param {import("./admin-account.js").AdminAccountInput} input
 * @returns {core.Record} the new admin
 */
function acceptInvitation(app, invitation, input) {
  const duplicate = () =>
    signup.emailTaken("An account with this email already exists. Sign in instead, or ask an administrator for admin rights.");
  const invited = invitation.getString("email");
  if (invited && invited !== input.email) {
    throw new BadRequestError("This invitation is for another email address.", {
      email: new ValidationError("invitation_email_mismatch", "This invitation is for another email address"),
    });
  }
  if (links.accountExists(app, input.email)) throw duplicate();

  /** @type {typeof import("./admin-account.js")} */
  const account = require(`${__hooks}/lib/accounts/admin-account.js`);
  return account.createByLink(
    app,
    {
      table: "admin_invitations",
      id: invitation.id,
      open: " AND revoked_at = ''",
      refused: (txApp, now) => links.linkError(links.stateOf(txApp.findRecordById("admin_invitations", invitation.id), now)),
      duplicate,
      audit: (admin) => ({
        action: "invitations.accept",
        targetType: "admin_invitations",
        targetId: invitation.id,
        details: {
          user_id: admin.id,
          email: input.email,
          invited_by: invitation.getString("created_by"),
          invitation_email: invited || null,
        },
      }),
    },
    input,
  );
}

module.exports = { checkByGet, check, register };
