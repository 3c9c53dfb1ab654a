// @ts-check
// Balance adjustments: an admin credits or debits a user's balance behind an
// Idempotency-Key, one ledger row and its audit row in one transaction.

const ROUTE = "POST /api/admin/users/{id}/balance";

/** One adjustment moves at most $1,000,000 (a typo of a few extra digits is refused); catalog.json says it once. */
const LIMIT = require(`${__hooks}/lib/catalog.json`).balance_adjustment;
const MAX_ADJUSTMENT_CENTS = LIMIT.max_cents;

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
    throw api.fieldError("amount_cents", "Amount must be at least $0.01, in whole cents.");
  }
  if (amount > MAX_ADJUSTMENT_CENTS) {
    throw new BadRequestError(LIMIT.max_message, {
      amount_cents: new ValidationError("validation_max_amount", LIMIT.max_message),
    });
  }
  if (!description) throw api.fieldError("description", "A description is required.", "validation_required");
  if (description.length > 500) throw api.fieldError("description", "A description is at most 500 characters.", "validation_max_length");
  return { type, amountCents: amount, description };
}

/**
 * POST /api/admin/users/{id}/balance  {transaction_type: "CREDIT"|"DEBIT", amount_cents
 * 1..100000000, description 1-500} + Idempotency-Key (required, 1-255 visible ASCII
 * characters) -> {balance_cents, transaction}
 *
 * The console's "credit or debit a user" (update_user_balance_admin in the spec): one ledger
 * entry plus its audit row (users.balance_credit|debit {amount_cents, description,
 * balance_before_cents, balance_after_cents, transaction_id}), in one transaction. Shop
 * admins only; refused in demo mode. The key is stored as the ledger row's reference
 * ("adjustment:<sha256 of admin id and key>", lib/core/idempotency.js): the same key with
 * the same user, type, amount and description answers the first adjustment again (header
 * `Idempotent-Replayed: true`, balance_cents as right after it) and moves nothing; the same
 * key with anything else is refused (422). 400 for a bad field (named in data), a debit
 * below zero ("Insufficient balance: ..."), a missing key; 404 unknown user.
 * @param {core.RequestEvent} e
 */
function adjust(e) {
  /** @type {typeof import("../core/admin.js")} */
  const admin = require(`${__hooks}/lib/core/admin.js`);
  /** @type {typeof import("../core/api.js")} */
  const api = require(`${__hooks}/lib/core/api.js`);
  /** @type {typeof import("../core/idempotency.js")} */
  const idempotency = require(`${__hooks}/lib/core/idempotency.js`);
  /** @type {typeof import("./user-admin.js")} */
  const userAdmin = require(`${__hooks}/lib/accounts/user-admin.js`);
  const caller = admin.requireAdminWrite(e);
  const input = validateAdjustment(api.jsonBody(e));
  const key = api.idempotencyKey(e);
  const userId = e.request?.pathValue("id") ?? "";
  userAdmin.findUser(e.app, userId);
  const signed = input.type === "CREDIT" ? input.amountCents : -input.amountCents;
  return idempotency.answerOnce(
    e,
    {
      userId: caller.id,
      key,
      route: ROUTE,
      input: { user_id: userId, type: input.type, amount_cents: signed, description: input.description },
      collection: "transactions",
      kind: "adjustments",
    },
    (txApp, keyed) => book(txApp, caller.id, userId, input, keyed.stored),
    adjustmentView,
  );
}

/**
 * Writes the adjustment's ledger row (reference: the admin's key) and its audit row, inside
 * the caller's transaction; answers the ledger row's id.
 * @param {CoreApp} txApp
 * @param {string} adminId
 * @param {string} userId
 * @param {AdjustmentInput} input
 * @param {string} reference
 */
function book(txApp, adminId, userId, input, reference) {
  /** @type {typeof import("../money/ledger.js")} */
  const ledger = require(`${__hooks}/lib/money/ledger.js`);
  /** @type {typeof import("../core/audit.js")} */
  const audit = require(`${__hooks}/lib/core/audit.js`);
  const signed = input.type === "CREDIT" ? input.amountCents : -input.amountCents;
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
  return entry.transaction.id;
}

/**
 * What the route answers, first time and replay alike: the ledger row and the balance right
 * after it.
 * @param {CoreApp} app
 * @param {string} transactionId
 */
function adjustmentView(app, transactionId) {
  const transaction = app.findRecordById("transactions", transactionId);
  return { balance_cents: transaction.getInt("balance_after_cents"), transaction };
}

module.exports = { MAX_ADJUSTMENT_CENTS, adjust };
