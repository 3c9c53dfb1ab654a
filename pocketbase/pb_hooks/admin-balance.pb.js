// @ts-check
/// <reference path="../types/pocketbase.d.ts" />
// POST /api/admin/users/{id}/balance  {transaction_type: "CREDIT"|"DEBIT", amount_cents 1..100000000, description}
// The console's "credit or debit a user" (update_user_balance_admin in the spec): one
// ledger entry plus its audit row, in one transaction. Shop admins only.

routerAdd(
  "POST",
  "/api/admin/users/{id}/balance",
  (e) => {
    /** @type {typeof import("./lib/ledger.js")} */
    const ledger = require(`${__hooks}/lib/ledger.js`);
    /** @type {typeof import("./lib/admin.js")} */
    const admin = require(`${__hooks}/lib/admin.js`);
    admin.requireAdminWrite(e);

    const body = new DynamicModel({ transaction_type: "", amount_cents: 0, description: "" });
    e.bindBody(body);
    const type = body.transaction_type;
    const amount = body.amount_cents;
    const description = String(body.description || "").trim();
    if (type !== "CREDIT" && type !== "DEBIT") {
      throw new BadRequestError("transaction_type must be CREDIT or DEBIT.");
    }
    if (!Number.isSafeInteger(amount) || amount <= 0) {
      throw new BadRequestError("amount_cents must be a positive whole number of cents.");
    }
    // One adjustment moves at most $1,000,000 (a typo of a few extra digits is refused).
    const MAX_ADJUSTMENT_CENTS = 100000000;
    if (amount > MAX_ADJUSTMENT_CENTS) {
      throw new BadRequestError("One adjustment can move at most $1,000,000.00 (amount_cents 100000000).", {
        amount_cents: new ValidationError("validation_max_amount", "At most $1,000,000.00 per adjustment."),
      });
    }
    if (!description) throw new BadRequestError("A description is required.");

    const user = e.app.findRecordById("users", e.request?.pathValue("id") ?? "");
    const result = admin.auditedChange(e, (txApp) => {
      const entry = ledger.applyLedgerEntry(txApp, {
        userId: user.id,
        type,
        amountCents: type === "CREDIT" ? amount : -amount,
        description,
      });
      return {
        result: entry,
        audit: {
          action: type === "CREDIT" ? "users.balance_credit" : "users.balance_debit",
          targetType: "users",
          targetId: user.id,
          details: { amount_cents: amount, description, balance_after_cents: entry.balanceCents, transaction_id: entry.transaction.id },
        },
      };
    });
    return e.json(200, { balance_cents: result.balanceCents, transaction: result.transaction });
  },
  $apis.requireAuth("users"),
);
