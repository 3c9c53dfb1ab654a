// @ts-check
// The shop's receipts and notices: a receipt for each credit purchase and proxy purchase, a
// refund notice, a ticket-closed notice, the notice of an admin's e-mail change to the old
// address, the notice that a customer's proxies moved to the gateway (issue #16), and to staff (setting staff_notification_email, else contact_email) a new ticket
// and a new contact-form message. Each mail is built from
// one set of data (greeting, paragraphs, amount rows, lines, one link to the page it is
// about) into its plain-text and HTML parts, and goes out through lib/core/mail.js.
//
// Callers send after their transaction committed, once per action (never on an
// Idempotency-Key replay or a repeated webhook). Building or sending a mail never throws:
// a failure is logged, and the action it tells of stands.

/** @type {typeof import("./mail.js")} */
const mail = require(`${__hooks}/lib/core/mail.js`);
/** @type {typeof import("../money/ledger.js")} */
const ledger = require(`${__hooks}/lib/money/ledger.js`);
/** @type {typeof import("../proxies/proxies.js")} */
const proxies = require(`${__hooks}/lib/proxies/proxies.js`);

const usd = ledger.formatUsd;

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
  /** @type {typeof import("../settings/values.js")} */
  const values = require(`${__hooks}/lib/settings/values.js`);
  /** @type {Record<string, string>} */
  const defaults = require(`${__hooks}/lib/default-settings.json`);
  const staff = (values.settingText(app, "staff_notification_email") ?? defaults["staff_notification_email"] ?? "").trim();
  if (staff) return staff;
  return (values.settingText(app, "contact_email") ?? defaults["contact_email"] ?? "").trim();
}

/**
 * The receipt of a credited payment: credits, bonus, amount paid, balance after.
 * @param {CoreApp} app
 * @param {string} paymentId
 */
function creditReceipt(app, paymentId) {
  return deliver(app, "credit receipt", () => {
    const payment = app.findRecordById("payments", paymentId);
    if (payment.getString("status") !== "paid") return null;
    const user = app.findRecordById("users", payment.getString("user_id"));
    const credits = payment.getInt("credits_cents");
    const bonus = payment.getInt("bonus_cents");
    const last =
      (bonus > 0 ? ledger.entryByReference(app, user.id, `payment-bonus:${payment.id}`) : null) ??
      ledger.entryByReference(app, user.id, `payment:${payment.id}`);
    /** @type {[string, string][]} */
    const rows = [["Credits purchased", usd(credits)]];
    if (bonus > 0) rows.push(["Bonus credits", usd(bonus)]);
    rows.push(["Amount paid", usd(payment.getInt("amount_cents"))]);
    if (last) rows.push(["Balance after", usd(last.getInt("balance_after_cents"))]);
    return {
      to: user.email(),
      subject: `Receipt for ${usd(credits + bonus)} in credits`,
      name: user.getString("first_name"),
      paragraphs: [`Thank you for your purchase. ${usd(credits + bonus)} in credits were added to your balance.`],
      rows,
      link: { url: `${mail.appUrl(app)}/dashboard/transactions`, label: "See your transactions" },
    };
  });
}

/**
 * The receipt of a proxy purchase: the order, its total, the balance after and the proxies.
 * Credentials stay in the dashboard (a mail is no place for passwords).
 * @param {CoreApp} app
 * @param {string} userId
 * @param {{ order: Record<string, any>, proxies: Record<string, any>[], balance_cents: number }} view  the route's answer
 */
function proxyReceipt(app, userId, view) {
  return deliver(app, "proxy receipt", () => {
    const user = app.findRecordById("users", userId);
    const order = view.order;
    const number = proxies.orderNumber(String(order["id"]));
    const what = proxies.proxiesLabel(Number(order["quantity"]), String(order["proxy_type"]));
    const place = [order["country"], order["state"], order["city"]].filter(Boolean).join(" / ");
    return {
      to: user.email(),
      subject: `Receipt for order ${number} (${what})`,
      name: user.getString("first_name"),
      paragraphs: [
        `Thank you for your purchase. You bought ${what} in ${place} for ${proxies.TERM_DAYS} days; their credentials are in your dashboard.`,
      ],
      rows: [
        ["Order", number],
        ["Total", usd(Number(order["total_cents"]))],
        ["Balance after", usd(view.balance_cents)],
      ],
      lines: view.proxies.map(
        (p) =>
          `${p["host"]}:${p["port"]} (${proxies.typeLabel(String(p["type"]))}, ${p["country"]}), expires ${String(p["expires_at"]).slice(0, 10)}`,
      ),
      link: { url: `${mail.appUrl(app)}/dashboard/proxies`, label: "See your proxies" },
    };
  });
}

/**
 * The notice of a refunded order: the amount back, why, the balance after.
 * @param {CoreApp} app
 * @param {string} orderId
 */
function refundNotice(app, orderId) {
  return deliver(app, "refund notice", () => {
    const order = app.findRecordById("proxy_orders", orderId);
    if (order.getString("status") !== "refunded") return null;
    const user = app.findRecordById("users", order.getString("user_id"));
    const number = proxies.orderNumber(order.id);
    const entry = ledger.entryByReference(app, user.id, `refund:${order.id}`);
    const amount = order.getInt("total_cents");
    const kind = order.getString("kind") === "renewal" ? "renewal" : "purchase";
    const what = proxies.proxiesLabel(order.getInt("quantity"), order.getString("proxy_type") || undefined);
    /** @type {[string, string][]} */
    const rows = [
      ["Order", number],
      ["Refunded", usd(amount)],
    ];
    if (entry) rows.push(["Balance after", usd(entry.getInt("balance_after_cents"))]);
    return {
      to: user.email(),
      subject: `Refund of order ${number} (${usd(amount)})`,
      name: user.getString("first_name"),
      paragraphs: [
        `We refunded your order ${number} (${what} ${kind}): ${usd(amount)} is back in your balance.`,
        kind === "purchase" ? "The order's proxies are no longer yours." : "The days this renewal bought were taken off its proxies.",
        `Reason: ${order.getString("refund_reason")}`,
      ],
      rows,
      link: { url: `${mail.appUrl(app)}/dashboard/transactions`, label: "See your transactions" },
    };
  });
}

/**
 * The notice that a ticket was closed, to its owner.
 * @param {CoreApp} app
 * @param {core.Record} ticket
 */
function ticketClosed(app, ticket) {
  return deliver(app, "ticket closed", () => {
    const user = app.findRecordById("users", ticket.getString("user_id"));
    const number = ticket.id.slice(0, 8);
    return {
      to: user.email(),
      subject: `Your ticket #${number} was closed`,
      name: user.getString("first_name"),
      paragraphs: [
        `Your support ticket #${number} "${ticket.getString("subject")}" was closed.`,
        "If something is still not right, open a new ticket from your dashboard.",
      ],
      link: { url: `${mail.appUrl(app)}/dashboard/support?ticket=${ticket.id}`, label: "See the conversation" },
    };
  });
}

/**
 * The staff notice of a new ticket, with its first message when there is one.
 * @param {CoreApp} app
 * @param {core.Record} ticket
 * @param {string} [firstMessage]
 */
function staffNewTicket(app, ticket, firstMessage) {
  return deliver(app, "staff new ticket", () => {
    const user = app.findRecordById("users", ticket.getString("user_id"));
    const number = ticket.id.slice(0, 8);
    return {
      to: staffAddress(app),
      subject: `New ticket #${number}: ${ticket.getString("subject")}`,
      paragraphs: [`${user.email()} opened ticket #${number} "${ticket.getString("subject")}" (${ticket.getString("priority")} priority).`],
      ...(firstMessage ? { quote: firstMessage } : {}),
      link: { url: `${mail.appUrl(app)}/console/support?ticket=${ticket.id}`, label: "Answer in the console" },
    };
  });
}

/**
 * The staff notice of a new contact-form message.
 * @param {CoreApp} app
 * @param {core.Record} message
 */
function staffContactMessage(app, message) {
  return deliver(app, "staff contact message", () => ({
    to: staffAddress(app),
    subject: `New contact message: ${message.getString("subject")}`,
    paragraphs: [
      `${message.getString("name")} <${message.getString("email")}> wrote through the contact form (${message.getString("type") || "general"}): "${message.getString("subject")}".`,
    ],
    quote: message.getString("message"),
    link: { url: `${mail.appUrl(app)}/console/messages`, label: "Read it in the console" },
  }));
}

/**
 * The notice to a user's old address that an admin changed it.
 * @param {CoreApp} app
 * @param {string} oldEmail
 * @param {string} newEmail
 */
function emailChanged(app, oldEmail, newEmail) {
  return deliver(app, "e-mail changed", () => ({
    to: oldEmail,
    subject: "Your e-mail address was changed",
    name: "",
    paragraphs: [
      `The e-mail address of your ${mail.siteName(app)} account was changed by our team from ${oldEmail} to ${newEmail}.`,
      "From now on you sign in with the new address, and our mails go there.",
      "If you did not ask for this change, contact us right away.",
    ],
    link: { url: `${mail.appUrl(app)}/contact`, label: "Contact us" },
  }));
}

/**
 * The notice that the owner's proxies moved to the shop's gateway (issue #16): their host
 * and port changed, the username and password they hold did not.
 * @param {CoreApp} app
 * @param {string} userId
 * @param {{ host: string, port: number, username: string, type: string, country: string, ports: { http?: number, socks5?: number } }[]} moved
 */
function endpointMoved(app, userId, moved) {
  return deliver(app, "endpoint moved", () => {
    if (moved.length === 0) return null;
    const user = app.findRecordById("users", userId);
    if (user.getBool("deleted")) return null;
    const hostPort = (/** @type {string} */ host, /** @type {number} */ port) =>
      host.indexOf(":") >= 0 ? `[${host}]:${port}` : `${host}:${port}`;
    return {
      to: user.email(),
      subject: moved.length === 1 ? "Your proxy has a new host and port" : "Your proxies have a new host and port",
      name: user.getString("first_name"),
      paragraphs: [
        `${moved.length === 1 ? "Your proxy now connects" : `Your ${moved.length} proxies now connect`} through our own gateway, so the host and port to use have changed.`,
        "Your username and password stay the same. Update the host and port wherever you use these proxies:",
      ],
      lines: moved.map((p) => {
        const socks = p.ports.socks5 !== undefined && p.ports.http !== undefined ? ` (SOCKS5: port ${p.ports.socks5})` : "";
        return `${p.username}: ${hostPort(p.host, p.port)}${socks}, ${proxies.typeLabel(p.type)}, ${p.country}`;
      }),
      link: { url: `${mail.appUrl(app)}/dashboard/proxies`, label: "See your proxies" },
    };
  });
}

module.exports = {
  compose,
  emailChanged,
  endpointMoved,
  staffAddress,
  creditReceipt,
  proxyReceipt,
  refundNotice,
  ticketClosed,
  staffNewTicket,
  staffContactMessage,
};
