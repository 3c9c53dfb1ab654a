// @ts-check
// Step 1 of the expiry job (lib/proxies/expiry.js): proxies due with auto-renew on are
// renewed, one order per customer, as many as the balance covers (less the welcome credit
// that may not be spent yet), oldest expiry first; the others are reported with the reason,
// for the job to expire them and mail their owner.

/** @type {typeof import("./proxies.js")} */
const proxies = require(`${__hooks}/lib/proxies/proxies.js`);
/** @type {typeof import("./prices.js")} */
const prices = require(`${__hooks}/lib/proxies/prices.js`);
/** @type {typeof import("./renewal.js")} */
const renewal = require(`${__hooks}/lib/proxies/renewal.js`);
/** @type {typeof import("../money/ledger.js")} */
const ledger = require(`${__hooks}/lib/money/ledger.js`);
/** @type {typeof import("../core/sql.js")} */
const sql = require(`${__hooks}/lib/core/sql.js`);

/**
 * @template {{ user_id: string }} T
 * @param {T[]} rows
 * @returns {Map<string, T[]>}
 */
function byUser(rows) {
  /** @type {Map<string, T[]>} */
  const groups = new Map();
  for (const row of rows) {
    const list = groups.get(row.user_id) ?? [];
    list.push(row);
    groups.set(row.user_id, list);
  }
  return groups;
}

/**
 * @typedef {{ id: string, user_id: string, host: string, port: number, type: string, country: string, expires_at: string }} DueProxy
 * @typedef {{ proxy: DueProxy, reason: string }} RenewalFailure
 */

/** @returns {DueProxy[]} */
function dueRows() {
  return sql.rowsLike({ id: "", user_id: "", host: "", port: 0, type: "", country: "", expires_at: "" });
}

/**
 * Which of a customer's due proxies auto-renewal can renew, oldest expiry first: those of a
 * type still for sale, as long as what is left of `budgetCents` covers them. The others
 * come back with the reason they are not renewed.
 * @param {DueProxy[]} due  oldest expiry first
 * @param {Record<string, number>} unitPrices  unit prices of the types for sale
 * @param {number} budgetCents  what the customer may spend now
 * @param {number} lockedCents  welcome credit left out of the budget (lib/money/welcome-credit.js lockedWelcomeCents)
 * @returns {{ renew: DueProxy[], failures: RenewalFailure[] }}
 */
function chooseRenewals(due, unitPrices, budgetCents, lockedCents) {
  let left = budgetCents;
  /** @type {DueProxy[]} */
  const renew = [];
  /** @type {RenewalFailure[]} */
  const failures = [];
  for (const proxy of due) {
    const price = unitPrices[proxy.type] ?? 0;
    if (!price) {
      failures.push({ proxy, reason: `${proxies.typeLabel(proxy.type)} proxies are not for sale right now, so they cannot be renewed.` });
    } else if (price > left) {
      failures.push({
        proxy,
        reason: `Insufficient balance: renewing it costs ${ledger.formatUsd(price)} and ${ledger.formatUsd(Math.max(0, left))} of your balance was left${renew.length > 0 ? " after the renewals above it" : ""}.${
          lockedCents > 0 ? ` ${ledger.formatUsd(lockedCents)} of welcome credit can be spent only after your first credit purchase.` : ""
        }`,
      });
    } else {
      left -= price;
      renew.push(proxy);
    }
  }
  return { renew, failures };
}

/**
 * Auto-renewals, one order per customer renewing what their balance covers, oldest
 * expiry first. Returns how many proxies were renewed and, per customer, the due proxies
 * that were not (the job expires them) with the reason.
 * @param {CoreApp} app
 * @param {string} now
 */
function autoRenew(app, now) {
  const dueQuery = `SELECT id, assigned_to_user_id AS user_id, host, port, type, country, expires_at FROM proxies
    WHERE status = 'ASSIGNED' AND auto_renew = TRUE AND expires_at != '' AND expires_at <= {:now}`;
  const due = dueRows();
  app.db().newQuery(`${dueQuery} ORDER BY assigned_to_user_id, expires_at, id`).bind({ now }).all(due);
  let renewed = 0;
  /** @type {{ userId: string, renewed: number, failures: RenewalFailure[] }[]} */
  const failed = [];
  for (const [userId, rows] of byUser(due)) {
    /** @type {{ renewed: number, failures: RenewalFailure[] }} */
    let outcome = { renewed: 0, failures: [] };
    try {
      app.runInTransaction((txApp) => {
        // Still due inside the transaction: a run beside this one may have renewed them.
        const still = dueRows();
        txApp.db().newQuery(`${dueQuery} AND assigned_to_user_id = {:userId} ORDER BY expires_at, id`).bind({ userId, now }).all(still);
        // What the customer may spend now: the balance less the welcome credit that may not
        // be spent before a first payment (lib/money/welcome-credit.js), which renew() refuses too.
        const locked = require(`${__hooks}/lib/money/welcome-credit.js`).lockedWelcomeCents(txApp, userId);
        const budget = ledger.balanceRecord(txApp, userId).getInt("balance_cents") - locked;
        const choice = chooseRenewals(still, prices.priceList(txApp), budget, locked);
        if (choice.renew.length > 0) {
          renewal.renew(txApp, userId, choice.renew.map((r) => r.id).sort(), { how: "automatic" });
        }
        outcome = { renewed: choice.renew.length, failures: choice.failures };
      });
    } catch (err) {
      const reason = String(/** @type {any} */ (err)?.message ?? err);
      outcome = { renewed: 0, failures: rows.map((proxy) => ({ proxy, reason })) };
    }
    renewed += outcome.renewed;
    if (outcome.failures.length > 0) failed.push({ userId, ...outcome });
  }
  return { renewed, failed };
}

module.exports = { byUser, autoRenew };
