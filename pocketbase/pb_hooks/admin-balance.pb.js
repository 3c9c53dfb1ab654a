// @ts-check
/// <reference path="../types/pocketbase.d.ts" />
// POST /api/admin/users/{id}/balance  {transaction_type: "CREDIT"|"DEBIT", amount_cents 1..100000000, description 1-500}
//   + Idempotency-Key (required, 1-255 visible ASCII characters)
//   -> {balance_cents, transaction}
// The console's "credit or debit a user" (update_user_balance_admin in the spec): one
// ledger entry plus its audit row (users.balance_credit|debit {amount_cents, description,
// balance_before_cents, balance_after_cents, transaction_id}), in one transaction. Shop
// admins only; refused in demo mode. The key is stored as the ledger row's reference
// ("adjustment:<sha256 of admin id and key>"): the same key with the same user, type,
// amount and description answers the first adjustment again (header
// `Idempotent-Replayed: true`, balance_cents as right after it) and moves nothing; the same
// key with anything else is refused (422). 400 for a bad field (named in data), a debit
// below zero ("Insufficient balance: ..."), a missing key; 404 unknown user.
// Code: lib/accounts/console-users.js (validateAdjustment, adjustBalance).

routerAdd(
  "POST",
  "/api/admin/users/{id}/balance",
  (e) => {
    /** @type {typeof import("./lib/audit/admin.js")} */
    const admin = require(`${__hooks}/lib/audit/admin.js`);
    const caller = admin.requireAdminWrite(e);
    /** @type {typeof import("./lib/core/api.js")} */
    const api = require(`${__hooks}/lib/core/api.js`);
    /** @type {typeof import("./lib/accounts/console-users.js")} */
    const consoleUsers = require(`${__hooks}/lib/accounts/console-users.js`);
    const input = consoleUsers.validateAdjustment(api.jsonBody(e));
    const key = api.idempotencyKey(e);
    const result = consoleUsers.adjustBalance(e.app, caller.id, e.request?.pathValue("id") ?? "", input, key);
    e.response.header().set("Idempotent-Replayed", String(result.replayed));
    return e.json(200, { balance_cents: result.balance_cents, transaction: result.transaction });
  },
  $apis.requireAuth("users"),
);
