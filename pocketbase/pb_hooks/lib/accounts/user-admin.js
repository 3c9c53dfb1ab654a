// @ts-check
// Managing users (the console's User Management, get_all_users_admin and
// toggle_user_admin_status in the spec): the user list with its role counts and the admin
// flag (one user's drawer: user-detail.js; balance adjustments: lib/accounts/adjustments.js).
// Shop admins only: anonymous 401, customers 403; changes refused in demo mode, each with
// exactly one audit row in its transaction. Raw SQL on indexes (1764300000_console_users.js),
// so every read stays fast at 100,000 users.

/** @type {typeof import("../core/admin.js")} */
const admin = require(`${__hooks}/lib/core/admin.js`);
/** @type {typeof import("../core/sql.js")} */
const sql = require(`${__hooks}/lib/core/sql.js`);

/** The columns of a user as the console lists it. */
const USER_SELECT = `u.id, u.email, u.first_name, u.last_name, u.country, u.is_admin, u.verified, u.suspended, u.deleted, u.created,
  COALESCE((SELECT b.balance_cents FROM balances b WHERE b.user_id = u.id), 0) AS balance_cents`;

function userRows() {
  return sql.rowsLike({
    id: "",
    email: "",
    first_name: "",
    last_name: "",
    country: "",
    is_admin: false,
    verified: false,
    suspended: false,
    deleted: false,
    created: "",
    balance_cents: 0,
  });
}

/** @typedef {ReturnType<typeof userRows>[number]} UserRow */

/**
 * @param {UserRow} row
 */
function userView(row) {
  return {
    id: row.id,
    email: row.email,
    first_name: row.first_name,
    last_name: row.last_name,
    country: row.country,
    balance_cents: row.balance_cents,
    is_admin: !!row.is_admin,
    verified: !!row.verified,
    suspended: !!row.suspended,
    deleted: !!row.deleted,
    created: row.created,
  };
}

/**
 * One user as the list shows it, or a 404.
 * @param {CoreApp} app
 * @param {string} id
 */
function findUser(app, id) {
  const row = sql.oneRowOr404(
    app,
    userRows(),
    `SELECT ${USER_SELECT} FROM users u WHERE u.id = {:id} LIMIT 1`,
    { id },
    "No user with this id.",
  );
  return userView(row);
}

/** The role filter of the user list. */
const ROLES = ["all", "admins", "users"];

/**
 * The user list: newest first, filtered by search (e-mail, first or last name, any case,
 * anywhere in the text) and role, one page, with the counts of each role for the search.
 * @param {CoreApp} app
 * @param {{ search: string, role: string, page: number, perPage: number, offset: number }} query
 */
function listUsers(app, query) {
  const search = query.search.trim().slice(0, 100);
  const params = { q: sql.containsPattern(search), limit: query.perPage, offset: query.offset };
  const searchSql = search
    ? `(u.email LIKE {:q} ESCAPE '\\' OR u.first_name LIKE {:q} ESCAPE '\\' OR u.last_name LIKE {:q} ESCAPE '\\')`
    : "";

  const counts = new DynamicModel({ all: 0, admins: 0 });
  if (search) {
    app
      .db()
      .newQuery(
        `SELECT COUNT(*) AS "all", COALESCE(SUM(CASE WHEN u.is_admin THEN 1 ELSE 0 END), 0) AS admins FROM users u WHERE ${searchSql}`,
      )
      .bind(params)
      .one(counts);
  } else {
    // Two index-only counts (idx_users_is_admin) instead of a scan.
    app
      .db()
      .newQuery(`SELECT (SELECT COUNT(*) FROM users) AS "all", (SELECT COUNT(*) FROM users WHERE is_admin = TRUE) AS admins`)
      .one(counts);
  }

  const where = [searchSql];
  if (query.role === "admins") where.push("u.is_admin = TRUE");
  if (query.role === "users") where.push("u.is_admin = FALSE");
  const whereSql = where.filter(Boolean).join(" AND ");
  const rows = userRows();
  app
    .db()
    .newQuery(
      `SELECT ${USER_SELECT} FROM users u ${whereSql ? `WHERE ${whereSql}` : ""} ORDER BY u.created DESC, u.id DESC LIMIT {:limit} OFFSET {:offset}`,
    )
    .bind(params)
    .all(rows);

  const all = counts.all;
  const admins = counts.admins;
  const totalItems = query.role === "admins" ? admins : query.role === "users" ? all - admins : all;
  return {
    ...admin.listPage(rows.map(userView), totalItems, query),
    counts: { all, admins, users: all - admins },
  };
}

/** The refusal of a grant or a deletion whose typed e-mail is not the user's. */
const CONFIRM_EMAIL_MESSAGE = "Type the user's e-mail address to confirm.";

/**
 * Refuses (400 on confirm_email) unless `typed` is the user's e-mail address (trimmed, any case).
 * @param {core.Record} user
 * @param {unknown} typed
 */
function assertConfirmEmail(user, typed) {
  if (typeof typed !== "string" || typed.trim().toLowerCase() !== user.email().toLowerCase()) {
    throw new BadRequestError(CONFIRM_EMAIL_MESSAGE, {
      confirm_email: new ValidationError("confirm_email_mismatch", CONFIRM_EMAIL_MESSAGE),
    });
  }
}

/**
 * Inside a change's transaction: the caller is still an admin (read again, so two admins
 * acting on each other at once cannot both win; 403 otherwise) and the user exists (404).
 * @param {CoreApp} txApp
 * @param {string} adminId
 * @param {string} userId
 * @returns {core.Record} the user
 */
function lockTarget(txApp, adminId, userId) {
  const caller = new DynamicModel({ is_admin: false, suspended: false });
  txApp.db().newQuery("SELECT is_admin, suspended FROM users WHERE id = {:id}").bind({ id: adminId }).one(caller);
  if (!caller.is_admin || caller.suspended) throw new ForbiddenError("You need administrator privileges to do this.");
  try {
    return txApp.findRecordById("users", userId);
  } catch (_) {
    throw new NotFoundError("No user with this id.");
  }
}

/**
 * Refuses (409) a change to an account deleted on request.
 * @param {core.Record} user
 */
function assertNotDeleted(user) {
  if (user.getBool("deleted")) throw new ApiError(409, "This account was deleted on request and can no longer be changed.", {});
}

/**
 * Grants or removes another user's admin rights, with its audit row, in one transaction.
 * Granting needs the user's e-mail typed (`confirmEmail`, 400 otherwise). Never the
 * caller's own flag (400); never the last admin (409); never a deleted account (409); a
 * caller whose own rights were removed meanwhile is refused (403). Setting the flag it
 * already has changes nothing and writes no audit row.
 * @param {CoreApp} app
 * @param {string} adminId  the caller
 * @param {string} userId
 * @param {boolean} isAdmin
 * @param {unknown} [confirmEmail]  what the admin typed as the user's e-mail
 */
function setAdmin(app, adminId, userId, isAdmin, confirmEmail) {
  /** @type {typeof import("../core/audit.js")} */
  const audit = require(`${__hooks}/lib/core/audit.js`);
  if (userId === adminId) {
    throw new BadRequestError("You cannot change your own admin status.", {
      is_admin: new ValidationError("own_admin_status", "You cannot change your own admin status."),
    });
  }
  app.runInTransaction((txApp) => {
    const user = lockTarget(txApp, adminId, userId);
    const before = user.getBool("is_admin");
    if (before === isAdmin) return;
    if (isAdmin) {
      assertNotDeleted(user);
      assertConfirmEmail(user, confirmEmail);
    }
    if (!isAdmin) {
      const others = new DynamicModel({ n: 0 });
      txApp.db().newQuery("SELECT COUNT(*) AS n FROM users WHERE is_admin = TRUE AND id != {:id}").bind({ id: userId }).one(others);
      if (others.n === 0) {
        throw new ApiError(409, "At least one administrator must remain: grant someone else admin rights first.", {
          is_admin: new ValidationError("last_admin", "The last administrator cannot be removed."),
        });
      }
    }
    user.set("is_admin", isAdmin);
    txApp.save(user);
    audit.writeAuditLog(txApp, {
      adminId,
      action: isAdmin ? "users.admin_grant" : "users.admin_revoke",
      targetType: "users",
      targetId: userId,
      details: { email: user.email(), is_admin: { from: before, to: isAdmin } },
    });
  });
  return findUser(app, userId);
}

/**
 * GET /api/admin/users?search=&role=all|admins|users&page=&perPage=(1-100, default 20)
 * -> {items: [{id, email, first_name, last_name, country, balance_cents, is_admin, verified,
 *    created}], page, perPage, totalItems, totalPages, counts: {all, admins, users}}
 *
 * Newest first; search matches e-mail, first or last name (any case, anywhere); counts are
 * for the search whatever the role filter. 400 for an unknown role.
 * @param {core.RequestEvent} e
 */
function list(e) {
  admin.requireAdmin(e);
  const query = e.request?.url?.query();
  const role = String(query?.get("role") || "all");
  if (ROLES.indexOf(role) < 0) throw require(`${__hooks}/lib/core/api.js`).fieldError("role", "Role must be all, admins or users.");
  const search = String(query?.get("search") ?? "");
  return e.json(200, listUsers(e.app, { search, role, ...admin.paging(e, 100) }));
}

/**
 * POST /api/admin/users/{id}/admin {is_admin: boolean, confirm_email?: string} -> the user (list fields)
 *
 * Granting needs confirm_email, the user's e-mail typed (any case): 400 "Type the user's
 * e-mail address to confirm." otherwise. 400 own flag ("You cannot change your own admin
 * status."), 409 the last admin or a deleted account, 404 unknown user. Audit
 * users.admin_grant | users.admin_revoke {email, is_admin: {from, to}};
 * setting the flag the user already has changes nothing and writes no audit row.
 * @param {core.RequestEvent} e
 */
function changeAdmin(e) {
  const caller = admin.requireAdminWrite(e);
  /** @type {typeof import("../core/api.js")} */
  const api = require(`${__hooks}/lib/core/api.js`);
  const body = api.jsonBody(e);
  if (typeof body["is_admin"] !== "boolean") throw api.fieldError("is_admin", "Admin status (is_admin) must be true or false.");
  return e.json(200, setAdmin(e.app, caller.id, e.request?.pathValue("id") ?? "", body["is_admin"], body["confirm_email"]));
}

module.exports = { findUser, list, changeAdmin, assertConfirmEmail, lockTarget, assertNotDeleted };
