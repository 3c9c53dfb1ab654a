// @ts-check
// Support tickets: the customer's new ticket with its first message, and what a client must
// not choose on a ticket. A new ticket is always open and owned by its author; its
// last_message_at and awaiting_reply (the console's inbox order and "awaiting reply" mark)
// are the server's (messages.js sets them on every saved message). After the commit, staff
// get a new ticket's notice and the owner a closed ticket's (mails.pb.js,
// lib/support/mails.js).

/**
 * The errors of a new ticket's fields that the document cannot state: the request validation
 * (pocketbase/devapi) held the body to the contract's lengths and priorities, but the subject
 * and the message are trimmed before they are kept, and must still be long enough then.
 * @param {{ subject: string, text: string }} input
 * @returns {Record<string, ValidationError>}
 */
function ticketErrors(input) {
  /** @type {typeof import("../core/api.js")} */
  const { chars } = require(`${__hooks}/lib/core/api.js`);
  const limits = require(`${__hooks}/lib/catalog.json`).support;
  /** @type {Record<string, ValidationError>} */
  const errors = {};
  const tooShort = (/** @type {string} */ message) => new ValidationError("validation_min_text_constraint", message);
  if (chars(input.subject) < limits.subject_min) errors["subject"] = tooShort(limits.subject_min_message);
  if (chars(input.text) < limits.message_min) errors["message"] = tooShort(limits.message_min_message);
  return errors;
}

/**
 * POST /api/v1/support/tickets {subject, priority?, message} -> {ticket, message}
 *
 * A new ticket and its first message in one transaction (spec 4: "insert ticket, insert
 * first message"), so a ticket never exists without what the customer wrote. 400 per
 * field (subject 5-200 characters, message 10-5000, priority low|medium|high|urgent): the
 * request validation answers what breaks the document, ticketErrors what it cannot say.
 * @param {core.RequestEvent} e
 */
function createTicket(e) {
  /** @type {typeof import("../core/api.js")} */
  const api = require(`${__hooks}/lib/core/api.js`);
  const user = api.customer(e);
  const body = api.jsonBody(e);
  const input = { subject: api.text(body["subject"]), text: api.text(body["message"]), priority: api.text(body["priority"]) || "medium" };
  const errors = ticketErrors(input);
  if (Object.keys(errors).length > 0) throw new BadRequestError("Please check the highlighted fields.", errors);

  /** @type {{ ticket: core.Record, message: core.Record } | undefined} */
  let created;
  e.app.runInTransaction((txApp) => {
    const ticket = new Record(txApp.findCachedCollectionByNameOrId("support_tickets"), {
      user_id: user.id,
      subject: input.subject,
      priority: input.priority,
      status: "open",
    });
    txApp.save(ticket);
    const message = new Record(txApp.findCachedCollectionByNameOrId("chat_messages"), {
      ticket_id: ticket.id,
      sender_id: user.id,
      message: input.text,
      is_admin_message: false,
    });
    txApp.save(message);
    created = { ticket, message };
  });
  return e.json(200, created);
}

/**
 * The records API's new ticket (not a superuser's): open, owned by its author, the subject
 * trimmed, medium priority unless chosen.
 * @param {core.RecordRequestEvent} e
 */
function newTicketRequest(e) {
  if (!e.hasSuperuserAuth() && e.auth && e.record) {
    e.record.set("user_id", e.auth.id);
    e.record.set("status", "open");
    e.record.set("subject", e.record.getString("subject").trim());
    if (!e.record.getString("priority")) e.record.set("priority", "medium");
    e.record.set("last_message_at", "");
  }
  return e.next();
}

/**
 * The records API's ticket update (not a superuser's): the inbox fields keep their values.
 * @param {core.RecordRequestEvent} e
 */
function ticketUpdateRequest(e) {
  if (!e.hasSuperuserAuth() && e.record) {
    const original = e.record.original();
    e.record.set("last_message_at", original.get("last_message_at"));
    e.record.set("awaiting_reply", original.getBool("awaiting_reply"));
  }
  return e.next();
}

/**
 * Any new ticket (API, route, seed) starts as the newest activity, waiting for staff.
 * @param {core.RecordEvent} e
 */
function startActivity(e) {
  if (e.record && !e.record.getString("last_message_at")) {
    e.record.set("last_message_at", new DateTime());
    e.record.set("awaiting_reply", true);
  }
  return e.next();
}

/**
 * After a new ticket is committed (the route's, the records API's): staff get a notice with
 * its first message (committed with it by the route).
 * @param {core.RecordEvent} e
 */
function mailNewTicket(e) {
  e.next();
  if (!e.record) return;
  /** @type {typeof import("../core/sql.js")} */
  const sql = require(`${__hooks}/lib/core/sql.js`);
  const rows = sql.rowsLike({ message: "" });
  e.app
    .db()
    .newQuery("SELECT message FROM chat_messages WHERE ticket_id = {:id} ORDER BY created, id LIMIT 1")
    .bind({ id: e.record.id })
    .all(rows);
  require(`${__hooks}/lib/support/mails.js`).staffNewTicket(e.app, e.record, rows[0]?.message ?? "");
}

/**
 * After an update is committed: a ticket that was not closed and is closed now tells its
 * owner (original() is still the row as it was before this save).
 * @param {core.RecordEvent} e
 */
function mailClosedTicket(e) {
  e.next();
  const record = e.record;
  if (!record || record.getString("status") !== "closed" || record.original().getString("status") === "closed") return;
  require(`${__hooks}/lib/support/mails.js`).ticketClosed(e.app, record);
}

module.exports = { createTicket, newTicketRequest, ticketUpdateRequest, startActivity, mailNewTicket, mailClosedTicket };
