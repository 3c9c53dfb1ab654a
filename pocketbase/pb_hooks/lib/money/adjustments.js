// @ts-check
// Balance adjustments: an admin credits or debits a user's balance (POST
// /api/admin/users/{id}/balance) behind an Idempotency-Key, one ledger row and its audit row
// in one transaction.

/** @type {typeof import("../core/sql.js")} */
const sql = require(`${__hooks}/lib/core/sql.js`);

/** One adjustment moves at most $1,000,000 (a typo of a few extra digits is refused). */
const MAX_ADJUSTMENT_CENTS = 100000000;

/**
 * @typedef {{ type: "CREDIT" | "DEBIT", amountCents: number, description: string }} AdjustmentInput
 */

/**
 * Checks a balance adjustment body; each problem is a 400 naming its field.
 * @param {Record<string, unknown>} body
 * @returns {AdjustmentInput}
 */
function validateAdjustment(body) {
  /** @type {typeof import("../core/api.js")} */
  const api = require(`${__hooks}/lib/core/api.js`);
  const type = body["transaction_type"];
  const amount = api.wholeNumber(body["amount_cents"]);
  const description = api.text(body["description"]);
  if (type !== "CREDIT" && type !== "DEBIT") {
    throw api.fieldError("transaction_type", "Transaction type must be CREDIT or DEBIT.");
  }
  if (Number.isNaN(amount) || amount <= 0) {
    throw api.fieldError("amount_cents", "Amount must be a positive whole number of cents (amount_cents).");
  }
  if (amount > MAX_ADJUSTMENT_CENTS) {
    throw new BadRequestError("One adjustment can move at most $1,000,000.00 (amount_cents 100000000).", {
      amount_cents: new ValidationError("validation_max_amount", "At most $1,000,000.00 per adjustment."),
    });
  }
  if (!description) throw api.fieldError("description", "A description is required.", "validation_required");
  if (description.length > 500) throw api.fieldError("description", "A description is at most 500 characters.", "validation_max_length");
  return { type, amountCents: amount, description };
}

/**
 * The ledger reference an admin's Idempotency-Key is stored as: fixed length whatever the
 * key, and the admin's own (two admins' keys never meet).
 * @param {string} adminId
 * @param {string} key
 */
function adjustmentReference(adminId, key) {
  return `adjustment:${$security.sha256(`${adminId}\n${key}`)}`;
}

/**
 * Credits or debits a user's balance: one ledger row (its reference carries the admin's
 * Idempotency-Key) and one audit row, in one transaction. The same key again with the same
 * user, type, amount and description answers the first adjustment (replayed: true) and
 * moves nothing; with anything else it is refused (422).
 * @param {CoreApp} app
 * @param {string} adminId
 * @param {string} userId
 * @param {AdjustmentInput} input
 * @param {string} key
 * @returns {{ replayed: boolean, balance_cents: number, transaction: Record<string, unknown> }}
 */
function adjustBalance(app, adminId, userId, input, key) {
  /** @type {typeof import("../money/ledger.js")} */
  const ledger = require(`${__hooks}/lib/money/ledger.js`);
  /** @type {typeof import("../audit/audit.js")} */
  const audit = require(`${__hooks}/lib/audit/audit.js`);
  /** @type {typeof import("../accounts/user-admin.js")} */
  const consoleUsers = require(`${__hooks}/lib/accounts/user-admin.js`);
  consoleUsers.findUser(app, userId);
  const reference = adjustmentReference(adminId, key);
  const signed = input.type === "CREDIT" ? input.amountCents : -input.amountCents;
  /** @type {{ replayed: boolean, balance_cents: number, transaction: Record<string, unknown> } | null} */
  let out = null;
  app.runInTransaction((txApp) => {
    const earlier = sql.rowsLike({
      id: "",
      user_id: "",
      type: "",
      amount_cents: 0,
      balance_after_cents: 0,
      description: "",
      stripe_payment_intent_id: "",
      reference: "",
      created: "",
      updated: "",
    });
    txApp
      .db()
      .newQuery(
        `SELECT id, user_id, type, amount_cents, balance_after_cents, description, stripe_payment_intent_id, reference, created, updated
         FROM transactions WHERE reference = {:reference} AND reference != '' LIMIT 1`,
      )
      .bind({ reference })
      .all(earlier);
    const row = earlier[0];
    if (row) {
      if (row.user_id !== userId || row.type !== input.type || row.amount_cents !== signed || row.description !== input.description) {
        throw new ApiError(
          422,
          "This Idempotency-Key was already used for a different adjustment. Use a new key for a new adjustment; reuse a key only to retry the same one.",
          { idempotency_key: new ValidationError("idempotency_key_reused", "Key already used for a different request") },
        );
      }
      out = { replayed: true, balance_cents: row.balance_after_cents, transaction: { ...row, collectionName: "transactions" } };
      return;
    }
    const entry = ledger.applyLedgerEntry(txApp, {
      userId,
      type: input.type,
      amountCents: signed,
      description: input.description,
      reference,
    });
    audit.writeAuditLog(txApp, {
      adminId,
      action: input.type === "CREDIT" ? "users.balance_credit" : "users.balance_debit",
      targetType: "users",
      targetId: userId,
      details: {
        amount_cents: input.amountCents,
        description: input.description,
        balance_before_cents: entry.balanceCents - signed,
        balance_after_cents: entry.balanceCents,
        transaction_id: entry.transaction.id,
      },
    });
    out = { replayed: false, balance_cents: entry.balanceCents, transaction: entry.transaction };
  });
  if (!out) throw new Error("balance adjustment did not run");
  return out;
}

module.exports = { MAX_ADJUSTMENT_CENTS, validateAdjustment, adjustmentReference, adjustBalance };
