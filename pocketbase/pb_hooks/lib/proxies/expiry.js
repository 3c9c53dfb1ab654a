// @ts-check
// The proxy expiry job (pb_hooks/proxy-expiry.pb.js runs it every minute):
// 1. proxies due with auto-renew on are renewed, one order per customer, as many as the
//    balance covers, oldest expiry first; the rest expire and the customer gets a mail
//    naming them and why;
// 2. every other proxy past its expiry becomes EXPIRED (and leaves "active" everywhere);
// 3. proxies expired for over GRACE_DAYS go back to stock with a new password;
// 4. customers get one reminder mail listing their proxies that expire within 3 days;
// 5. abandoned checkouts are marked failed.
// Each step is safe to run again: a crash between steps loses nothing.

/** @type {typeof import("./proxies.js")} */
const proxies = require(`${__hooks}/lib/proxies/proxies.js`);
/** @type {typeof import("../core/mail.js")} */
const mail = require(`${__hooks}/lib/core/mail.js`);
/** @type {typeof import("../core/sql.js")} */
const sql = require(`${__hooks}/lib/core/sql.js`);

/** Pending checkouts older than this are marked failed (Stripe sessions last 24 hours). */
const ABANDONED_CHECKOUT_DAYS = 2;

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

/** @param {string} date  PocketBase date text */
function day(date) {
  return date.slice(0, 10);
}

/**
 * @param {{ host: string, port: number, type: string, country: string, expires_at: string }} p
 */
function proxyLine(p) {
  return `${p.host}:${p.port} (${proxies.typeLabel(p.type)}, ${p.country}), expires ${day(p.expires_at)}`;
}

/**
 * Mails `userId` (if the account still exists).
 * @param {CoreApp} app
 * @param {string} userId
 * @param {string} subject
 * @param {string[]} paragraphs  plain text; escaped for the HTML part
 * @param {string[]} lines  the proxies, one per line
 */
function mailUser(app, userId, subject, paragraphs, lines) {
  /** @type {core.Record} */
  let user;
  try {
    user = app.findRecordById("users", userId);
  } catch (_) {
    return false;
  }
  const site = mail.siteName(app);
  const hello = `Hello ${user.getString("first_name") || ""},`.replace(" ,", ",");
  return mail.sendMail(app, {
    to: user.email(),
    subject: `${site}: ${subject}`,
    text: [hello, ...paragraphs, lines.map((l) => `- ${l}`).join("\n"), site].join("\n\n"),
    html:
      `<p>${mail.escapeHtml(hello)}</p>` +
      paragraphs.map((p) => `<p>${mail.escapeHtml(p)}</p>`).join("") +
      `<ul>${lines.map((l) => `<li>${mail.escapeHtml(l)}</li>`).join("")}</ul><p>${mail.escapeHtml(site)}</p>`,
  });
}

/**
 * @typedef {{ id: string, user_id: string, host: string, port: number, type: string, country: string, expires_at: string }} DueProxy
 * @typedef {{ proxy: DueProxy, reason: string }} RenewalFailure
 */

/**
 * Which of a customer's due proxies auto-renewal can renew, oldest expiry first: those of a
 * type still for sale, as long as what is left of `budgetCents` covers them. The others
 * come back with the reason they are not renewed.
 * @param {DueProxy[]} due  oldest expiry first
 * @param {Record<string, number>} prices  unit prices of the types for sale
 * @param {number} budgetCents  what the customer may spend now
 * @param {number} lockedCents  welcome credit left out of the budget (lib/accounts/accounts.js lockedWelcomeCents)
 * @returns {{ renew: DueProxy[], failures: RenewalFailure[] }}
 */
function chooseRenewals(due, prices, budgetCents, lockedCents) {
  /** @type {typeof import("../money/ledger.js")} */
  const ledger = require(`${__hooks}/lib/money/ledger.js`);
  let left = budgetCents;
  /** @type {DueProxy[]} */
  const renew = [];
  /** @type {RenewalFailure[]} */
  const failures = [];
  for (const proxy of due) {
    const price = prices[proxy.type] ?? 0;
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
 * Step 1: auto-renewals, one order per customer renewing what their balance covers, oldest
 * expiry first. Returns how many proxies were renewed and, per customer, the due proxies
 * that were not (they expire in step 2) with the reason.
 * @param {CoreApp} app
 * @param {string} now
 */
function autoRenew(app, now) {
  /** @type {typeof import("../money/ledger.js")} */
  const ledger = require(`${__hooks}/lib/money/ledger.js`);
  const dueQuery = `SELECT id, assigned_to_user_id AS user_id, host, port, type, country, expires_at FROM proxies
    WHERE status = 'ASSIGNED' AND auto_renew = TRUE AND expires_at != '' AND expires_at <= {:now}`;
  const due = sql.rowsLike({ id: "", user_id: "", host: "", port: 0, type: "", country: "", expires_at: "" });
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
        const still = sql.rowsLike({ id: "", user_id: "", host: "", port: 0, type: "", country: "", expires_at: "" });
        txApp.db().newQuery(`${dueQuery} AND assigned_to_user_id = {:userId} ORDER BY expires_at, id`).bind({ userId, now }).all(still);
        // What the customer may spend now: the balance less the welcome credit that may not
        // be spent before a first payment (lib/accounts/accounts.js), which renew() refuses too.
        const locked = require(`${__hooks}/lib/accounts/welcome-credit.js`).lockedWelcomeCents(txApp, userId);
        const budget = ledger.balanceRecord(txApp, userId).getInt("balance_cents") - locked;
        const choice = chooseRenewals(still, proxies.priceList(txApp), budget, locked);
        if (choice.renew.length > 0) {
          proxies.renew(txApp, userId, choice.renew.map((r) => r.id).sort(), { how: "automatic" });
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

/**
 * Step 4: one reminder per customer for proxies expiring within REMINDER_DAYS.
 * @param {CoreApp} app
 * @param {DateTime} now
 */
function remind(app, now) {
  const soon = sql.rowsLike({ id: "", user_id: "", host: "", port: 0, type: "", country: "", expires_at: "", auto_renew: false });
  app
    .db()
    .newQuery(
      `SELECT id, assigned_to_user_id AS user_id, host, port, type, country, expires_at, auto_renew FROM proxies
       WHERE status = 'ASSIGNED' AND expiry_notice_sent_at = '' AND expires_at != '' AND expires_at > {:now} AND expires_at <= {:soon}
       ORDER BY assigned_to_user_id, expires_at`,
    )
    .bind({ now: now.string(), soon: now.addDate(0, 0, proxies.REMINDER_DAYS).string() })
    .all(soon);
  let reminded = 0;
  for (const [userId, rows] of byUser(soon)) {
    const sent = mailUser(
      app,
      userId,
      `${proxies.proxiesLabel(rows.length)} ${rows.length === 1 ? "expires" : "expire"} soon`,
      [
        `These proxies expire within ${proxies.REMINDER_DAYS} days. Renew them in your dashboard (My Proxies) to keep them for another ${proxies.TERM_DAYS} days; those marked "auto-renews" are renewed automatically if your balance covers them.`,
        `${mail.appUrl(app)}/dashboard/proxies`,
      ],
      rows.map((r) => `${proxyLine(r)}${r.auto_renew ? " - auto-renews" : ""}`),
    );
    if (!sent) continue; // tried again next run
    const list = sql.inList(
      "id",
      rows.map((r) => r.id),
    );
    app
      .db()
      .newQuery(`UPDATE proxies SET expiry_notice_sent_at = {:now} WHERE ${list.sql}`)
      .bind({ ...list.params, now: now.string() })
      .execute();
    reminded += rows.length;
  }
  return reminded;
}

/**
 * Runs every step once; returns what it did.
 * @param {CoreApp} app
 */
function runExpiryJob(app) {
  const now = new DateTime();
  const nowText = now.string();

  const { renewed, failed } = autoRenew(app, nowText);

  const expired = app
    .db()
    .newQuery(
      "UPDATE proxies SET status = 'EXPIRED', updated = {:now} WHERE status = 'ASSIGNED' AND expires_at != '' AND expires_at <= {:now}",
    )
    .bind({ now: nowText })
    .execute()
    .rowsAffected();

  for (const failure of failed) {
    const count = failure.failures.length;
    mailUser(
      app,
      failure.userId,
      `automatic renewal failed for ${proxies.proxiesLabel(count)}`,
      [
        `We could not renew ${count === 1 ? "this proxy" : "these proxies"} automatically, so ${count === 1 ? "it has" : "they have"} expired.${
          failure.renewed > 0
            ? ` Your other ${proxies.proxiesLabel(failure.renewed)} due now ${failure.renewed === 1 ? "was" : "were"} renewed for ${proxies.TERM_DAYS} days.`
            : ""
        }`,
        `Add credits and renew ${count === 1 ? "it" : "them"} in your dashboard within ${proxies.GRACE_DAYS} days to keep ${count === 1 ? "it" : "them"}: ${mail.appUrl(app)}/dashboard/proxies`,
      ],
      failure.failures.map((f) => `${proxyLine(f.proxy)}: ${f.reason}`),
    );
  }

  // Step 3: back to stock after the grace period, with a new password each.
  const stale = sql.rowsLike({ id: "" });
  app
    .db()
    .newQuery("SELECT id FROM proxies WHERE status = 'EXPIRED' AND expires_at != '' AND expires_at <= {:cutoff}")
    .bind({ cutoff: now.addDate(0, 0, -proxies.GRACE_DAYS).string() })
    .all(stale);
  app.runInTransaction((txApp) => {
    proxies.returnToStock(
      txApp,
      stale.map((row) => row.id),
      "EXPIRED",
    );
  });

  const reminded = remind(app, now);

  const abandoned = app
    .db()
    .newQuery(
      "UPDATE payments SET status = 'failed', failure_reason = 'The checkout was abandoned.', updated = {:now} WHERE status = 'pending' AND created <= {:cutoff}",
    )
    .bind({ now: nowText, cutoff: now.addDate(0, 0, -ABANDONED_CHECKOUT_DAYS).string() })
    .execute()
    .rowsAffected();

  return { renewed, renewal_failures: failed.length, expired, released: stale.length, reminded, abandoned_checkouts: abandoned };
}

module.exports = { runExpiryJob };
