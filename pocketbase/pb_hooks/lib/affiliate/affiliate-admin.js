// @ts-check
// Managing affiliates (the console's Affiliate Management): the affiliates list and its
// stats, one affiliate's referrals (paying one: lib/money/payouts.js). Shop admins only:
// anonymous 401, customers 403. Commissions are earned in lib/affiliate/affiliate.js.
//
// Listed affiliates: those with at least one referral that counts (a referred user with a
// verified e-mail) or any earnings. Every user has an affiliates row; the others have
// nothing to manage and would bury the ones that do.
//
// Referral counts (an affiliate's and the stats' Total Referrals) are computed from the
// referrals and their users' verified flag at read time, one source (issue #15: a stored
// counter out of step showed 0 beside a listed, verified referral); the stored
// affiliates.total_referrals is no longer read.

/** @type {typeof import("../core/admin.js")} */
const admin = require(`${__hooks}/lib/core/admin.js`);
/** @type {typeof import("../core/sql.js")} */
const sql = require(`${__hooks}/lib/core/sql.js`);

/** The referrals that count (lib/affiliate/referrals.js). */
const COUNTED_REFERRALS = require(`${__hooks}/lib/affiliate/referrals.js`).COUNTED_REFERRALS;

/** Which affiliates the console lists: a counted referral or earnings (looked up by id). */
const LISTED = `a.id IN (SELECT cr.affiliate_id FROM ${COUNTED_REFERRALS}
  UNION SELECT id FROM affiliates WHERE total_earnings_cents > 0)`;

const AFFILIATE_COLUMNS = `a.id, a.user_id, u.email AS user_email, u.first_name AS user_first_name, u.last_name AS user_last_name,
  a.code, a.total_earnings_cents, a.pending_earnings_cents, a.total_earnings_cents - a.pending_earnings_cents AS paid_earnings_cents,
  (SELECT COUNT(*) FROM ${COUNTED_REFERRALS} WHERE cr.affiliate_id = a.id) AS total_referrals, a.payout_method`;

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
    payout_method: "",
  });
}

/**
 * A page of listed affiliates, most pending earnings first, and the programme's stats (all
 * listed affiliates, whatever the search).
 * @param {CoreApp} app
 * @param {{search: string, page: number, perPage: number, offset: number}} query
 */
function listAffiliates(app, query) {
  /** @type {Record<string, unknown>} */
  const params = { limit: query.perPage, offset: query.offset };
  let searchSql = "";
  if (query.search) {
    params["q"] = sql.containsPattern(query.search);
    searchSql = `AND (${sql.personMatches("u", "q")} OR a.code LIKE {:q} ESCAPE '\\')`;
  }
  const from = `FROM affiliates a JOIN users u ON u.id = a.user_id WHERE ${LISTED} ${searchSql}`;
  const count = new DynamicModel({ n: 0 });
  app.db().newQuery(`SELECT COUNT(*) AS n ${from}`).bind(params).one(count);
  const rows = affiliateRows();
  app
    .db()
    .newQuery(
      `SELECT ${AFFILIATE_COLUMNS} ${from}
       ORDER BY a.pending_earnings_cents DESC, a.total_earnings_cents DESC, total_referrals DESC, a.id
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
              (SELECT COUNT(*) FROM ${COUNTED_REFERRALS}) AS total_referrals
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
  return sql.oneRowOr404(
    app,
    affiliateRows(),
    `SELECT ${AFFILIATE_COLUMNS} FROM affiliates a JOIN users u ON u.id = a.user_id WHERE a.id = {:id} LIMIT 1`,
    { id },
    "This affiliate does not exist (any more).",
  );
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
function listReferrals(app, affiliateId, query) {
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
  const row = sql.oneRowOr404(
    app,
    referralRows(),
    `SELECT ${REFERRAL_COLUMNS} FROM referrals r JOIN users u ON u.id = r.referred_user_id WHERE r.id = {:id} LIMIT 1`,
    { id },
    "This referral does not exist (any more).",
  );
  return withFlags([row])[0];
}

/**
 * GET /api/admin/affiliates?search=&page=&perPage= (perPage default 20, at most 100)
 * -> {items: [{id, user_id, user_email, user_first_name, user_last_name, code, total_earnings_cents,
 *    pending_earnings_cents, paid_earnings_cents, total_referrals, payout_method}], page, perPage, totalItems, totalPages,
 *    stats: {total_affiliates, commission_paid_cents, pending_payouts_cents, total_referrals}}
 *
 * The listed affiliates, most pending first; search (at most 200 characters) matches
 * e-mail, first, last or full name and code. The stats cover every listed affiliate,
 * whatever the search. total_referrals counts the referrals whose user verified their
 * e-mail, computed from the referrals; payout_method is what the affiliate entered on their
 * affiliate page ("" none).
 * @param {core.RequestEvent} e
 */
function list(e) {
  admin.requireAdmin(e);
  const search = admin.searchParam(e);
  return e.json(200, listAffiliates(e.app, { search, ...admin.paging(e, 100) }));
}

/**
 * GET /api/admin/affiliates/{id}/referrals?page=&perPage= (perPage default 20, at most 100)
 * -> {affiliate: (a list item), items: [{id, affiliate_id, referred_user_id, user_email,
 *    user_first_name, user_last_name, user_verified, commission_cents (all earned),
 *    pending_cents (still to pay), test_commission_cents, status (pending|paid), created,
 *    paid_at (last payout; "" never), flags}], page, perPage, totalItems, totalPages}
 *
 * Newest first; 404 for an unknown affiliate.
 * @param {core.RequestEvent} e
 */
function referrals(e) {
  admin.requireAdmin(e);
  return e.json(200, listReferrals(e.app, e.request?.pathValue("id") ?? "", admin.paging(e, 100)));
}

module.exports = { PAYABLE, list, affiliateView, referrals, referralView };
