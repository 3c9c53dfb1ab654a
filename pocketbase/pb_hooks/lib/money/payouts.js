// @ts-check
// Paying a referral (POST /api/admin/referrals/{id}/pay): a payout record, the money leaves
// outside the shop, so no balance or ledger row changes.

/** @type {typeof import("../core/sql.js")} */
const sql = require(`${__hooks}/lib/core/sql.js`);
/** @type {typeof import("../affiliate/affiliate-admin.js")} */
const affiliates = require(`${__hooks}/lib/affiliate/affiliate-admin.js`);

const ROUTE = "POST /api/admin/referrals/{id}/pay";

/** The programme's minimum payout ($50.00) and its refusal, stated once in catalog.json. */
const TERMS = require(`${__hooks}/lib/catalog.json`).affiliate;

/**
 * POST /api/admin/referrals/{id}/pay  (no body)  Idempotency-Key
 * -> {payout: {id, referral_id, affiliate_id, admin_id, amount_cents, commission_ids, created},
 *     referral: (as in the referrals list), affiliate: (as in the affiliates list)}
 *
 * Marks every pending commission of the referral paid, the referral paid (paid_at), and
 * lowers the affiliate's pending earnings by the amount, in one transaction with one audit
 * row `referrals.pay`. A payout made outside the shop: no balance or ledger row changes.
 * The same key again answers the first payout (header Idempotent-Replayed: true, no second
 * audit row); the key used for another referral: 422. Nothing pending: 409 (already paid)
 * or 400 (nothing earned). Less than the programme's minimum payout pending (catalog.json
 * affiliate.minimum_payout_cents, $50.00): 400 "Payout must be at least $50.00: this
 * referral has $9.00 pending.", nothing changes (the commission waits for more).
 * Unknown referral 404; demo mode 403; no or bad Idempotency-Key 400.
 * @param {core.RequestEvent} e
 */
function pay(e) {
  /** @type {typeof import("../core/admin.js")} */
  const admin = require(`${__hooks}/lib/core/admin.js`);
  /** @type {typeof import("../core/api.js")} */
  const api = require(`${__hooks}/lib/core/api.js`);
  /** @type {typeof import("../core/idempotency.js")} */
  const idempotency = require(`${__hooks}/lib/core/idempotency.js`);
  const user = admin.requireAdminWrite(e);
  const key = api.idempotencyKey(e);
  const referralId = e.request?.pathValue("id") ?? "";
  try {
    e.app.findRecordById("referrals", referralId);
  } catch (_) {
    throw new NotFoundError("This referral does not exist (any more).");
  }
  return idempotency.answerOnce(
    e,
    { userId: user.id, key, route: ROUTE, input: referralId, collection: "referral_payouts", kind: "payouts" },
    (txApp, keyed) => payReferral(txApp, user.id, referralId, keyed),
    payoutView,
  );
}

/**
 * Pays a referral inside the caller's transaction: every pending commission of it becomes
 * paid, the referral paid (paid_at now), the affiliate's pending earnings drop by the amount
 * (paid = total - pending), a referral_payouts row records it with the admin's key, and ONE
 * audit row `referrals.pay`. Nothing pending: 409 when it was paid before, else 400.
 * Answers the payout's id.
 * @param {CoreApp} txApp
 * @param {string} adminId
 * @param {string} referralId
 * @param {{ key: string, hash: string }} keyed
 */
function payReferral(txApp, adminId, referralId, keyed) {
  /** @type {typeof import("../core/audit.js")} */
  const audit = require(`${__hooks}/lib/core/audit.js`);
  const referral = txApp.findRecordById("referrals", referralId);
  const pendingIds = sql.rowsLike({ id: "" });
  txApp
    .db()
    .newQuery(`SELECT c.id FROM commissions c WHERE c.referral_id = {:id} AND ${affiliates.PAYABLE} ORDER BY c.created`)
    .bind({ id: referral.id })
    .all(pendingIds);
  const pending = pendingIds.map((row) => txApp.findRecordById("commissions", row.id));
  // Clawbacks of refunded or charged-back payments (negative rows) are netted here.
  const amount = pending.reduce((sum, c) => sum + c.getInt("amount_cents") - c.getInt("reversed_cents"), 0);
  if (amount < 1) {
    if (pending.length > 0) {
      throw new ApiError(
        409,
        "Nothing to pay: clawbacks of refunded or charged-back payments outweigh this referral's pending commission. They are netted against its next commissions.",
      );
    }
    if (referral.getString("status") === "paid" || referral.getInt("commission_cents") > 0) {
      throw new ApiError(409, "This referral is already paid: it has no pending commission.");
    }
    throw new BadRequestError("This referral has no pending commission to pay.");
  }
  if (amount < TERMS.minimum_payout_cents) {
    throw new BadRequestError(
      `${TERMS.minimum_payout_message}: this referral has ${require(`${__hooks}/lib/money/ledger.js`).formatUsd(amount)} pending.`,
    );
  }

  const now = new DateTime();
  /** @type {string[]} */
  const commissionIds = [];
  for (const commission of pending) {
    commission.set("status", "paid");
    commission.set("paid_at", now);
    txApp.save(commission);
    commissionIds.push(commission.id);
  }
  referral.set("status", "paid");
  referral.set("paid_at", now);
  txApp.save(referral);

  const affiliate = txApp.findRecordById("affiliates", referral.getString("affiliate_id"));
  const pendingBefore = affiliate.getInt("pending_earnings_cents");
  const pendingAfter = pendingBefore - amount;
  affiliate.set("pending_earnings_cents", pendingAfter);
  txApp.save(affiliate);

  const payout = new Record(txApp.findCachedCollectionByNameOrId("referral_payouts"));
  payout.set("affiliate_id", affiliate.id);
  payout.set("referral_id", referral.id);
  payout.set("admin_id", adminId);
  payout.set("amount_cents", amount);
  payout.set("commission_ids", commissionIds);
  payout.set("idempotency_key", keyed.key);
  payout.set("request_hash", keyed.hash);
  txApp.save(payout);

  const people = sql.rowsLike({ affiliate_email: "", referred_email: "" });
  txApp
    .db()
    .newQuery(
      `SELECT COALESCE((SELECT email FROM users WHERE id = {:affiliateUser}), '') AS affiliate_email,
              COALESCE((SELECT email FROM users WHERE id = {:referredUser}), '') AS referred_email`,
    )
    .bind({ affiliateUser: affiliate.getString("user_id"), referredUser: referral.getString("referred_user_id") })
    .all(people);
  audit.writeAuditLog(txApp, {
    adminId,
    action: "referrals.pay",
    targetType: "referrals",
    targetId: referral.id,
    details: {
      amount_cents: amount,
      payout_id: payout.id,
      commission_ids: commissionIds,
      affiliate_id: affiliate.id,
      affiliate_user_id: affiliate.getString("user_id"),
      affiliate_email: people[0]?.affiliate_email ?? "",
      referred_user_id: referral.getString("referred_user_id"),
      referred_email: people[0]?.referred_email ?? "",
      affiliate_pending_before_cents: pendingBefore,
      affiliate_pending_after_cents: pendingAfter,
    },
  });
  return payout.id;
}

/**
 * What the pay route answers: the payout, the referral and its affiliate as they are now.
 * @param {CoreApp} app
 * @param {string} payoutId
 */
function payoutView(app, payoutId) {
  const payout = app.findRecordById("referral_payouts", payoutId);
  const referral = affiliates.referralView(app, payout.getString("referral_id"));
  return {
    payout: {
      id: payout.id,
      referral_id: referral.id,
      affiliate_id: payout.getString("affiliate_id"),
      admin_id: payout.getString("admin_id"),
      amount_cents: payout.getInt("amount_cents"),
      commission_ids: /** @type {string[]} */ (JSON.parse(payout.getString("commission_ids") || "[]")),
      created: payout.getString("created"),
    },
    referral,
    affiliate: affiliates.affiliateView(app, referral.affiliate_id),
  };
}

module.exports = { pay };
