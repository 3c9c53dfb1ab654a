// @ts-check
// A new administrator's account, the part admin registration by invitation
// (admin-register.js) and the first administrator's setup link (admin-setup.js) share: the
// form's fields checked with the shop's rules, and the verified, onboarded admin user saved
// and the claim of the one-time link that makes the admin, with its audit row, in one
// transaction. Each route checks its own link first and names its own errors and audit row.

/**
 * @typedef {{first_name: string, last_name: string, email: string, password: string}} AdminAccountInput
 */

/**
 * The account fields of a request body ({first_name, last_name, email, password}), checked:
 * 400 with field errors for names or an e-mail that do not pass, a weak password, or one
 * longer than bcrypt reads. The e-mail is lower-cased.
 * @param {Record<string, unknown>} body
 * @returns {AdminAccountInput}
 */
function adminAccountInput(body) {
  /** @type {typeof import("../core/api.js")} */
  const api = require(`${__hooks}/lib/core/api.js`);
  /** @type {typeof import("./signup.js")} */
  const signup = require(`${__hooks}/lib/accounts/signup.js`);
  const input = {
    first_name: api.text(body["first_name"]),
    last_name: api.text(body["last_name"]),
    email: api.text(body["email"]).toLowerCase(),
    password: typeof body["password"] === "string" ? body["password"] : "",
  };
  signup.throwFieldErrors(signup.personErrors(input));
  require(`${__hooks}/lib/accounts/passwords.js`).assertStrongPassword(input.password);
  if (input.password.length > 72) {
    // bcrypt reads 72 bytes at most: a longer password would silently be cut.
    throw new BadRequestError("Password must be at most 72 characters.", {
      password: new ValidationError("validation_max_length", "Password must be at most 72 characters."),
    });
  }
  return input;
}

/**
 * Saves a verified, onboarded admin user with `input`'s names, e-mail and password. Call
 * inside the transaction that claims the link; a taken e-mail fails the save (not_unique).
 * @param {CoreApp} txApp
 * @param {AdminAccountInput} input  from adminAccountInput
 * @param {string} now  dbDate(), the moment the link was claimed
 * @returns {core.Record} the new admin
 */
function createAdminUser(txApp, input, now) {
  const user = new Record(txApp.findCachedCollectionByNameOrId("users"));
  user.set("email", input.email);
  user.set("first_name", input.first_name);
  user.set("last_name", input.last_name);
  user.set("verified", true);
  user.set("is_admin", true);
  user.set("onboarding_completed", true);
  user.set("onboarding_completed_at", now);
  user.setPassword(input.password);
  txApp.save(user);
  return user;
}

/**
 * @typedef {object} AdminLink  a one-time link that makes an administrator
 * @property {"admin_invitations" | "admin_setup_tokens"} table
 * @property {string} id
 * @property {string} open  SQL that must also hold for the link to be usable ("" or " AND revoked_at = ''")
 * @property {(txApp: CoreApp, now: string) => unknown} refused  the error when it was used or expired meanwhile
 * @property {() => unknown} duplicate  the error when the e-mail has an account
 * @property {(admin: core.Record) => {action: string, targetType: string, targetId: string, details: unknown}} audit
 */

/**
 * Claims `link` (a conditional UPDATE, so two simultaneous requests cannot both use it),
 * saves the admin from `input`, records who used the link and writes its audit row with the
 * new admin as its admin, all in one transaction. A taken e-mail throws link.duplicate().
 * @param {CoreApp} app
 * @param {AdminLink} link
 * @param {AdminAccountInput} input  from adminAccountInput
 * @returns {core.Record} the new admin
 */
function createByLink(app, link, input) {
  /** @type {typeof import("../core/audit.js")} */
  const audit = require(`${__hooks}/lib/core/audit.js`);
  let user = /** @type {core.Record | null} */ (null);
  try {
    app.runInTransaction((txApp) => {
      const now = require(`${__hooks}/lib/core/sql.js`).dbDate();
      const claimed = txApp
        .db()
        .newQuery(
          `UPDATE ${link.table} SET used_at = {:now}, updated = {:now}
            WHERE id = {:id} AND used_at = ''${link.open} AND expires_at > {:now}`,
        )
        .bind({ now, id: link.id })
        .execute();
      if (claimed.rowsAffected() !== 1) throw link.refused(txApp, now);
      const admin = createAdminUser(txApp, input, now);
      user = admin;
      txApp.db().newQuery(`UPDATE ${link.table} SET used_by = {:user} WHERE id = {:id}`).bind({ user: admin.id, id: link.id }).execute();
      audit.writeAuditLog(txApp, { adminId: admin.id, ...link.audit(admin) });
    });
  } catch (err) {
    if (/not_unique|must be unique/i.test(String(err))) throw link.duplicate();
    throw err;
  }
  return /** @type {core.Record} */ (user);
}

module.exports = { adminAccountInput, createByLink };
