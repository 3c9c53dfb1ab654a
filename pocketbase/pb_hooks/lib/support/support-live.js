// @ts-check
// Live support without a database query per connected client. PocketBase checks a
// record's rule (and the subscription's filter) with one query for EVERY client holding
// a `collection/*` subscription, so a thousand customers each following their own tickets
// made every message cost thousands of queries. Customers follow two custom topics
// instead, which the hooks below fill and PocketBase only matches by name:
//   support/tickets/<ticketId>  the ticket's messages and the ticket's own changes
//   support/users/<userId>      the user's tickets (created, changed, deleted)
// Each event is {collection, action, record} like a record subscription's. A client gets
// it only when its signed-in user owns the ticket or is an admin now (re-read, so a
// demoted admin stops receiving); everyone else subscribed to the name gets nothing.

const TICKET_TOPIC = "support/tickets/";
const USER_TOPIC = "support/users/";

/**
 * @param {CoreApp} app
 * @param {string} ownerId  the ticket's owner
 * @returns {(auth: core.Record | null | undefined) => boolean}
 */
function ownerOrAdmin(app, ownerId) {
  /** @type {Record<string, boolean>} */
  const admins = {};
  return (auth) => {
    if (!auth || auth.collection().name !== "users") return false;
    if (auth.id === ownerId) return true;
    if (!(auth.id in admins)) {
      try {
        admins[auth.id] = app.findRecordById("users", auth.id).getBool("is_admin");
      } catch {
        admins[auth.id] = false;
      }
    }
    return admins[auth.id] === true;
  };
}

/**
 * Sends `data` to every client subscribed to one of `topics` that `mayReceive` accepts.
 * @param {CoreApp} app
 * @param {string[]} topics
 * @param {unknown} data
 * @param {(auth: core.Record | null | undefined) => boolean} mayReceive
 */
function send(app, topics, data, mayReceive) {
  const json = JSON.stringify(data);
  const messages = topics.map((topic) => ({ topic, message: new SubscriptionMessage({ name: topic, data: json }) }));
  const clients = app.subscriptionsBroker().clients();
  for (const id in clients) {
    const client = clients[id];
    for (const { topic, message } of messages) {
      if (client.hasSubscription(topic) && mayReceive(client.get("auth"))) client.send(message);
    }
  }
}

/**
 * Announces a saved or deleted chat message to its ticket's topic.
 * @param {CoreApp} app
 * @param {"create" | "update" | "delete"} action
 * @param {core.Record} message
 */
function announceMessage(app, action, message) {
  const ticketId = message.getString("ticket_id");
  let ownerId = "";
  try {
    ownerId = app.findRecordById("support_tickets", ticketId).getString("user_id");
  } catch {
    return; // the ticket is gone (deleted with its messages): nobody follows it any more
  }
  send(app, [TICKET_TOPIC + ticketId], { collection: "chat_messages", action, record: message }, ownerOrAdmin(app, ownerId));
}

/**
 * Announces a saved or deleted ticket to its own topic and its owner's.
 * @param {CoreApp} app
 * @param {"create" | "update" | "delete"} action
 * @param {core.Record} ticket
 */
function announceTicket(app, action, ticket) {
  const ownerId = ticket.getString("user_id");
  send(
    app,
    [TICKET_TOPIC + ticket.id, USER_TOPIC + ownerId],
    { collection: "support_tickets", action, record: ticket },
    ownerOrAdmin(app, ownerId),
  );
}

/**
 * The after-success hook of tickets and chat messages: every committed change goes to its
 * ticket's topic (and a ticket's to its owner's too).
 * @param {core.RecordEvent} e
 * @param {"create" | "update" | "delete"} action
 */
function announce(e, action) {
  e.next();
  const record = e.record;
  if (!record) return;
  if (record.collection().name === "chat_messages") announceMessage(e.app, action, record);
  else announceTicket(e.app, action, record);
}

module.exports = { announce };
