// @ts-check
// The affiliate programme: 20% of the money a referred customer pays for credits (never of
// bonus credits), earned by the affiliate whose code they signed up with, as a pending
// commission. Only real payments earn (provider "stripe"): test-provider payments move no
// money and never earn. One `commissions` row per payment (reference ""); the referral's
// commission_cents and the affiliate's earnings are kept as their sums net of reversals.
// When Stripe refunds a payment or a chargeback takes it back, reverseCommission takes the
// same share back: from the commission while it is pending (reversed_cents, status
// "reversed" when all of it), else as a clawback row (negative, pending) that the next
// payout of that referral nets.

/** The programme's terms, stated once in catalog.json (the pages read the same file). */
const TERMS = require(`${__hooks}/lib/catalog.json`).affiliate;
const COMMISSION_PERCENT = TERMS.commission_percent;
const PROGRAM = {
  commission_percent: COMMISSION_PERCENT,
  cookie_days: TERMS.cookie_days,
  minimum_payout_cents: TERMS.minimum_payout_cents,
  payout_schedule: TERMS.payout_schedule,
};

/**
 * Books the commission a paid payment earns, inside the payment's transaction. No-op when
 * the payer was not referred, or would earn from their own purchase.
 * @param {CoreApp} txApp
 * @param {core.Record} payment  status paid
 */
function recordCommission(txApp, payment) {
  if (payment.getString("provider") !== "stripe") return; // test money earns nothing
  const userId = payment.getString("user_id");
  /** @type {core.Record} */
  let referral;
  try {
    referral = txApp.findFirstRecordByFilter("referrals", "referred_user_id = {:userId}", { userId });
  } catch (_) {
    return; // not referred
  }
  const affiliate = txApp.findRecordById("affiliates", referral.getString("affiliate_id"));
  if (affiliate.getString("user_id") === userId) return;
  const amount = Math.floor((payment.getInt("amount_cents") * COMMISSION_PERCENT) / 100);
  if (amount < 1) return;

  const commission = new Record(txApp.findCachedCollectionByNameOrId("commissions"));
  commission.set("affiliate_id", affiliate.id);
  commission.set("referral_id", referral.id);
  commission.set("payment_id", payment.id);
  commission.set("amount_cents", amount);
  commission.set("status", "pending");
  txApp.save(commission);

  referral.set("commission_cents", referral.getInt("commission_cents") + amount);
  referral.set("status", "pending");
  txApp.save(referral);
  affiliate.set("pending_earnings_cents", affiliate.getInt("pending_earnings_cents") + amount);
  affiliate.set("total_earnings_cents", affiliate.getInt("total_earnings_cents") + amount);
  txApp.save(affiliate);
}

/**
 * Brings the commission a payment earned in line with the money taken back from it
 * (refunds, an open or lost dispute), inside the reversal's transaction. Computed from the
 * state, so calling it again for the same state changes nothing. `step` names the reversal
 * step (unique per payment) for a clawback or give-back row.
 * @param {CoreApp} txApp
 * @param {core.Record} payment
 * @param {number} moneyTakenBackCents  cumulative, at most the payment's amount
 * @param {string} step
 */
function reverseCommission(txApp, payment, moneyTakenBackCents, step) {
  /** @type {core.Record} */
  let commission;
  try {
    commission = txApp.findFirstRecordByFilter("commissions", "payment_id = {:id} && reference = ''", { id: payment.id });
  } catch (_) {
    return; // the payment earned no commission
  }
  const original = commission.getInt("amount_cents");
  const extra = new DynamicModel({ cents: 0 });
  txApp
    .db()
    .newQuery("SELECT COALESCE(SUM(amount_cents), 0) AS cents FROM commissions WHERE payment_id = {:id} AND reference != ''")
    .bind({ id: payment.id })
    .one(extra);
  const takenSoFar = commission.getInt("reversed_cents") - extra.cents;
  const amount = payment.getInt("amount_cents");
  const target = Math.min(original, Math.round((original * Math.max(0, moneyTakenBackCents)) / amount));
  const delta = target - takenSoFar;
  if (delta === 0) return;

  const status = commission.getString("status");
  const reversedCents = commission.getInt("reversed_cents");
  if (delta > 0 && status === "pending") {
    // Not paid yet: the commission itself shrinks.
    commission.set("reversed_cents", reversedCents + delta);
    if (reversedCents + delta >= original) commission.set("status", "reversed");
    txApp.save(commission);
  } else if (delta < 0 && (status === "pending" || status === "reversed") && reversedCents >= -delta) {
    // A dispute won before the commission was paid: the reduction is undone.
    commission.set("reversed_cents", reversedCents + delta);
    commission.set("status", "pending");
    txApp.save(commission);
  } else {
    // Paid out already: a clawback (negative) booked against the referral's next payout, or
    // (a dispute won after a clawback) the amount given back.
    const reference = `${step}`.slice(0, 100);
    if (txApp.countRecords("commissions", $dbx.hashExp({ payment_id: payment.id, reference })) > 0) return;
    const row = new Record(txApp.findCachedCollectionByNameOrId("commissions"));
    row.set("affiliate_id", commission.getString("affiliate_id"));
    row.set("referral_id", commission.getString("referral_id"));
    row.set("payment_id", payment.id);
    row.set("amount_cents", -delta);
    row.set("status", "pending");
    row.set("reference", reference);
    txApp.save(row);
  }

  const referral = txApp.findRecordById("referrals", commission.getString("referral_id"));
  referral.set("commission_cents", referral.getInt("commission_cents") - delta);
  txApp.save(referral);
  const affiliate = txApp.findRecordById("affiliates", commission.getString("affiliate_id"));
  affiliate.set("pending_earnings_cents", affiliate.getInt("pending_earnings_cents") - delta);
  affiliate.set("total_earnings_cents", affiliate.getInt("total_earnings_cents") - delta);
  txApp.save(affiliate);
}

/**
 * "j***@example.com": enough for an affiliate to recognise a referral, not to contact them.
 * @param {string} email
 */
function maskEmail(email) {
  const at = email.indexOf("@");
  if (at < 1) return "***";
  return `${email.charAt(0)}***${email.slice(at)}`;
}

/**
 * The affiliate page's figures for `userId`: code, counts, earnings (total, pending, paid,
 * this month's), the payout method, the programme's terms and the five latest referrals that
 * count (verified). total_referrals is computed from the referrals, as the console's is.
 * @param {CoreApp} app
 * @param {string} userId
 */
function summary(app, userId) {
  /** @type {typeof import("../core/sql.js")} */
  const sql = require(`${__hooks}/lib/core/sql.js`);
  const affiliate = app.findFirstRecordByFilter("affiliates", "user_id = {:userId}", { userId });
  const monthStart = new DateTime().string().slice(0, 8) + "01 00:00:00.000Z";
  const month = new DynamicModel({ cents: 0 });
  app
    .db()
    .newQuery(
      "SELECT COALESCE(SUM(amount_cents - reversed_cents), 0) AS cents FROM commissions WHERE affiliate_id = {:id} AND created >= {:monthStart}",
    )
    .bind({ id: affiliate.id, monthStart })
    .one(month);

  const rows = sql.rowsLike({ id: "", created: "", commission_cents: 0, status: "", first_name: "", last_name: "", email: "" });
  app
    .db()
    .newQuery(
      `SELECT r.id, r.created, r.commission_cents, r.status, u.first_name, u.last_name, u.email
       FROM referrals r JOIN users u ON u.id = r.referred_user_id
       WHERE r.affiliate_id = {:id} AND u.verified = TRUE ORDER BY r.created DESC LIMIT 5`,
    )
    .bind({ id: affiliate.id })
    .all(rows);

  const total = affiliate.getInt("total_earnings_cents");
  const pending = affiliate.getInt("pending_earnings_cents");
  return {
    code: affiliate.getString("code"),
    total_referrals: require(`${__hooks}/lib/affiliate/referrals.js`).countedReferrals(app, affiliate.id),
    payout_method: affiliate.getString("payout_method"),
    total_earnings_cents: total,
    pending_earnings_cents: pending,
    paid_earnings_cents: total - pending,
    this_month_earnings_cents: month.cents,
    program: PROGRAM,
    recent_referrals: rows.map((r) => ({
      id: r.id,
      created: r.created,
      name: [r.first_name, r.last_name ? `${r.last_name.charAt(0)}.` : ""].filter(Boolean).join(" "),
      email: maskEmail(r.email),
      commission_cents: r.commission_cents,
      status: r.status === "paid" ? "paid" : "pending",
    })),
  };
}

/**
 * GET /api/v1/affiliate -> {code, total_referrals, *_earnings_cents, payout_method, program, recent_referrals}
 *
 * The signed-in customer's affiliate figures (summary).
 * @param {core.RequestEvent} e
 */
function mySummary(e) {
  const user = require(`${__hooks}/lib/core/api.js`).customer(e);
  return e.json(200, summary(e.app, user.id));
}

/**
 * The payout method as stored: trimmed, line breaks kept as "\n" and tabs, other control
 * characters refused; "" clears it. The request validation (pocketbase/devapi) held it to
 * the document (text of at most catalog.affiliate.payout_method_max characters) first.
 * @param {unknown} value
 * @returns {{ value: string, error: string }}
 */
function payoutMethodInput(value) {
  const api = require(`${__hooks}/lib/core/api.js`);
  const text = api.text(value).replace(/\r\n?/g, "\n");
  // eslint-disable-next-line no-control-regex -- refusing control characters is the point
  if (/[\u0000-\u0008\u000b-\u001f\u007f]/.test(text)) return { value: "", error: "Payout method must be plain text." };
  return { value: text, error: "" };
}

/**
 * PUT /api/v1/affiliate/payout-method {payout_method} -> (as GET /api/v1/affiliate)
 *
 * Sets how the signed-in customer wants commissions paid (a PayPal e-mail, a bank note:
 * free text, shown to shop admins when they pay). 400 with the field named when it is too
 * long (the request validation) or holds control characters; demo accounts in demo mode 403.
 * @param {core.RequestEvent} e
 */
function setPayoutMethod(e) {
  const api = require(`${__hooks}/lib/core/api.js`);
  const user = api.actingCustomer(e);
  const input = payoutMethodInput(api.jsonBody(e)["payout_method"]);
  if (input.error) throw api.fieldError("payout_method", input.error);
  const affiliate = e.app.findFirstRecordByFilter("affiliates", "user_id = {:userId}", { userId: user.id });
  if (affiliate.getString("payout_method") !== input.value) {
    affiliate.set("payout_method", input.value);
    e.app.save(affiliate);
  }
  return e.json(200, summary(e.app, user.id));
}

module.exports = { recordCommission, reverseCommission, mySummary, setPayoutMethod };
