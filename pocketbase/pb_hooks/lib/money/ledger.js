// @ts-check
// The ledger: the only code that changes a balance. Each entry writes exactly one
// `transactions` row and the new `balances.balance_cents` in one database transaction,
// so a balance always equals the sum of its user's ledger rows.
// A debit that crosses a customer's balance.low webhook threshold queues that event in the
// same transaction.

/** @type {typeof import("../core/sql.js")} */
const sql = require(`${__hooks}/lib/core/sql.js`);

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

/**
 * A ledger row as written (and as routes answer it).
 * @typedef {{ id: string, user_id: string, type: LedgerType, amount_cents: number, balance_after_cents: number,
 *   description: string, stripe_payment_intent_id: string, reference: string, created: string, updated: string,
 *   collectionName: string }} LedgerRow
 */

/** @type {{ transaction_types: { value: LedgerType, incoming: boolean }[] }} */
const catalog = require(`${__hooks}/lib/catalog.json`);

/** +1 for the types that add to a balance, -1 for those that take from it. */
/** @type {Partial<Record<string, 1 | -1>>} */
const SIGN = {};
for (const t of catalog.transaction_types) SIGN[t.value] = t.incoming ? 1 : -1;

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
  // The row is written by SQL, so the field limits of the collection are checked here.
  if ((entry.description || "").length > 500 || (entry.stripePaymentIntentId || "").length > 255 || (entry.reference || "").length > 100) {
    throw new BadRequestError("A ledger description is at most 500 characters (payment id 255, reference 100).");
  }
}

/**
 * Finds the user's balance row, creating it at 0 when missing (the one place a balance
 * row is made: new users get theirs through lib/accounts/new-user.js).
 * @param {CoreApp} txApp
 * @param {string} userId
 * @returns {core.Record}
 */
function balanceRecord(txApp, userId) {
  try {
    return txApp.findFirstRecordByData("balances", "user_id", userId);
  } catch (_) {
    const record = new Record(txApp.findCachedCollectionByNameOrId("balances"));
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
 * The user's ledger row with this reference, or null.
 * @param {CoreApp} app
 * @param {string} userId
 * @param {string} reference
 * @returns {core.Record | null}
 */
function entryByReference(app, userId, reference) {
  try {
    return app.findFirstRecordByFilter("transactions", "user_id = {:userId} && reference = {:reference}", { userId, reference });
  } catch (_) {
    return null;
  }
}

/**
 * Applies one ledger entry atomically. Nested in the caller's transaction when called
 * with a txApp; refuses (throws) a debit that would leave the balance below zero, with the
 * caller's own error when it gives `refuse` (it gets the balance before the entry).
 * `options.allowDebt` lets a debit go below zero: ONLY for reversing a payment that Stripe
 * refunded or lost in a chargeback (lib/money/reversals.js). The negative balance is a debt: every
 * other debit is refused until credits cover it. Credits are always accepted (one that
 * leaves a debt smaller is fine).
 * @param {CoreApp} app
 * @param {LedgerEntry} entry
 * @param {(balanceCents: number) => unknown} [refuse]  makes the error to throw
 * @param {{ allowDebt?: boolean }} [options]
 * @returns {{ transaction: LedgerRow, balanceCents: number }}
 */
function applyLedgerEntry(app, entry, refuse, options = {}) {
  validateEntry(entry);
  /** @type {{ transaction: LedgerRow, balanceCents: number } | undefined} */
  let result;
  app.runInTransaction((txApp) => {
    const balance = balanceRecord(txApp, entry.userId);
    const before = balance.getInt("balance_cents");
    const after = before + entry.amountCents;
    if (after < 0 && entry.amountCents < 0 && !options.allowDebt) {
      if (refuse) throw refuse(before);
      const debt =
        before < 0 ? ` The balance is a debt of ${formatUsd(-before)} left by a reversed payment; buy credits to settle it first.` : "";
      throw new BadRequestError(
        `Insufficient balance: this needs ${formatUsd(-entry.amountCents)} but the balance is ${formatUsd(before)}.${debt}`,
        {
          amount_cents: new ValidationError("insufficient_balance", "Insufficient balance"),
        },
      );
    }
    // A record save, so the customer's open pages get the new balance live (realtime); the
    // value was checked above (a whole number; below zero only as a debt), so field
    // validation (min 0 in the schema of old data dirs) is skipped.
    balance.set("balance_cents", after);
    txApp.saveNoValidate(balance);

    // The ledger row goes in by SQL: its values were checked above (validateEntry), nothing
    // follows it live, and a record save costs several times more on the purchase hot path.
    const now = new DateTime().string();
    const row = {
      id: sql.newId(),
      user_id: entry.userId,
      type: entry.type,
      amount_cents: entry.amountCents,
      balance_after_cents: after,
      description: entry.description || "",
      stripe_payment_intent_id: entry.stripePaymentIntentId || "",
      reference: entry.reference || "",
      created: now,
      updated: now,
    };
    txApp
      .db()
      .newQuery(
        `INSERT INTO transactions (id, user_id, type, amount_cents, balance_after_cents, description, stripe_payment_intent_id, reference, created, updated)
         VALUES ({:id}, {:user_id}, {:type}, {:amount_cents}, {:balance_after_cents}, {:description}, {:stripe_payment_intent_id}, {:reference}, {:created}, {:updated})`,
      )
      .bind(row)
      .execute();
    // A debit that takes the balance under a customer's webhook threshold queues balance.low
    // with it (lib/webhooks/balance-low.js: one indexed query when they have no endpoint).
    if (entry.amountCents < 0) require(`${__hooks}/lib/webhooks/balance-low.js`).afterDebit(txApp, entry.userId, before, after);
    const transaction = { ...row, collectionName: "transactions" };
    result = { transaction, balanceCents: after };
  });
  if (!result) throw new Error("ledger transaction did not run");
  return result;
}

module.exports = { applyLedgerEntry, balanceRecord, hasReference, entryByReference, formatUsd };
