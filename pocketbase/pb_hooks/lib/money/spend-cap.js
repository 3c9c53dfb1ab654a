// @ts-check
// An API key's monthly spend cap (issue #18, api_keys.spend_cap_cents): what orders made
// with the key cost this UTC month, and the refusal of an order that would pass the cap,
// checked inside the order's transaction (lib/proxies/orders.js).

/** The first instant of this UTC month, as stored. */
function monthStart() {
  const now = new Date();
  return new DateTime(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)).toISOString()).string();
}

/**
 * What orders made with `keyId` cost this UTC month, refunded ones included (a cap limits
 * what a key may spend, not what it keeps).
 * @param {CoreApp} app
 * @param {string} keyId
 */
function spentThisMonth(app, keyId) {
  const row = new DynamicModel({ spent: 0 });
  app
    .db()
    .newQuery("SELECT COALESCE(SUM(total_cents), 0) AS spent FROM proxy_orders WHERE api_key_id = {:key} AND created >= {:since}")
    .bind({ key: keyId, since: monthStart() })
    .one(row);
  return row.spent;
}

/**
 * Refuses an order of `cents` made with a key whose monthly cap it would pass; inside the
 * order's transaction, so concurrent purchases with one key never pass the cap together.
 * @param {CoreApp} txApp
 * @param {import("../core/api.js").RequestApiKey | null | undefined} key
 * @param {number} cents
 */
function assertUnderSpendCap(txApp, key, cents) {
  if (!key || !(key.spend_cap_cents > 0)) return;
  const spent = spentThisMonth(txApp, key.id);
  if (spent + cents > key.spend_cap_cents) {
    const ledger = require(`${__hooks}/lib/money/ledger.js`);
    const left = Math.max(0, key.spend_cap_cents - spent);
    const message = `This would pass the API key's monthly spend cap: it costs ${ledger.formatUsd(cents)}, and the key "${key.name}" has ${ledger.formatUsd(left)} of its ${ledger.formatUsd(key.spend_cap_cents)} left this month. Nothing was charged.`;
    throw new ForbiddenError(message, { spend_cap: new ValidationError("spend_cap_reached", message) });
  }
}

module.exports = { spentThisMonth, assertUnderSpendCap };
