// @ts-check
// Mails the shop sends itself (staff replies, expiry reminders, failed auto-renewals),
// through PocketBase's mail client (SMTP from the environment, see lib/settings/env-settings.js).
// Never called inside a transaction: a slow mail server must not hold the write lock.

/**
 * Escapes text for an HTML mail body.
 * @param {unknown} value
 */
function escapeHtml(value) {
  return String(value).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c);
}

/**
 * Sends one mail; a failure is logged, never thrown (the action that triggered it stands).
 * @param {CoreApp} app
 * @param {{ to: string, subject: string, text: string, html: string }} mail
 * @returns {boolean} whether the mail went out
 */
function sendMail(app, mail) {
  const meta = app.settings().meta;
  try {
    app.newMailClient().send(
      new MailerMessage({
        from: { address: meta.senderAddress, name: meta.senderName },
        to: [{ address: mail.to, name: "" }],
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
      }),
    );
    return true;
  } catch (err) {
    app.logger().error("Sending a mail failed", "to", mail.to, "subject", mail.subject, "error", String(err));
    return false;
  }
}

/**
 * The web app's address for links in mails (SHOP_APP_URL, kept in meta.appURL).
 * @param {CoreApp} app
 */
function appUrl(app) {
  return app.settings().meta.appURL.replace(/\/+$/, "");
}

/**
 * The site name customers know the shop by (settings row site_name, else the app name).
 * @param {CoreApp} app
 */
function siteName(app) {
  try {
    const value = app.findFirstRecordByData("settings", "key", "site_name").getString("value").trim();
    if (value) return value;
  } catch (_) {
    // no row
  }
  return app.settings().meta.appName;
}

module.exports = { escapeHtml, sendMail, appUrl, siteName };
