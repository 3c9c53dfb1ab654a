// @ts-check
// Deleting an account on request (issue #15, the admin's tools). The person's data goes;
// what accounting must keep stays, tied to the anonymous row:
//   erased   e-mail (now deleted-<id>@deleted.invalid, which no mail reaches and which
//            frees the address for a new account), first and last name, country, sign-up
//            address, the affiliate payout method; the password becomes a random one nobody
//            knows, every session ends, and the account is suspended and marked deleted (it
//            can never sign in again); their support tickets with their chats and the contact
//            messages sent from their address (their own words, no accounting need) are deleted.
//            It stays verified: a referral it was still counts for the referrer.
//   kept     the balance and its ledger rows, orders, payments, referrals and commissions
//            (user_id still points at the row, now anonymous). Proxies they hold stay
//            theirs until they expire, with auto-renew turned off: the period was paid for,
//            and a proxy handed back at once would be sold with credentials the former
//            owner still has; the expiry job returns them to stock as it does every proxy.
// Older audit rows keep what they recorded (H6 shows the target as "Deleted user").

/** The address an erased account gets: unique, and never delivered (.invalid, RFC 2606). */
const erasedEmail = (/** @type {string} */ id) => `deleted-${id}@deleted.invalid`;

/**
 * A random password nobody learns.
 */
function randomPassword() {
  return $security.randomString(48);
}

/**
 * POST /api/admin/users/{id}/delete {confirm_email} -> the user (list fields, now anonymous)
 *
 * Erases another user's personal data and keeps their row for the ledger (see above).
 * confirm_email is the user's e-mail typed (any case): 400 "Type the user's e-mail address
 * to confirm." otherwise. 400 the caller's own account ("You cannot delete your own
 * account."), 409 an admin ("Remove this user's admin rights before deleting the account.")
 * or an account deleted already, 404 unknown user. Audit users.erase {email: the anonymous
 * address, tickets_deleted, proxies_kept} (never the erased data).
 * @param {core.RequestEvent} e
 */
function deleteOnRequest(e) {
  /** @type {typeof import("../core/admin.js")} */
  const admin = require(`${__hooks}/lib/core/admin.js`);
  /** @type {typeof import("../core/api.js")} */
  const api = require(`${__hooks}/lib/core/api.js`);
  /** @type {typeof import("./user-admin.js")} */
  const users = require(`${__hooks}/lib/accounts/user-admin.js`);
  const caller = admin.requireAdminWrite(e);
  const body = api.jsonBody(e);
  const userId = e.request?.pathValue("id") ?? "";
  if (userId === caller.id) throw api.fieldError("confirm_email", "You cannot delete your own account.", "own_account");
  admin.auditedChange(e, (txApp) => {
    const user = users.lockTarget(txApp, caller.id, userId);
    users.assertNotDeleted(user);
    if (user.getBool("is_admin")) {
      throw new ApiError(409, "Remove this user's admin rights before deleting the account.", {});
    }
    users.assertConfirmEmail(user, body["confirm_email"]);

    const tickets = txApp.findRecordsByFilter("support_tickets", "user_id = {:id}", "", 0, 0, { id: userId });
    for (const ticket of tickets) {
      if (ticket) txApp.delete(ticket);
    }
    const contact = txApp
      .db()
      .newQuery("DELETE FROM contact_messages WHERE LOWER(email) = {:email}")
      .bind({ email: user.email().toLowerCase() })
      .execute();
    txApp.db().newQuery("UPDATE affiliates SET payout_method = '' WHERE user_id = {:id}").bind({ id: userId }).execute();
    const kept = new DynamicModel({ n: 0 });
    txApp.db().newQuery("SELECT COUNT(*) AS n FROM proxies WHERE assigned_to_user_id = {:id}").bind({ id: userId }).one(kept);
    txApp.db().newQuery("UPDATE proxies SET auto_renew = FALSE WHERE assigned_to_user_id = {:id}").bind({ id: userId }).execute();

    const email = erasedEmail(userId);
    user.setEmail(email);
    user.setEmailVisibility(false);
    user.setPassword(randomPassword());
    user.refreshTokenKey();
    for (const field of ["first_name", "last_name", "country", "signup_ip"]) user.set(field, "");
    user.set("password_set", false);
    user.set("suspended", true);
    user.set("deleted", true);
    txApp.save(user);
    return {
      result: null,
      audit: {
        action: "users.erase",
        targetType: "users",
        targetId: userId,
        details: {
          email,
          reason: "Deleted on request",
          tickets_deleted: tickets.length,
          contact_messages_deleted: contact.rowsAffected(),
          proxies_kept: kept.n,
        },
      },
    };
  });
  return e.json(200, users.findUser(e.app, userId));
}

module.exports = { deleteOnRequest };
