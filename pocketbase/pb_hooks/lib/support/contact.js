// @ts-check
// The contact form's messages: trimmed values (so the length checks see what was meant)
// and the sender's IP in the hidden `ip` field. `read_at` (the console's inbox; empty =
// unread) is the server's: a new message is always unread, and an admin marking it read
// gets the server's time whatever date was sent (any date means "read now", "" unread).
// A committed message is mailed to staff (mails.pb.js; setting staff_notification_email,
// else contact_email).

/** @param {core.Record} record */
function trimFields(record) {
  for (const field of ["name", "email", "subject", "message"]) {
    record.set(field, record.getString(field).trim());
  }
}

/** @param {core.RecordRequestEvent} e */
function newMessageRequest(e) {
  if (e.record) {
    trimFields(e.record);
    e.record.set("ip", e.realIP());
    if (!e.hasSuperuserAuth()) e.record.set("read_at", "");
  }
  return e.next();
}

/** @param {core.RecordRequestEvent} e */
function updateRequest(e) {
  if (e.record) {
    trimFields(e.record);
    // Sent read_at (the body holds it already parsed as a date): keep the first reading's
    // time when marking read, or empty it when marking unread.
    const body = /** @type {Record<string, unknown> | null} */ (e.requestInfo().body);
    if (!e.hasSuperuserAuth() && body && body["read_at"] !== undefined) {
      const was = e.record.original().getString("read_at");
      e.record.set("read_at", e.record.getString("read_at") === "" ? "" : was || new DateTime());
    }
  }
  return e.next();
}

/**
 * After a new message is committed: the staff notice.
 * @param {core.RecordEvent} e
 */
function mailNewMessage(e) {
  e.next();
  if (e.record) require(`${__hooks}/lib/support/mails.js`).staffContactMessage(e.app, e.record);
}

module.exports = { newMessageRequest, updateRequest, mailNewMessage };
