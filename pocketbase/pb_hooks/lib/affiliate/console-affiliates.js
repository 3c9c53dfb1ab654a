// @ts-check
// The console's Affiliate Management: the affiliates list and its stats, one affiliate's
// referrals, and paying a referral (a payout record: the money leaves outside the shop, so
// no balance or ledger row changes). Commissions are earned in lib/affiliate/affiliate.js.
//
// Listed affiliates: those with at least one referral that counts (a referred user with a
// verified e-mail: affiliates.total_referrals) or any earnings. Every user has an
// affiliates row; the others have nothing to manage and would bury the ones that do.

/** @type {typeof import("../audit/admin.js")} */
const admin = require(`${__hooks}/lib/audit/admin.js`);
/** @type {typeof import("../core/sql.js")} */
const sql = require(`${__hooks}/lib/core/sql.js`);
/** @type {typeof import("../audit/console-audit-logs.js")} */
const logs = require(`${__hooks}/lib/audit/console-audit-logs.js`);

/** Which affiliates the console lists (the partial index idx_affiliates_console holds them). */
const LISTED = "(a.total_referrals > 0 OR a.total_earnings_cents > 0)";

const AFFILIATE_COLUMNS = `a.id, a.user_id, u.email AS user_email, u.first_name AS user_first_name, u.last_name AS user_last_name,
  a.code, a.total_earnings_cents, a.pending_earnings_cents, a.total_earnings_cents - a.pending_earnings_cents AS paid_earnings_cents,
  a.total_referrals`;

function affiliateRows() {
  return sql.rowsLike({
    id: "",
    user_id: "",
    user_email: "",
    user_first_name: "",
    user_last_name: "",
    code: "",
    total_earnings_cents: 0,
    pending_earnings_cents: 0,
    paid_earnings_cents: 0,
    total_referrals: 0,
  });
}

/**
 * A page of listed affiliates, most pending earnings first, and the programme's stats (all
 * listed affiliates, whatever the search).
 * @param {CoreApp} app
 * @param {{search: string, page: number, perPage: number, offset: number}} query
 */
function list(app, query) {
  /** @type {Record<string, unknown>} */
  const params = { limit: query.perPage, offset: query.offset };
  let searchSql = "";
  if (query.search) {
    params["q"] = logs.containsPattern(query.search);
    searchSql = `AND (u.email LIKE {:q} ESCAPE '\\' OR u.first_name LIKE {:q} ESCAPE '\\' OR u.last_name LIKE {:q} ESCAPE '\\'
      OR (u.first_name || ' ' || u.last_name) LIKE {:q} ESCAPE '\\' OR a.code LIKE {:q} ESCAPE '\\')`;
  }
  const from = `FROM affiliates a JOIN users u ON u.id = a.user_id WHERE ${LISTED} ${searchSql}`;
  const count = new DynamicModel({ n: 0 });
  app.db().newQuery(`SELECT COUNT(*) AS n ${from}`).bind(params).one(count);
  const rows = affiliateRows();
  app
    .db()
    .newQuery(
      `SELECT ${AFFILIATE_COLUMNS} ${from}
       ORDER BY a.pending_earnings_cents DESC, a.total_earnings_cents DESC, a.total_referrals DESC, a.id
       LIMIT {:limit} OFFSET {:offset}`,
    )
    .bind(params)
    .all(rows);

  const stats = new DynamicModel({ total_affiliates: 0, commission_paid_cents: 0, pending_payouts_cents: 0, total_referrals: 0 });
  app
    .db()
    .newQuery(
      `SELECT COUNT(*) AS total_affiliates,
              COALESCE(SUM(a.total_earnings_cents - a.pending_earnings_cents), 0) AS commission_paid_cents,
              COALESCE(SUM(a.pending_earnings_cents), 0) AS pending_payouts_cents,
              COALESCE(SUM(a.total_referrals), 0) AS total_referrals
       FROM affiliates a WHERE ${LISTED}`,
    )
    .one(stats);

  return {
    ...admin.listPage(rows, count.n, query),
    stats: {
      total_affiliates: stats.total_affiliates,
      commission_paid_cents: stats.commission_paid_cents,
      pending_payouts_cents: stats.pending_payouts_cents,
      total_referrals: stats.total_referrals,
    },
  };
}

/**
 * One affiliate as the list shows it (any affiliate, listed or not); 404 when unknown.
 * @param {CoreApp} app
 * @param {string} id
 */
function affiliateView(app, id) {
  const rows = affiliateRows();
  app
    .db()
    .newQuery(`SELECT ${AFFILIATE_COLUMNS} FROM affiliates a JOIN users u ON u.id = a.user_id WHERE a.id = {:id} LIMIT 1`)
    .bind({ id })
    .all(rows);
  const row = rows[0];
  if (!row) throw new NotFoundError("This affiliate does not exist (any more).");
  return row;
}

/**
 * The pending commissions a payout pays: net of reversals and clawbacks (negative rows),
 * never those of test-provider payments (legacy rows: test money is never owed).
 */
const PAYABLE = `c.status = 'pending' AND c.payment_id NOT IN (SELECT id FROM payments WHERE provider = 'test')`;

/** The referral columns the console reads: the referred user, the amount still to pay, and
 * the commission that came from test payments (shown with a "Test" badge, never owed). */
const REFERRAL_COLUMNS = `r.id, r.affiliate_id, r.referred_user_id, u.email AS user_email, u.first_name AS user_first_name,
  u.last_name AS user_last_name, u.verified AS user_verified, r.commission_cents,
  COALESCE((SELECT SUM(c.amount_cents - c.reversed_cents) FROM commissions c WHERE c.referral_id = r.id AND ${PAYABLE}), 0) AS pending_cents,
  COALESCE((SELECT SUM(c.amount_cents) FROM commissions c JOIN payments p ON p.id = c.payment_id
    WHERE c.referral_id = r.id AND p.provider = 'test'), 0) AS test_commission_cents,
  r.status, r.created, COALESCE(r.paid_at, '') AS paid_at,
  EXISTS (SELECT 1 FROM affiliates fa JOIN users fu ON fu.id = fa.user_id
    WHERE fa.id = r.affiliate_id AND fu.signup_ip != '' AND fu.signup_ip = u.signup_ip) AS flag_same_signup_address,
  EXISTS (SELECT 1 FROM affiliates fa JOIN payments fp ON fp.user_id = fa.user_id JOIN payments rp ON rp.card_fingerprint = fp.card_fingerprint
    WHERE fa.id = r.affiliate_id AND rp.user_id = r.referred_user_id AND fp.card_fingerprint != '') AS flag_same_payment_card`;

/**
 * Referral rows as the API answers them: the flag columns become `flags`, the reasons to
 * check a referral before paying it (finding 10): "same_signup_address" (the referrer and
 * the referred user signed up from one address), "same_payment_card" (they paid with the
 * same card).
 * @param {ReturnType<typeof referralRows>} rows
 */
function withFlags(rows) {
  return rows.map((row) => {
    /** @type {Record<string, unknown>} */
    const out = {};
    for (const key of Object.keys(REFERRAL_SHAPE)) {
      if (!key.startsWith("flag_")) out[key] = row[/** @type {keyof typeof REFERRAL_SHAPE} */ (key)];
    }
    /** @type {string[]} */
    const flags = [];
    if (row.flag_same_signup_address) flags.push("same_signup_address");
    if (row.flag_same_payment_card) flags.push("same_payment_card");
    out["flags"] = flags;
    return /** @type {Omit<typeof REFERRAL_SHAPE, "flag_same_signup_address" | "flag_same_payment_card"> & { flags: string[] }} */ (out);
  });
}

const REFERRAL_SHAPE = {
  id: "",
  affiliate_id: "",
  referred_user_id: "",
  user_email: "",
  user_first_name: "",
  user_last_name: "",
  user_verified: false,
  commission_cents: 0,
  pending_cents: 0,
  test_commission_cents: 0,
  status: "",
  created: "",
  paid_at: "",
  flag_same_signup_address: false,
  flag_same_payment_card: false,
};

function referralRows() {
  return sql.rowsLike({ ...REFERRAL_SHAPE });
}

/**
 * A page of an affiliate's referrals, newest first, with the affiliate's current figures.
 * @param {CoreApp} app
 * @param {string} affiliateId
 * @param {{page: number, perPage: number, offset: number}} query
 */
function referrals(app, affiliateId, query) {
  const affiliate = affiliateView(app, affiliateId);
  const count = new DynamicModel({ n: 0 });
  app.db().newQuery("SELECT COUNT(*) AS n FROM referrals WHERE affiliate_id = {:id}").bind({ id: affiliateId }).one(count);
  const rows = referralRows();
  app
    .db()
    .newQuery(
      `SELECT ${REFERRAL_COLUMNS} FROM referrals r JOIN users u ON u.id = r.referred_user_id
       WHERE r.affiliate_id = {:id} ORDER BY r.created DESC, r.id DESC LIMIT {:limit} OFFSET {:offset}`,
    )
    .bind({ id: affiliateId, limit: query.perPage, offset: query.offset })
    .all(rows);
  return {
    affiliate,
    ...admin.listPage(withFlags(rows), count.n, query),
  };
}

/**
 * One referral as the console shows it; 404 when unknown.
 * @param {CoreApp} app
 * @param {string} id
 */
function referralView(app, id) {
  const rows = referralRows();
  app
    .db()
    .newQuery(`SELECT ${REFERRAL_COLUMNS} FROM referrals r JOIN users u ON u.id = r.referred_user_id WHERE r.id = {:id} LIMIT 1`)
    .bind({ id })
    .all(rows);
  const row = rows[0];
  if (!row) throw new NotFoundError("This referral does not exist (any more).");
  return withFlags([row])[0];
}

const PAY_ROUTE = "POST /api/admin/referrals/{id}/pay";

/**
 * Pays a referral, behind the admin's Idempotency-Key, in one transaction: every pending
 * commission of it becomes paid, the referral paid (paid_at now), the affiliate's pending
 * earnings drop by the amount (paid = total - pending), a referral_payouts row records it,
 * and ONE audit row `referrals.pay`. The same key for the same referral answers the first
 * payout again (no second audit row); for another referral it is refused (422).
 * Nothing pending: 409 when it was paid before, else 400.
 * @param {CoreApp} app
 * @param {{adminId: string, referralId: string, key: string}} request
 * @returns {{payoutId: string, replayed: boolean}}
 */
function pay(app, request) {
  /** @type {typeof import("../audit/audit.js")} */
  const audit = require(`${__hooks}/lib/audit/audit.js`);
  const hash = $security.sha256(`${PAY_ROUTE}\n${request.referralId}`);
  let payoutId = "";
  let replayed = false;
  // Not admin.auditedChange: a replay must answer without writing a second audit row.
  app.runInTransaction((txApp) => {
    const earlier = sql.rowsLike({ id: "", request_hash: "" });
    txApp
      .db()
      .newQuery("SELECT id, request_hash FROM referral_payouts WHERE admin_id = {:admin} AND idempotency_key = {:key} LIMIT 1")
      .bind({ admin: request.adminId, key: request.key })
      .all(earlier);
    const first = earlier[0];
    if (first) {
      if (first.request_hash !== hash) {
        throw new ApiError(
          422,
          "This Idempotency-Key was already used for another payout. Use a new key for a new payout; reuse a key only to retry the same one.",
          { idempotency_key: new ValidationError("idempotency_key_reused", "Key already used for a different request") },
        );
      }
      payoutId = first.id;
      replayed = true;
      return;
    }

    const referral = txApp.findRecordById("referrals", request.referralId);
    const pendingIds = sql.rowsLike({ id: "" });
    txApp
      .db()
      .newQuery(`SELECT c.id FROM commissions c WHERE c.referral_id = {:id} AND ${PAYABLE} ORDER BY c.created`)
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
    payout.set("admin_id", request.adminId);
    payout.set("amount_cents", amount);
    payout.set("commission_ids", commissionIds);
    payout.set("idempotency_key", request.key);
    payout.set("request_hash", hash);
    txApp.save(payout);
    payoutId = payout.id;

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
      adminId: request.adminId,
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
  });
  return { payoutId, replayed };
}

/**
 * What the pay route answers: the payout, the referral and its affiliate as they are now.
 * @param {CoreApp} app
 * @param {string} payoutId
 */
function payoutView(app, payoutId) {
  const payout = app.findRecordById("referral_payouts", payoutId);
  const referral = referralView(app, payout.getString("referral_id"));
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
    affiliate: affiliateView(app, referral.affiliate_id),
  };
}

module.exports = { list, referrals, pay, payoutView };
