// @ts-check
// What every user gets on creation (sign-up route, dashboard, seed), in the transaction that
// creates them: a balance row at 0 and an affiliate row whose code is the first 8
// characters of the user id upper-cased; and password_set false only for accounts made by
// sign-up (their secret is random and nobody knows it), true for every other way.

/**
 * @param {CoreApp} txApp  call inside the transaction that creates the user
 * @param {string} userId
 */
function provisionUser(txApp, userId) {
  /** @type {typeof import("../money/ledger.js")} */
  const { balanceRecord } = require(`${__hooks}/lib/money/ledger.js`);
  balanceRecord(txApp, userId);
  const hasAffiliate = txApp.countRecords("affiliates", $dbx.hashExp({ user_id: userId })) > 0;
  if (!hasAffiliate) {
    const affiliate = new Record(txApp.findCachedCollectionByNameOrId("affiliates"));
    affiliate.set("user_id", userId);
    affiliate.set("code", affiliateCode(userId));
    affiliate.set("total_referrals", 0);
    affiliate.set("total_earnings_cents", 0);
    affiliate.set("pending_earnings_cents", 0);
    txApp.save(affiliate);
  }
}

/** @param {string} userId */
function affiliateCode(userId) {
  return userId.slice(0, 8).toUpperCase();
}

/**
 * The users create hook: the user is saved and provisioned in one transaction.
 * @param {core.RecordEvent} e
 */
function createUser(e) {
  const record = e.record;
  if (record && record.get(require(`${__hooks}/lib/accounts/signup.js`).SIGNUP_MARKER) !== true) {
    record.set("password_set", true);
  }
  e.app.runInTransaction((txApp) => {
    e.app = txApp;
    e.next();
    provisionUser(txApp, record?.id ?? "");
  });
}

module.exports = { provisionUser, createUser };
