// @ts-check
// The shop's one mail layout. The domain that owns an event builds its mail (receipts:
// lib/money/mails.js, lib/proxies/mails.js; support's: lib/support/mails.js; accounts':
// lib/accounts/mails.js) from one set of data (greeting, paragraphs, amount rows, lines, one
// link to the page it is about); deliver() turns it into its plain-text and HTML parts and
// sends it through lib/core/mail.js.
//
// Callers send after their transaction committed, once per action (never on an
// Idempotency-Key replay or a repeated webhook). Building or sending a mail never throws:
// a failure is logged, and the action it tells of stands.

/** @type {typeof import("./mail.js")} */
const mail = require(`${__hooks}/lib/core/mail.js`);

/**
 * @typedef {object} MailData
 * @property {string} to
 * @property {string} subject       without the site name (it is put in front)
 * @property {string} [name]        the greeting's name ("Hello Ann,"); none for staff mails
 * @property {string[]} paragraphs
 * @property {[string, string][]} [rows]   label, value ("Balance after", "$12.00")
 * @property {string[]} [lines]     a list (proxies bought)
 * @property {string} [quote]       text someone wrote (a message), kept as written
 * @property {{ url: string, label: string }} link
 */

/**
 * The mail's text and HTML parts, from the same data.
 * @param {CoreApp} app
 * @param {MailData} data
 * @returns {{ to: string, subject: string, text: string, html: string }}
 */
function compose(app, data) {
  const site = mail.siteName(app);
  const esc = mail.escapeHtml;
  const hello = data.name === undefined ? "" : `Hello ${data.name}`.trim() + ",";
  const rows = data.rows ?? [];
  const lines = data.lines ?? [];
  /** @type {string[]} */
  const text = [];
  /** @type {string[]} */
  const html = [];
  if (hello) {
    text.push(hello);
    html.push(`<p>${esc(hello)}</p>`);
  }
  for (const p of data.paragraphs) {
    text.push(p);
    html.push(`<p>${esc(p)}</p>`);
  }
  if (data.quote !== undefined) {
    text.push(data.quote);
    html.push(`<blockquote style="white-space:pre-wrap">${esc(data.quote)}</blockquote>`);
  }
  if (rows.length > 0) {
    text.push(rows.map(([label, value]) => `${label}: ${value}`).join("\n"));
    html.push(
      `<table cellpadding="4">${rows.map(([label, value]) => `<tr><td>${esc(label)}</td><td align="right"><strong>${esc(value)}</strong></td></tr>`).join("")}</table>`,
    );
  }
  if (lines.length > 0) {
    text.push(lines.map((l) => `- ${l}`).join("\n"));
    html.push(`<ul>${lines.map((l) => `<li>${esc(l)}</li>`).join("")}</ul>`);
  }
  text.push(`${data.link.label}: ${data.link.url}`);
  html.push(`<p><a href="${esc(data.link.url)}">${esc(data.link.label)}</a></p>`);
  text.push(site);
  html.push(`<p>${esc(site)}</p>`);
  return { to: data.to, subject: `${site}: ${data.subject}`, text: text.join("\n\n"), html: html.join("") };
}

/**
 * Builds and sends a mail; whatever fails is logged, never thrown.
 * @param {CoreApp} app
 * @param {string} what  for the log
 * @param {() => MailData | null} build  null: nobody to mail
 * @returns {boolean} whether a mail went out
 */
function deliver(app, what, build) {
  try {
    const data = build();
    if (!data || !data.to) return false;
    return mail.sendMail(app, compose(app, data));
  } catch (err) {
    app.logger().error("Building a mail failed", "mail", what, "error", String(err));
    return false;
  }
}

/**
 * The address staff notices go to: the staff_notification_email setting, else the shop's
 * contact_email (its default too), else nobody.
 * @param {CoreApp} app
 */
function staffAddress(app) {
  /** @type {typeof import("./settings.js")} */
  const values = require(`${__hooks}/lib/core/settings.js`);
  /** @type {Record<string, string>} */
  const defaults = require(`${__hooks}/lib/default-settings.json`);
  const staff = (values.settingText(app, "staff_notification_email") ?? defaults["staff_notification_email"] ?? "").trim();
  if (staff) return staff;
  return (values.settingText(app, "contact_email") ?? defaults["contact_email"] ?? "").trim();
}

module.exports = { compose, deliver, staffAddress };
