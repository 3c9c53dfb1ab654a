// @ts-check
// The mails of support: a ticket's closing to its owner, and to staff (setting
// staff_notification_email, else contact_email) a new ticket and a new contact-form message.
// Built with the shop's one mail layout (lib/core/mail-templates.js) and sent after the
// transaction committed, once per action (never on an Idempotency-Key replay or a repeated
// webhook). Building or sending a mail never throws: a failure is logged, the action stands.

/** @type {typeof import("../core/mail-templates.js")} */
const templates = require(`${__hooks}/lib/core/mail-templates.js`);
/** @type {typeof import("../core/mail.js")} */
const mail = require(`${__hooks}/lib/core/mail.js`);

/**
 * The notice that a ticket was closed, to its owner.
 * @param {CoreApp} app
 * @param {core.Record} ticket
 */
function ticketClosed(app, ticket) {
  return templates.deliver(app, "ticket closed", () => {
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
  return templates.deliver(app, "staff new ticket", () => {
    const user = app.findRecordById("users", ticket.getString("user_id"));
    const number = ticket.id.slice(0, 8);
    return {
      to: templates.staffAddress(app),
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
  return templates.deliver(app, "staff contact message", () => ({
    to: templates.staffAddress(app),
    subject: `New contact message: ${message.getString("subject")}`,
    paragraphs: [
      `${message.getString("name")} <${message.getString("email")}> wrote through the contact form (${message.getString("type") || "general"}): "${message.getString("subject")}".`,
    ],
    quote: message.getString("message"),
    link: { url: `${mail.appUrl(app)}/console/messages`, label: "Read it in the console" },
  }));
}

module.exports = { ticketClosed, staffNewTicket, staffContactMessage };
