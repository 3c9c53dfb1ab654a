// @ts-check
// The balance.low webhook event (issue #18). Each endpoint sets its own threshold
// (webhook_endpoints.balance_low_cents, 0 = none), so queue.enqueue (every subscribed
// endpoint alike) does not fit: after a debit, lib/money/ledger.js applyLedgerEntry (the one
// place balances change) calls `afterDebit` inside its transaction, and only the endpoints
// whose threshold the debit crossed (balance before >= threshold > balance after) get a
// delivery. A second debit below the threshold crosses nothing: no new event until a credit
// lifts the balance to the threshold or above again.

/**
 * Queues balance.low for the user's enabled endpoints subscribed to it whose threshold this
 * debit crossed; one query on the endpoints' user index when the user has none.
 * @param {CoreApp} txApp  the ledger entry's transaction
 * @param {string} userId
 * @param {number} beforeCents  the balance before the debit
 * @param {number} afterCents  the balance after it
 * @returns {number} how many deliveries were queued
 */
function afterDebit(txApp, userId, beforeCents, afterCents) {
  if (!userId || !(afterCents < beforeCents)) return 0;
  /** @type {typeof import("../core/sql.js")} */
  const sql = require(`${__hooks}/lib/core/sql.js`);
  const rows = sql.rowsLike({ id: "", events: "", threshold: 0 });
  txApp
    .db()
    .newQuery(
      `SELECT id, events, CAST(balance_low_cents AS INTEGER) AS threshold FROM webhook_endpoints
       WHERE user = {:user} AND enabled = TRUE AND balance_low_cents > 0 AND balance_low_cents <= {:before} AND balance_low_cents > {:after}`,
    )
    .bind({ user: userId, before: beforeCents, after: afterCents })
    .all(/** @type {any} */ (rows));
  if (rows.length === 0) return 0;
  /** @type {typeof import("./queue.js")} */
  const queue = require(`${__hooks}/lib/webhooks/queue.js`);
  let queued = 0;
  for (const row of rows) {
    if (!subscribes(row.events, "balance.low")) continue;
    queue.insertDelivery(txApp, {
      endpoint: row.id,
      user: userId,
      event: "balance.low",
      messageId: queue.newMessageId(),
      payload: queue.payloadOf("balance.low", { balance_cents: afterCents, threshold_cents: row.threshold }),
    });
    queued += 1;
  }
  return queued;
}

/**
 * True when an endpoint's `events` JSON lists `event`.
 * @param {string} events
 * @param {string} event
 */
function subscribes(events, event) {
  try {
    const list = JSON.parse(events || "null");
    return Array.isArray(list) && list.indexOf(event) >= 0;
  } catch (_) {
    return false;
  }
}

module.exports = { afterDebit };
