// @ts-check
// The console's admin invitations (System Settings): make a link, list the pending ones,
// revoke one. Every route needs a signed-in shop admin (401 anonymous, 403 otherwise);
// changes are refused in demo mode (403) and write one audit row in their transaction.
// The links themselves: invitation-links.js.

/** @type {typeof import("./invitation-links.js")} */
const links = require(`${__hooks}/lib/accounts/invitation-links.js`);
/** @type {typeof import("../core/admin.js")} */
const admin = require(`${__hooks}/lib/core/admin.js`);

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
  if (email && !api.isEmail(email)) {
    throw api.fieldError("email", "Enter a valid email address, or leave it empty.", "validation_invalid_email");
  }
  if (email && links.accountExists(app, email)) {
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
    .bind({ now: links.dbDate() })
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
  if (pendingCount(txApp) >= links.MAX_PENDING) {
    throw new ApiError(409, `There are already ${links.MAX_PENDING} pending invitations. Revoke the ones you no longer need first.`, {});
  }
  const token = $security.randomString(links.TOKEN_LENGTH);
  const record = new Record(txApp.findCachedCollectionByNameOrId("admin_invitations"));
  record.set("token_hash", links.hashToken(token));
  record.set("created_by", input.adminId);
  record.set("email", input.email);
  record.set("expires_at", links.dbDate(Date.now() + links.VALIDITY_HOURS * 3600 * 1000));
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
  const now = links.dbDate();
  const where = "i.used_at = '' AND i.revoked_at = '' AND i.expires_at > {:now}";
  const count = new DynamicModel({ n: 0 });
  app.db().newQuery(`SELECT COUNT(*) AS n FROM admin_invitations i WHERE ${where}`).bind({ now }).one(count);
  const rows = sql.rowsLike({
    id: "",
    email: "",
    expires_at: "",
    created: "",
    created_by: "",
    ...sql.personShape("admin"),
  });
  app
    .db()
    .newQuery(
      `SELECT i.id, i.email, i.expires_at, i.created, i.created_by,
              ${sql.personColumns("u", "admin")}
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
  const state = links.stateOf(invitation);
  if (state === "used") throw new ApiError(409, "This invitation has already been used.", {});
  if (state === "revoked") throw new ApiError(409, "This invitation was already revoked.", {});
  if (state === "expired") throw new ApiError(409, "This invitation has already expired.", {});
  invitation.set("revoked_at", links.dbDate());
  txApp.save(invitation);
  return invitation;
}

/**
 * POST /api/admin/invitations {email?} -> {id, url, email, expires_at}
 *
 * url = <meta.appURL>/console/register?token=<43 random chars> (only its SHA-256 is stored;
 * the token is never shown again). 409 while admin_registration_enabled is not "true" or 20
 * links are pending; 400 for an e-mail that has an account. Audit "invitations.create"
 * {email, expires_at}.
 * @param {core.RequestEvent} e
 */
function create(e) {
  const me = admin.requireAdminWrite(e);
  if (!links.registrationEnabled(e.app)) throw new ApiError(409, links.MESSAGES.disabled, {});
  const { email } = validateCreate(e.app, require(`${__hooks}/lib/core/api.js`).jsonBody(e));
  const made = admin.auditedChange(e, (txApp) => {
    const { record, token } = createInvitation(txApp, { adminId: me.id, email });
    const expiresAt = record.getDateTime("expires_at").string();
    return {
      result: { id: record.id, url: registerUrl(txApp, token), email: email || null, expires_at: expiresAt },
      audit: {
        action: "invitations.create",
        targetType: "admin_invitations",
        targetId: record.id,
        details: { email: email || null, expires_at: expiresAt },
      },
    };
  });
  return e.json(200, made);
}

/**
 * GET /api/admin/invitations?page=&perPage= -> {items: [{id, email, expires_at, created,
 * created_by: {id, email, first_name, last_name} | null}], page, perPage, totalItems,
 * totalPages}: the pending links (unused, unrevoked, unexpired), newest first.
 * @param {core.RequestEvent} e
 */
function list(e) {
  admin.requireAdmin(e);
  return e.json(200, listPending(e.app, admin.paging(e, 100)));
}

/**
 * DELETE /api/admin/invitations/{id} -> {id, revoked_at}
 *
 * 404 unknown, 409 used, revoked or expired. Audit "invitations.revoke" {email,
 * expires_at, created_by}.
 * @param {core.RequestEvent} e
 */
function revoke(e) {
  admin.requireAdminWrite(e);
  const id = e.request?.pathValue("id") ?? "";
  const revoked = admin.auditedChange(e, (txApp) => {
    const invitation = revokeInvitation(txApp, id);
    return {
      result: { id: invitation.id, revoked_at: invitation.getDateTime("revoked_at").string() },
      audit: {
        action: "invitations.revoke",
        targetType: "admin_invitations",
        targetId: invitation.id,
        details: {
          email: invitation.getString("email") || null,
          expires_at: invitation.getDateTime("expires_at").string(),
          created_by: invitation.getString("created_by"),
        },
      },
    };
  });
  return e.json(200, revoked);
}

module.exports = { create, list, revoke };
