// @ts-check
/// <reference path="../types/pocketbase.d.ts" />
// Support: behind the API rules, force what a client must not choose. A new ticket is
// always open and owned by its author; a chat message's sender is the signed-in user and
// is_admin_message follows the sender's is_admin. A ticket's last_message_at and
// awaiting_reply (the console's inbox order and "awaiting reply" mark) are the server's:
// every saved message sets them.
//
// Closed tickets: the customer can no longer write (chat_messages createRule); staff may
// still reply (a closing note), which the customer reads and gets by e-mail. Setting the
// ticket back to open or pending lets the customer answer again.

onRecordCreateRequest((e) => {
  if (!e.hasSuperuserAuth() && e.auth && e.record) {
    e.record.set("user_id", e.auth.id);
    e.record.set("status", "open");
    e.record.set("subject", e.record.getString("subject").trim());
    if (!e.record.getString("priority")) e.record.set("priority", "medium");
    e.record.set("last_message_at", "");
  }
  e.next();
}, "support_tickets");

onRecordUpdateRequest((e) => {
  if (!e.hasSuperuserAuth() && e.record) {
    const original = e.record.original();
    e.record.set("last_message_at", original.get("last_message_at"));
    e.record.set("awaiting_reply", original.getBool("awaiting_reply"));
  }
  e.next();
}, "support_tickets");

// Any new ticket (API, route, seed) starts as the newest activity, waiting for staff.
onRecordCreate((e) => {
  if (e.record && !e.record.getString("last_message_at")) {
    e.record.set("last_message_at", new DateTime());
    e.record.set("awaiting_reply", true);
  }
  e.next();
}, "support_tickets");

// Every saved message moves its ticket up the console's inbox, in the same transaction.
onRecordCreate((e) => {
  e.next();
  if (!e.record) return;
  /** @type {typeof import("./lib/support/console-support.js")} */
  const support = require(`${__hooks}/lib/support/console-support.js`);
  support.touchTicket(e.app, e.record);
}, "chat_messages");

onRecordCreateRequest((e) => {
  if (!e.hasSuperuserAuth() && e.auth && e.record) {
    e.record.set("sender_id", e.auth.id);
    e.record.set("is_admin_message", e.auth.getBool("is_admin"));
    // A staff reply is a console change: refused in demo mode.
    if (e.auth.getBool("is_admin")) require(`${__hooks}/lib/audit/admin.js`).refuseInDemoMode(e.app);
  }
  if (e.record) e.record.set("message", e.record.getString("message").trim());
  e.next();
}, "chat_messages");

// POST /api/v1/support/tickets {subject, priority?, message} -> {ticket, message}
// A new ticket and its first message in one transaction (spec 4: "insert ticket, insert
// first message"), so a ticket never exists without what the customer wrote.
routerAdd(
  "POST",
  "/api/v1/support/tickets",
  (e) => {
    /** @type {typeof import("./lib/core/api.js")} */
    const api = require(`${__hooks}/lib/core/api.js`);
    const user = api.customer(e);
    const body = api.jsonBody(e);
    const subject = api.text(body["subject"]);
    const text = api.text(body["message"]);
    const priority = api.text(body["priority"]) || "medium";
    /** @type {Record<string, ValidationError>} */
    const errors = {};
    if (api.chars(subject) < 5)
      errors["subject"] = new ValidationError("validation_min_text_constraint", "Subject must be at least 5 characters");
    if (api.chars(subject) > 200)
      errors["subject"] = new ValidationError("validation_max_text_constraint", "Subject must be at most 200 characters");
    if (api.chars(text) < 10)
      errors["message"] = new ValidationError("validation_min_text_constraint", "Message must be at least 10 characters");
    if (api.chars(text) > 5000)
      errors["message"] = new ValidationError("validation_max_text_constraint", "Message must be at most 5000 characters");
    if (["low", "medium", "high", "urgent"].indexOf(priority) < 0) {
      errors["priority"] = new ValidationError("validation_invalid_value", "Priority must be low, medium, high or urgent");
    }
    if (Object.keys(errors).length > 0) throw new BadRequestError("Please check the highlighted fields.", errors);

    /** @type {{ ticket: core.Record, message: core.Record } | undefined} */
    let created;
    e.app.runInTransaction((txApp) => {
      const ticket = new Record(txApp.findCachedCollectionByNameOrId("support_tickets"), {
        user_id: user.id,
        subject,
        priority,
        status: "open",
      });
      txApp.save(ticket);
      const message = new Record(txApp.findCachedCollectionByNameOrId("chat_messages"), {
        ticket_id: ticket.id,
        sender_id: user.id,
        message: text,
        is_admin_message: false,
      });
      txApp.save(message);
      created = { ticket, message };
    });
    return e.json(200, created);
  },
  $apis.requireAuth("users"),
);

// A staff reply is also mailed to the ticket's owner (after the commit, outside any
// transaction), with a link back to the conversation.
onRecordAfterCreateSuccess((e) => {
  e.next();
  const record = e.record;
  if (!record || !record.getBool("is_admin_message")) return;
  /** @type {typeof import("./lib/core/mail.js")} */
  const mail = require(`${__hooks}/lib/core/mail.js`);
  const ticket = e.app.findRecordById("support_tickets", record.getString("ticket_id"));
  const owner = e.app.findRecordById("users", ticket.getString("user_id"));
  const number = ticket.id.slice(0, 8);
  const link = `${mail.appUrl(e.app)}/dashboard/support?ticket=${ticket.id}`;
  const site = mail.siteName(e.app);
  const subject = ticket.getString("subject");
  const text = record.getString("message");
  mail.sendMail(e.app, {
    to: owner.email(),
    subject: `New reply to your ticket #${number}: ${subject}`,
    text: `Hello ${owner.getString("first_name") || ""},\n\nOur support team replied to your ticket #${number} "${subject}":\n\n${text}\n\nReply in your dashboard: ${link}\n\n${site}`,
    html: `<p>Hello ${mail.escapeHtml(owner.getString("first_name"))},</p><p>Our support team replied to your ticket #${number} “${mail.escapeHtml(subject)}”:</p><blockquote style="white-space:pre-wrap">${mail.escapeHtml(text)}</blockquote><p><a href="${mail.escapeHtml(link)}">Reply in your dashboard</a></p><p>${mail.escapeHtml(site)}</p>`,
  });
}, "chat_messages");

// Live support for customers (lib/support/support-live.js): every committed change of a ticket or
// message goes to its ticket's topic and its owner's, checked per client in memory.
onRecordAfterCreateSuccess((e) => {
  e.next();
  if (e.record) require(`${__hooks}/lib/support/support-live.js`).announceMessage(e.app, "create", e.record);
}, "chat_messages");
onRecordAfterUpdateSuccess((e) => {
  e.next();
  if (e.record) require(`${__hooks}/lib/support/support-live.js`).announceMessage(e.app, "update", e.record);
}, "chat_messages");
onRecordAfterDeleteSuccess((e) => {
  e.next();
  if (e.record) require(`${__hooks}/lib/support/support-live.js`).announceMessage(e.app, "delete", e.record);
}, "chat_messages");
onRecordAfterCreateSuccess((e) => {
  e.next();
  if (e.record) require(`${__hooks}/lib/support/support-live.js`).announceTicket(e.app, "create", e.record);
}, "support_tickets");
onRecordAfterUpdateSuccess((e) => {
  e.next();
  if (e.record) require(`${__hooks}/lib/support/support-live.js`).announceTicket(e.app, "update", e.record);
}, "support_tickets");
onRecordAfterDeleteSuccess((e) => {
  e.next();
  if (e.record) require(`${__hooks}/lib/support/support-live.js`).announceTicket(e.app, "delete", e.record);
}, "support_tickets");
