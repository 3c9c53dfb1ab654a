// @ts-check
// Chat messages of a support ticket: the sender is the signed-in user and is_admin_message
// follows their is_admin; every saved message moves its ticket up the console's inbox; a
// staff reply is mailed to the ticket's owner and audited (chat_messages.reply).
//
// Closed tickets: the customer can no longer write (chat_messages createRule); staff may
// still reply (a closing note), which the customer reads and gets by e-mail. Setting the
// ticket back to open or pending lets the customer answer again.

/**
 * The records API's new message (not a superuser's): its sender and kind are the signed-in
 * user's; a staff reply is a console change, refused in demo mode. The text is trimmed.
 * @param {core.RecordRequestEvent} e
 */
function newMessageRequest(e) {
  const staff = !e.hasSuperuserAuth() && !!e.auth && e.auth.getBool("is_admin");
  if (!e.hasSuperuserAuth() && e.auth && e.record) {
    e.record.set("sender_id", e.auth.id);
    e.record.set("is_admin_message", e.auth.getBool("is_admin"));
    if (staff) require(`${__hooks}/lib/core/demo-mode.js`).refuseInDemoMode(e.app);
  }
  if (e.record) e.record.set("message", e.record.getString("message").trim());
  const message = e.record;
  if (!staff || !message || !e.auth) return e.next();
  // A staff reply is audited "chat_messages.reply" in the transaction that saves it: no
  // reply without its row, no row for a reply that failed.
  const adminId = e.auth.id;
  e.app.runInTransaction((txApp) => {
    e.app = txApp;
    e.next();
    require(`${__hooks}/lib/core/audit.js`).writeAuditLog(txApp, {
      adminId,
      action: "chat_messages.reply",
      targetType: "chat_messages",
      targetId: message.id,
      details: { ticket_id: message.getString("ticket_id"), message: message.getString("message").slice(0, 500) },
    });
  });
}

/**
 * After a chat message is saved, in its transaction: its ticket's last activity and
 * whether the customer waits for staff (a staff reply answers; a customer message waits).
 * Saved as a record (not SQL) so the change reaches realtime subscribers: the console's
 * list moves live.
 * @param {core.RecordEvent} e
 */
function touchTicket(e) {
  e.next();
  const message = e.record;
  if (!message) return;
  const ticket = e.app.findRecordById("support_tickets", message.getString("ticket_id"));
  ticket.set("last_message_at", message.getString("created") || new DateTime().string());
  ticket.set("awaiting_reply", !message.getBool("is_admin_message"));
  e.app.save(ticket);
}

/**
 * After a staff reply is committed (outside any transaction): a mail to the ticket's owner
 * with a link back to the conversation.
 * @param {core.RecordEvent} e
 */
function mailStaffReply(e) {
  e.next();
  const record = e.record;
  if (!record || !record.getBool("is_admin_message")) return;
  /** @type {typeof import("../core/mail.js")} */
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
}

module.exports = { newMessageRequest, touchTicket, mailStaffReply };
