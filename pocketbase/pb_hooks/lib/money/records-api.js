// @ts-check
// The records API on the money collections (the hooks in money.pb.js): money is written by
// the server only. Balances and the ledger change together through lib/money/ledger.js
// (balance = sum of the user's transactions); referral rows and counts by the sign-up and
// verification hooks; payments, orders, commissions and payouts by their routes. The
// records API refuses every write to them, superusers (the dashboard) included; request
// hooks fire only on API requests, so hooks saving with app.save() are unaffected.

/** @typedef {"create" | "update" | "delete"} Write */

/** Each collection's refusal of each write through the records API. */
/** @type {Record<string, Record<Write, string>>} */
const REFUSALS = {
  balances: {
    create: "Balances and ledger entries are written by the server only; use the admin balance route.",
    update: "Balances and ledger entries cannot be changed through the API; use the admin balance route.",
    delete: "Balances and ledger entries cannot be deleted through the API.",
  },
  // Created at sign-up, deleted with their user; nothing edits them by hand.
  referrals: {
    create: "Referrals are created by the server only.",
    update: "Referrals cannot be changed through the API.",
    delete: "Referrals cannot be deleted through the API.",
  },
  // One per user, made when the user is created and deleted with them; a superuser may
  // change the code (checkAffiliateUpdate).
  affiliates: {
    create: "Affiliate accounts are created by the server only.",
    update: "", // checkAffiliateUpdate
    delete: "Affiliate accounts cannot be deleted through the API.",
  },
  payments: {
    create: "Payments, orders and commissions are written by the server only.",
    update: "Payments, orders and commissions cannot be changed through the API.",
    delete: "Payments, orders and commissions cannot be deleted through the API.",
  },
  referral_payouts: {
    create: "Referral payouts are written by the server only; use Pay in Affiliate Management.",
    update: "Referral payouts cannot be changed.",
    delete: "Referral payouts cannot be deleted.",
  },
};
REFUSALS["transactions"] = REFUSALS["balances"];
REFUSALS["proxy_orders"] = REFUSALS["payments"];
REFUSALS["commissions"] = REFUSALS["payments"];

/**
 * onRecord{Create,Update,Delete}Request: the collection's refusal of this write.
 * @param {core.RecordRequestEvent} e
 * @param {Write} write
 */
function refuse(e, write) {
  const message = REFUSALS[e.collection?.name ?? ""]?.[write];
  if (message) throw new ForbiddenError(message);
  e.next();
}

/** The affiliate fields with money attached: the owner, the counts and the earnings. */
const AFFILIATE_SERVER_FIELDS = ["user_id", "total_referrals", "total_earnings_cents", "pending_earnings_cents"];

/**
 * onRecordUpdateRequest on affiliates: only the code may change.
 * @param {core.RecordRequestEvent} e
 */
function checkAffiliateUpdate(e) {
  const record = e.record;
  if (record) {
    const stored = record.original();
    for (const field of AFFILIATE_SERVER_FIELDS) {
      if (String(record.get(field)) !== String(stored.get(field))) {
        throw new ForbiddenError(`${field} is maintained by the server and cannot be changed through the API.`);
      }
    }
  }
  e.next();
}

module.exports = { refuse, checkAffiliateUpdate };
