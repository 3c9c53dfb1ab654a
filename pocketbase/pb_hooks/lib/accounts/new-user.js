// @ts-check
// What every user gets on creation: a balance row at 0 and an affiliate row whose code
// is the first 8 characters of the user id upper-cased. Idempotent.

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

module.exports = { provisionUser };
