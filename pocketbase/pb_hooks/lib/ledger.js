// @ts-check
// The ledger: the only code that changes a balance. Each entry writes exactly one
// `transactions` row and the new `balances.balance_cents` in one database transaction,
// so a balance always equals the sum of its user's ledger rows.

/** @typedef {"CREDIT" | "DEBIT" | "PROXY_PURCHASE" | "REFUND"} LedgerType */

/**
 * @typedef {object} LedgerEntry
 * @property {string} userId
 * @property {LedgerType} type
 * @property {number} amountCents  integer cents; > 0 for CREDIT/REFUND, < 0 for DEBIT/PROXY_PURCHASE
 * @property {string} description
 * @property {string} [stripePaymentIntentId]
 * @property {string} [reference]  what the entry is for ("order:<id>", "payment:<id>", "welcome" ...);
 *   unique per user, so the same action can never move money twice
 */

/** @type {Record<LedgerType, 1 | -1>} */
const SIGN = { CREDIT: 1, REFUND: 1, DEBIT: -1, PROXY_PURCHASE: -1 };

/**
 * Dollars with two decimals and thousands separators: 123456 -> "$1,234.56".
 * @param {number} cents
 */
function formatUsd(cents) {
  const sign = cents < 0 ? "-" : "";
  const abs = Math.abs(cents);
  const dollars = String(Math.floor(abs / 100)).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  return `${sign}$${dollars}.${String(abs % 100).padStart(2, "0")}`;
}

/**
 * Checks an entry's shape; throws a BadRequestError naming the problem.
 * @param {LedgerEntry} entry
 */
function validateEntry(entry) {
  const sign = SIGN[entry.type];
  if (!sign) {
    throw new BadRequestError(`Unknown ledger entry type "${entry.type}".`);
  }
  if (!Number.isSafeInteger(entry.amountCents) || entry.amountCents === 0) {
    throw new BadRequestError("A ledger amount must be a non-zero whole number of cents.");
  }
  if (Math.sign(entry.amountCents) !== sign) {
    throw new BadRequestError(`A ${entry.type} entry must be ${sign > 0 ? "positive" : "negative"}.`);
  }
  if (!entry.userId) {
    throw new BadRequestError("A ledger entry needs a user.");
  }
}

/**
 * Finds the user's balance row, creating it at 0 when missing (the one place a balance
 * row is made: new users get theirs through lib/new-user.js).
 * @param {CoreApp} txApp
 * @param {string} userId
 * @returns {core.Record}
 */
function balanceRecord(txApp, userId) {
  try {
    return txApp.findFirstRecordByFilter("balances", "user_id = {:userId}", { userId });
  } catch (_) {
    const record = new Record(txApp.findCollectionByNameOrId("balances"));
    record.set("user_id", userId);
    record.set("balance_cents", 0);
    txApp.save(record);
    return record;
  }
}

/**
 * True when the user already has a ledger entry with this reference.
 * @param {CoreApp} app
 * @param {string} userId
 * @param {string} reference
 */
function hasReference(app, userId, reference) {
  return app.countRecords("transactions", $dbx.hashExp({ user_id: userId, reference })) > 0;
}

/**
 * Applies one ledger entry atomically. Nested in the caller's transaction when called
 * with a txApp; refuses (throws) when the balance would go below zero.
 * @param {CoreApp} app
 * @param {LedgerEntry} entry
 * @returns {{ transaction: core.Record, balanceCents: number }}
 */
function applyLedgerEntry(app, entry) {
  validateEntry(entry);
  /** @type {{ transaction: core.Record, balanceCents: number } | undefined} */
  let result;
  app.runInTransaction((txApp) => {
    const balance = balanceRecord(txApp, entry.userId);
    const before = balance.getInt("balance_cents");
    const after = before + entry.amountCents;
    if (after < 0) {
      throw new BadRequestError(
        `Insufficient balance: this needs ${formatUsd(-entry.amountCents)} but the balance is ${formatUsd(before)}.`,
        { code: "insufficient_balance", balance_cents: before, required_cents: -entry.amountCents },
      );
    }
    balance.set("balance_cents", after);
    txApp.save(balance);

    const transaction = new Record(txApp.findCollectionByNameOrId("transactions"));
    transaction.set("user_id", entry.userId);
    transaction.set("type", entry.type);
    transaction.set("amount_cents", entry.amountCents);
    transaction.set("balance_after_cents", after);
    transaction.set("description", entry.description || "");
    transaction.set("stripe_payment_intent_id", entry.stripePaymentIntentId || "");
    transaction.set("reference", entry.reference || "");
    txApp.save(transaction);
    result = { transaction, balanceCents: after };
  });
  if (!result) throw new Error("ledger transaction did not run");
  return result;
}

module.exports = { applyLedgerEntry, balanceRecord, hasReference, formatUsd };
