// @ts-check
// Referrals: the link a sign-up with an affiliate's code makes, and the affiliate's
// total_referrals, which counts only referred users who verified their e-mail (so sign-ups
// with someone's code that never verify do not inflate it).

/**
 * Links a new account to the affiliate whose code is `code` (case-insensitive): one
 * pending referral row with no commission. Unknown codes are ignored. total_referrals
 * is not touched here: it counts only referred users who have verified their e-mail
 * (recountReferrals, on verification). Must run inside the sign-up transaction.
 * @param {CoreApp} txApp
 * @param {core.Record} user
 * @param {string} code
 * @returns {boolean} whether a referral was created
 */
function linkReferral(txApp, user, code) {
  if (!code) return false;
  /** @type {core.Record} */
  let affiliate;
  try {
    affiliate = txApp.findFirstRecordByFilter("affiliates", "code = {:code}", { code: code.toUpperCase() });
  } catch (_) {
    return false;
  }
  const referral = new Record(txApp.findCachedCollectionByNameOrId("referrals"));
  referral.set("affiliate_id", affiliate.id);
  referral.set("referred_user_id", user.id);
  referral.set("commission_cents", 0);
  referral.set("status", "pending");
  txApp.save(referral);
  return true;
}

/**
 * Sets affiliates.total_referrals of the affiliate that referred `userId` (if any) to
 * the number of its referrals whose referred user has a verified e-mail. Idempotent, so
 * a verified flag toggled back and forth never counts twice.
 * @param {CoreApp} txApp
 * @param {string} userId  the referred user
 */
function recountReferrals(txApp, userId) {
  /** @type {core.Record} */
  let referral;
  try {
    referral = txApp.findFirstRecordByFilter("referrals", "referred_user_id = {:userId}", { userId });
  } catch (_) {
    return; // not referred by anybody
  }
  recountAffiliate(txApp, referral.getString("affiliate_id"));
}

/** The referrals that count (aliases cr, cu): those whose referred user verified their e-mail. */
const COUNTED_REFERRALS = "referrals cr JOIN users cu ON cu.id = cr.referred_user_id AND cu.verified = TRUE";

/**
 * How many referrals of an affiliate count (COUNTED_REFERRALS).
 * @param {CoreApp} app
 * @param {string} affiliateId
 */
function countedReferrals(app, affiliateId) {
  const row = new DynamicModel({ n: 0 });
  app.db().newQuery(`SELECT COUNT(*) AS n FROM ${COUNTED_REFERRALS} WHERE cr.affiliate_id = {:affiliateId}`).bind({ affiliateId }).one(row);
  return row.n;
}

/**
 * Sets the affiliate's total_referrals to its number of referrals with a verified
 * referred user. A missing affiliate (deleted meanwhile) is ignored.
 * @param {CoreApp} txApp
 * @param {string} affiliateId
 */
function recountAffiliate(txApp, affiliateId) {
  /** @type {core.Record} */
  let affiliate;
  try {
    affiliate = txApp.findRecordById("affiliates", affiliateId);
  } catch (_) {
    return;
  }
  const n = countedReferrals(txApp, affiliateId);
  if (affiliate.getInt("total_referrals") !== n) {
    affiliate.set("total_referrals", n);
    txApp.save(affiliate);
  }
}

/**
 * Deletes the referral a sign-up made for `userId` (the affiliate's counts follow on commit,
 * referralDeleted). Inside the caller's transaction.
 * @param {CoreApp} txApp
 * @param {string} userId
 * @returns {boolean} whether there was one
 */
function dropSignupReferral(txApp, userId) {
  const referrals = txApp.findRecordsByFilter("referrals", "referred_user_id = {:userId}", "", 0, 0, { userId });
  for (const referral of referrals) if (referral) txApp.delete(referral);
  return referrals.length > 0;
}

/**
 * After a referral is deleted (its user deleted), it no longer counts. After the commit, so
 * a cascade that also deletes the affiliate finds nothing to update.
 * @param {core.RecordEvent} e
 */
function referralDeleted(e) {
  e.next();
  if (e.record) recountAffiliate(e.app, e.record.getString("affiliate_id"));
}

module.exports = { COUNTED_REFERRALS, countedReferrals, linkReferral, recountReferrals, dropSignupReferral, referralDeleted };
