// @ts-check
// The proxy expiry job (proxies.pb.js runs it every minute; superusers run it at once with
// POST /api/admin/jobs/proxy-expiry):
// 1. proxies due with auto-renew on are renewed (lib/proxies/auto-renewal.js); the rest
//    expire and the customer gets a mail naming them and why;
// 2. every other proxy past its expiry becomes EXPIRED (and leaves "active" everywhere),
//    queuing the owner's proxy.expired webhooks;
// 3. proxies expired for over GRACE_DAYS go back to stock with a new password;
// 4. customers get one reminder mail listing their proxies that expire within REMINDER_DAYS
//    (3), and with it (once per term, the same marker) their proxy.expiring webhooks;
// 5. abandoned checkouts are marked failed.
// Each step is safe to run again: a crash between steps loses nothing.

/** @type {typeof import("./proxies.js")} */
const proxies = require(`${__hooks}/lib/proxies/proxies.js`);
/** @type {typeof import("./auto-renewal.js")} */
const autoRenewal = require(`${__hooks}/lib/proxies/auto-renewal.js`);
/** @type {typeof import("../core/mail.js")} */
const mail = require(`${__hooks}/lib/core/mail.js`);
/** @type {typeof import("../core/sql.js")} */
const sql = require(`${__hooks}/lib/core/sql.js`);

/** Pending checkouts older than this are marked failed (Stripe sessions last 24 hours). */
const ABANDONED_CHECKOUT_DAYS = 2;

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
  for (const [userId, rows] of autoRenewal.byUser(soon)) {
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
    const ids = rows.map((r) => r.id);
    const list = sql.inList("id", ids);
    // The marker and the proxy.expiring webhooks in one transaction: once per term, both.
    app.runInTransaction((txApp) => {
      txApp
        .db()
        .newQuery(`UPDATE proxies SET expiry_notice_sent_at = {:now} WHERE ${list.sql}`)
        .bind({ ...list.params, now: now.string() })
        .execute();
      require(`${__hooks}/lib/proxies/events.js`).proxiesExpiring(txApp, userId, ids);
    });
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

  const { renewed, failed } = autoRenewal.autoRenew(app, nowText);

  // Step 2, with the proxy.expired webhooks of the proxies it expires, in one transaction.
  let expired = 0;
  app.runInTransaction((txApp) => {
    const due = "status = 'ASSIGNED' AND expires_at != '' AND expires_at <= {:now}";
    const rows = sql.rowsLike({ id: "", user_id: "" });
    txApp.db().newQuery(`SELECT id, assigned_to_user_id AS user_id FROM proxies WHERE ${due}`).bind({ now: nowText }).all(rows);
    if (rows.length === 0) return;
    expired = txApp
      .db()
      .newQuery(`UPDATE proxies SET status = 'EXPIRED', updated = {:now} WHERE ${due}`)
      .bind({ now: nowText })
      .execute()
      .rowsAffected();
    require(`${__hooks}/lib/proxies/events.js`).proxiesExpired(txApp, rows);
  });

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

/** The cron "proxy_expiry", every minute: runs the job and logs what it did, if anything. */
function runScheduled() {
  const report = runExpiryJob($app);
  if (Object.values(report).some((n) => n > 0)) $app.logger().info("Proxy expiry job", "report", JSON.stringify(report));
}

/**
 * POST /api/admin/jobs/proxy-expiry: runs the job now and answers its report (superusers
 * only; PocketBase's own POST /api/crons/{id} starts it without waiting for the result).
 * @param {core.RequestEvent} e
 */
function runJobRoute(e) {
  return e.json(200, runExpiryJob(e.app));
}

module.exports = { runExpiryJob, runScheduled, runJobRoute };
