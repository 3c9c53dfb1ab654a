// @ts-check
// The welcome credit: granted once, when an account verifies its e-mail (welcome_credit_cents,
// capped by the catalog), at most welcome_credits_per_address_per_day accounts from one
// sign-up address a day, and only welcome_credit_spendable_cents of it spendable before a
// first Stripe payment (purchases and renewals check it: assertWelcomeCreditRule,
// lockedWelcomeCents).

/** @type {typeof import("../core/settings.js")} */
const values = require(`${__hooks}/lib/core/settings.js`);

/** The largest welcome credit the setting may grant ($100), so a typo cannot give away more. */
const MAX_WELCOME_CREDIT_CENTS = require(`${__hooks}/lib/catalog.json`).welcome_credit.max_cents;

/**
 * The welcome credit in cents from the welcome_credit_cents setting (0 = off).
 * @param {CoreApp} app
 */
function welcomeCreditCents(app) {
  return Math.min(values.settingCount(app, "welcome_credit_cents", 0), MAX_WELCOME_CREDIT_CENTS);
}

/**
 * The number of welcome credits granted today (UTC) to other accounts that signed up from
 * `address`.
 * @param {CoreApp} txApp
 * @param {string} address
 * @param {string} userId  left out of the count
 */
function welcomeCreditsFromAddressToday(txApp, address, userId) {
  const today = new DateTime().string().slice(0, 10) + " 00:00:00.000Z";
  const row = new DynamicModel({ n: 0 });
  txApp
    .db()
    .newQuery(
      `SELECT COUNT(*) AS n FROM transactions t JOIN users u ON u.id = t.user_id
       WHERE t.reference = 'welcome' AND t.created >= {:today} AND u.signup_ip = {:address} AND u.id != {:userId}`,
    )
    .bind({ today, address, userId })
    .one(row);
  return row.n;
}

/**
 * Grants the welcome credit once per account (a CREDIT ledger row with the reference
 * "welcome"), inside the transaction that verifies the account's e-mail. An account that
 * signed up from an address whose accounts already got welcome_credits_per_address_per_day
 * (0 = no limit) credits today gets none (logged and marked users.welcome_credit_withheld,
 * which the dashboard explains; the account works normally).
 * @param {CoreApp} txApp
 * @param {string} userId
 * @returns {boolean} true when the credit was withheld
 */
function grantWelcomeCredit(txApp, userId) {
  /** @type {typeof import("./ledger.js")} */
  const ledger = require(`${__hooks}/lib/money/ledger.js`);
  const cents = welcomeCreditCents(txApp);
  if (cents === 0 || ledger.hasReference(txApp, userId, "welcome")) return false;
  const limit = values.settingCount(txApp, "welcome_credits_per_address_per_day", 3);
  if (limit > 0) {
    /** @type {string} */
    let address = "";
    try {
      address = txApp.findRecordById("users", userId).getString("signup_ip");
    } catch (_) {
      address = "";
    }
    if (address && welcomeCreditsFromAddressToday(txApp, address, userId) >= limit) {
      // Marked on the account, so the dashboard can say why the credit did not come (issue #28).
      txApp.db().newQuery("UPDATE users SET welcome_credit_withheld = TRUE WHERE id = {:id}").bind({ id: userId }).execute();
      txApp
        .logger()
        .warn(
          "Welcome credit withheld: its sign-up address already had the daily number of welcome credits",
          "user",
          userId,
          "signup_ip",
          address,
          "limit",
          limit,
        );
      return true;
    }
  }
  ledger.applyLedgerEntry(txApp, { userId, type: "CREDIT", amountCents: cents, description: "Welcome credit", reference: "welcome" });
  return false;
}

/**
 * A user's welcome credit and the part of it that may not be spent now: what they were
 * granted minus what welcome_credit_spendable_cents lets them spend, while they have made no
 * Stripe payment (paid, or only partly refunded); nothing is held once they have, or when
 * they got no welcome credit.
 * @param {CoreApp} txApp
 * @param {string} userId
 * @returns {{ grantedCents: number, lockedCents: number }}
 */
function welcomeCreditHold(txApp, userId) {
  const row = new DynamicModel({ welcome: 0, paid: 0 });
  txApp
    .db()
    .newQuery(
      `SELECT
         (SELECT COALESCE(SUM(amount_cents), 0) FROM transactions WHERE user_id = {:userId} AND reference = 'welcome') AS welcome,
         (SELECT COUNT(*) FROM payments WHERE user_id = {:userId} AND provider = 'stripe' AND status IN ('paid', 'partially_refunded')) AS paid`,
    )
    .bind({ userId })
    .one(row);
  if (row.welcome <= 0 || row.paid > 0) return { grantedCents: row.welcome, lockedCents: 0 };
  const spendable = values.settingCount(txApp, "welcome_credit_spendable_cents", MAX_WELCOME_CREDIT_CENTS);
  return { grantedCents: row.welcome, lockedCents: Math.max(0, row.welcome - spendable) };
}

/**
 * The part of a user's balance that may not be spent now (welcomeCreditHold): purchases,
 * renewals and automatic renewals keep the balance at or above it.
 * @param {CoreApp} txApp
 * @param {string} userId
 * @returns {number} cents
 */
function lockedWelcomeCents(txApp, userId) {
  return welcomeCreditHold(txApp, userId).lockedCents;
}

/**
 * Refuses (400, nothing charged: the caller's transaction rolls back) a debit that left the
 * balance below the locked part of the welcome credit (welcomeCreditHold).
 * @param {CoreApp} txApp
 * @param {string} userId
 * @param {number} balanceCents  the balance after the debit
 * @param {string} field  the request field the message belongs to
 */
function assertWelcomeCreditRule(txApp, userId, balanceCents, field) {
  const { grantedCents, lockedCents } = welcomeCreditHold(txApp, userId);
  if (lockedCents <= 0 || balanceCents >= lockedCents) return;
  /** @type {typeof import("./ledger.js")} */
  const { formatUsd } = require(`${__hooks}/lib/money/ledger.js`);
  const spendable = grantedCents - lockedCents;
  const message =
    spendable > 0
      ? `Only ${formatUsd(spendable)} of your ${formatUsd(grantedCents)} welcome credit can be spent before your first credit purchase: buy credits, then try again.`
      : `Your ${formatUsd(grantedCents)} welcome credit can be spent after your first credit purchase: buy credits, then try again.`;
  throw new BadRequestError(message, { [field]: new ValidationError("welcome_credit_locked", message) });
}

module.exports = { MAX_WELCOME_CREDIT_CENTS, grantWelcomeCredit, lockedWelcomeCents, assertWelcomeCreditRule };
