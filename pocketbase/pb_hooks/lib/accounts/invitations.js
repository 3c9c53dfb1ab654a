// @ts-check
// Admin invitations (console-settings.pb.js): never an open admin sign-up. An admin makes
// a single-use link valid for 24 hours, optionally for one e-mail address; only the
// token's SHA-256 is stored. Everything works only while the admin_registration_enabled
// setting is "true", and nothing changes in demo mode.

/** How long a link works. */
const VALIDITY_HOURS = 24;
/** Pending (unused, unrevoked, unexpired) links at most, so a stolen session cannot mint hundreds. */
const MAX_PENDING = 20;
/** Random characters in a token (A-Z, a-z, 0-9: about 256 bits). */
const TOKEN_LENGTH = 43;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

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

/**
 * A moment as PocketBase stores dates ("2026-01-02 03:04:05.678Z"), so SQL compares text.
 * @param {number} [ms]  epoch milliseconds (default now)
 */
function dbDate(ms = Date.now()) {
  return new Date(ms).toISOString().replace("T", " ");
}

/** @param {string} token */
function hashToken(token) {
  return $security.sha256(token);
}

/**
 * True when the admin_registration_enabled setting is "true".
 * @param {CoreApp} app
 */
function registrationEnabled(app) {
  const row = new DynamicModel({ value: "" });
  try {
    app.db().newQuery("SELECT value FROM settings WHERE key = 'admin_registration_enabled' LIMIT 1").one(row);
  } catch (_) {
    return false;
  }
  return row.value === "true";
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

/**
 * Validates POST /api/admin/invitations: an optional e-mail no account has yet.
 * @param {CoreApp} app
 * @param {Record<string, unknown>} body
 * @returns {{email: string}}
 */
function validateCreate(app, body) {
  /** @type {typeof import("../core/api.js")} */
  const api = require(`${__hooks}/lib/core/api.js`);
  for (const key of Object.keys(body)) {
    if (key !== "email") throw api.fieldError(key, `Unknown field "${key}".`);
  }
  if (body["email"] !== undefined && body["email"] !== null && typeof body["email"] !== "string") {
    throw api.fieldError("email", "Enter a valid email address, or leave it empty.", "validation_invalid_email");
  }
  const email = api.text(body["email"]).toLowerCase();
  if (email && (!EMAIL.test(email) || email.length > 255)) {
    throw api.fieldError("email", "Enter a valid email address, or leave it empty.", "validation_invalid_email");
  }
  if (email && accountExists(app, email)) {
    throw api.fieldError(
      "email",
      "An account with this email already exists: give it admin rights in User Management instead.",
      "validation_not_unique",
    );
  }
  return { email };
}

/**
 * How many links are pending now.
 * @param {CoreApp} app
 */
function pendingCount(app) {
  const row = new DynamicModel({ n: 0 });
  app
    .db()
    .newQuery("SELECT COUNT(*) AS n FROM admin_invitations WHERE used_at = '' AND revoked_at = '' AND expires_at > {:now}")
    .bind({ now: dbDate() })
    .one(row);
  return row.n;
}

/**
 * Makes an invitation (inside the audited transaction). The token is answered once and
 * never stored.
 * @param {CoreApp} txApp
 * @param {{adminId: string, email: string}} input
 * @returns {{record: core.Record, token: string}}
 */
function createInvitation(txApp, input) {
  if (pendingCount(txApp) >= MAX_PENDING) {
    throw new ApiError(409, `There are already ${MAX_PENDING} pending invitations. Revoke the ones you no longer need first.`, {});
  }
  const token = $security.randomString(TOKEN_LENGTH);
  const record = new Record(txApp.findCachedCollectionByNameOrId("admin_invitations"));
  record.set("token_hash", hashToken(token));
  record.set("created_by", input.adminId);
  record.set("email", input.email);
  record.set("expires_at", dbDate(Date.now() + VALIDITY_HOURS * 3600 * 1000));
  txApp.save(record);
  return { record, token };
}

/**
 * The registration page's address for `token`, on the shop's public URL (meta.appURL,
 * which follows SHOP_APP_URL).
 * @param {CoreApp} app
 * @param {string} token
 */
function registerUrl(app, token) {
  const base = String(app.settings().meta.appURL || "").replace(/\/+$/, "");
  return `${base}/console/register?token=${encodeURIComponent(token)}`;
}

/**
 * @typedef {object} PendingInvitation
 * @property {string} id
 * @property {string} email
 * @property {string} expires_at
 * @property {string} created
 * @property {{id: string, email: string, first_name: string, last_name: string} | null} created_by
 */

/**
 * One page of pending invitations, newest first (never their tokens).
 * @param {CoreApp} app
 * @param {{page: number, perPage: number, offset: number}} paging
 */
function listPending(app, paging) {
  /** @type {typeof import("../core/sql.js")} */
  const sql = require(`${__hooks}/lib/core/sql.js`);
  /** @type {typeof import("../audit/admin.js")} */
  const admin = require(`${__hooks}/lib/audit/admin.js`);
  const now = dbDate();
  const where = "i.used_at = '' AND i.revoked_at = '' AND i.expires_at > {:now}";
  const count = new DynamicModel({ n: 0 });
  app.db().newQuery(`SELECT COUNT(*) AS n FROM admin_invitations i WHERE ${where}`).bind({ now }).one(count);
  const rows = sql.rowsLike({
    id: "",
    email: "",
    expires_at: "",
    created: "",
    created_by: "",
    admin_email: "",
    admin_first_name: "",
    admin_last_name: "",
  });
  app
    .db()
    .newQuery(
      `SELECT i.id, i.email, i.expires_at, i.created, i.created_by,
              COALESCE(u.email, '') AS admin_email, COALESCE(u.first_name, '') AS admin_first_name,
              COALESCE(u.last_name, '') AS admin_last_name
         FROM admin_invitations i LEFT JOIN users u ON u.id = i.created_by
        WHERE ${where}
        ORDER BY i.created DESC, i.id DESC
        LIMIT {:limit} OFFSET {:offset}`,
    )
    .bind({ now, limit: paging.perPage, offset: paging.offset })
    .all(/** @type {any} */ (rows));
  /** @type {PendingInvitation[]} */
  const items = rows.map((r) => ({
    id: r.id,
    email: r.email,
    expires_at: r.expires_at,
    created: r.created,
    created_by: r.created_by
      ? { id: r.created_by, email: r.admin_email, first_name: r.admin_first_name, last_name: r.admin_last_name }
      : null,
  }));
  return admin.listPage(items, count.n, paging);
}

/**
 * Revokes a pending invitation (inside the audited transaction).
 * @param {CoreApp} txApp
 * @param {string} id
 * @returns {core.Record}
 */
function revokeInvitation(txApp, id) {
  /** @type {core.Record} */
  let invitation;
  try {
    invitation = txApp.findRecordById("admin_invitations", id);
  } catch (_) {
    throw new NotFoundError("Invitation not found.");
  }
  const state = stateOf(invitation);
  if (state === "used") throw new ApiError(409, "This invitation has already been used.", {});
  if (state === "revoked") throw new ApiError(409, "This invitation was already revoked.", {});
  if (state === "expired") throw new ApiError(409, "This invitation has already expired.", {});
  invitation.set("revoked_at", dbDate());
  txApp.save(invitation);
  return invitation;
}

/**
 * @typedef {{token: string, first_name: string, last_name: string, email: string, password: string}} RegisterInput
 */

/**
 * Validates POST /api/shop/admin-register's fields (the link is checked separately).
 * @param {Record<string, unknown>} body
 * @returns {RegisterInput}
 */
function validateRegister(body) {
  /** @type {typeof import("../core/api.js")} */
  const api = require(`${__hooks}/lib/core/api.js`);
  const input = {
    token: api.text(body["token"]),
    first_name: api.text(body["first_name"]),
    last_name: api.text(body["last_name"]),
    email: api.text(body["email"]).toLowerCase(),
    password: typeof body["password"] === "string" ? body["password"] : "",
  };
  /** @type {Record<string, ValidationError>} */
  const errors = {};
  if (api.chars(input.first_name) < 2 || api.chars(input.first_name) > 100) {
    errors["first_name"] = new ValidationError("validation_length", "First name must be at least 2 characters");
  }
  if (api.chars(input.last_name) < 2 || api.chars(input.last_name) > 100) {
    errors["last_name"] = new ValidationError("validation_length", "Last name must be at least 2 characters");
  }
  if (!EMAIL.test(input.email) || input.email.length > 255) {
    errors["email"] = new ValidationError("validation_invalid_email", "Please enter a valid email address");
  }
  if (Object.keys(errors).length > 0) throw new BadRequestError("Please check the highlighted fields.", errors);
  require(`${__hooks}/lib/accounts/accounts.js`).assertStrongPassword(input.password);
  if (input.password.length > 72) {
    // bcrypt reads 72 bytes at most: a longer password would silently be cut.
    throw new BadRequestError("Password must be at most 72 characters.", {
      password: new ValidationError("validation_max_length", "Password must be at most 72 characters."),
    });
  }
  return input;
}

/**
 * Creates the admin account an invitation allows, in one transaction: the invitation is
 * claimed with a conditional UPDATE (so two simultaneous registrations cannot both use
 * it), the user is created verified, is_admin, onboarded, and the audit row
 * invitations.accept is written with the new admin as its admin.
 * @param {CoreApp} app
 * @param {core.Record} invitation  from usableInvitation
 * @param {RegisterInput} input
 * @returns {core.Record} the new admin
 */
function acceptInvitation(app, invitation, input) {
  /** @type {typeof import("../audit/audit.js")} */
  const audit = require(`${__hooks}/lib/audit/audit.js`);
  const duplicate = () =>
    new BadRequestError("An account with this email already exists. Sign in instead, or ask an administrator for admin rights.", {
      email: new ValidationError("validation_not_unique", "An account with this email already exists"),
    });
  const invited = invitation.getString("email");
  if (invited && invited !== input.email) {
    throw new BadRequestError("This invitation is for another email address.", {
      email: new ValidationError("invitation_email_mismatch", "This invitation is for another email address"),
    });
  }
  if (accountExists(app, input.email)) throw duplicate();

  const user = new Record(app.findCachedCollectionByNameOrId("users"));
  try {
    app.runInTransaction((txApp) => {
      const now = dbDate();
      const claimed = txApp
        .db()
        .newQuery(
          `UPDATE admin_invitations SET used_at = {:now}, updated = {:now}
            WHERE id = {:id} AND used_at = '' AND revoked_at = '' AND expires_at > {:now}`,
        )
        .bind({ now, id: invitation.id })
        .execute();
      if (claimed.rowsAffected() !== 1) {
        throw linkError(stateOf(txApp.findRecordById("admin_invitations", invitation.id), now));
      }
      user.set("email", input.email);
      user.set("first_name", input.first_name);
      user.set("last_name", input.last_name);
      user.set("verified", true);
      user.set("is_admin", true);
      user.set("onboarding_completed", true);
      user.set("onboarding_completed_at", now);
      user.setPassword(input.password);
      txApp.save(user);
      txApp
        .db()
        .newQuery("UPDATE admin_invitations SET used_by = {:user} WHERE id = {:id}")
        .bind({ user: user.id, id: invitation.id })
        .execute();
      audit.writeAuditLog(txApp, {
        adminId: user.id,
        action: "invitations.accept",
        targetType: "admin_invitations",
        targetId: invitation.id,
        details: {
          user_id: user.id,
          email: input.email,
          invited_by: invitation.getString("created_by"),
          invitation_email: invited || null,
        },
      });
    });
  } catch (err) {
    if (/not_unique|must be unique/i.test(String(err))) throw duplicate();
    throw err;
  }
  return user;
}

module.exports = {
  VALIDITY_HOURS,
  MAX_PENDING,
  MESSAGES,
  registrationEnabled,
  usableInvitation,
  validateCreate,
  createInvitation,
  registerUrl,
  listPending,
  revokeInvitation,
  validateRegister,
  acceptInvitation,
};
