// @ts-check
// Admin invitation links: never an open admin sign-up. An admin makes a single-use link
// valid for 24 hours, optionally for one e-mail address; only the token's SHA-256 is
// stored. Everything works only while the admin_registration_enabled setting is "true",
// and nothing changes in demo mode. The console manages them (invitations.js), the
// invitee registers with one (admin-register.js).

/** How long a link works. */
const VALIDITY_HOURS = 24;
/** Pending (unused, unrevoked, unexpired) links at most, so a stolen session cannot mint hundreds. */
const MAX_PENDING = 20;
/** Random characters in a token (A-Z, a-z, 0-9: about 256 bits). */
const TOKEN_LENGTH = 43;

const MESSAGES = {
  closed: "Admin registration is closed.",
  disabled: 'Admin registration is turned off. Switch on "Admin registration" in Security Settings and save, then create the link.',
  invalid: "This invitation link is not valid. Ask an administrator for a new one.",
  used: "This invitation link has already been used.",
  revoked: "This invitation link was revoked. Ask an administrator for a new one.",
  expired: "This invitation link has expired. Ask an administrator for a new one.",
  checkByPost:
    'Send the invitation token in a JSON body, POST /api/shop/admin-invitations/check {"token": "..."}: a token in the URL would be kept in the request log.',
};

/** @typedef {"pending" | "used" | "revoked" | "expired"} InvitationState */

/** A moment as PocketBase stores dates (lib/core/sql.js). */
const dbDate = require(`${__hooks}/lib/core/sql.js`).dbDate;

/** @param {string} token */
function hashToken(token) {
  return $security.sha256(token);
}

/**
 * True when the admin_registration_enabled setting is "true".
 * @param {CoreApp} app
 */
function registrationEnabled(app) {
  return require(`${__hooks}/lib/core/settings.js`).settingOn(app, "admin_registration_enabled");
}

/**
 * @param {core.Record} invitation
 * @param {string} [now]  dbDate()
 * @returns {InvitationState}
 */
function stateOf(invitation, now = dbDate()) {
  if (invitation.getString("used_at")) return "used";
  if (invitation.getString("revoked_at")) return "revoked";
  return invitation.getDateTime("expires_at").string() > now ? "pending" : "expired";
}

/**
 * The refusal for a link that cannot be used: 404 for an unknown one, 410 for a dead one.
 * @param {InvitationState | "invalid"} state
 */
function linkError(state) {
  if (state === "invalid")
    return new NotFoundError(MESSAGES.invalid, { token: new ValidationError("invitation_invalid", MESSAGES.invalid) });
  const message = MESSAGES[/** @type {"used" | "revoked" | "expired"} */ (state)];
  return new ApiError(410, message, { token: new ValidationError(`invitation_${state}`, message) });
}

/**
 * The pending invitation whose token is `token`, else the refusal saying why.
 * @param {CoreApp} app
 * @param {string} token
 * @returns {core.Record}
 */
function usableInvitation(app, token) {
  if (!token || token.length > 200) throw linkError("invalid");
  /** @type {core.Record} */
  let invitation;
  try {
    invitation = app.findFirstRecordByData("admin_invitations", "token_hash", hashToken(token));
  } catch (_) {
    throw linkError("invalid");
  }
  const state = stateOf(invitation);
  if (state !== "pending") throw linkError(state);
  return invitation;
}

/**
 * True when a users record has this e-mail (case-insensitive).
 * @param {CoreApp} app
 * @param {string} email
 */
function accountExists(app, email) {
  const row = new DynamicModel({ n: 0 });
  app.db().newQuery("SELECT COUNT(*) AS n FROM users WHERE email = {:email} COLLATE NOCASE").bind({ email }).one(row);
  return row.n > 0;
}

module.exports = {
  VALIDITY_HOURS,
  MAX_PENDING,
  TOKEN_LENGTH,
  MESSAGES,
  dbDate,
  hashToken,
  registrationEnabled,
  stateOf,
  linkError,
  usableInvitation,
  accountExists,
};
