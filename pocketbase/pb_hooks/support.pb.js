// @ts-check
/// <reference path="../types/pocketbase.d.ts" />
// Support: tickets and their chat, live updates for customers, the console's ticket inbox
// and the contact form. Behind the API rules, these hooks force what a client must not
// choose. Route docs are on the functions in lib/support/.

// The routes: lib/api/routes.js (support).
require(`${__hooks}/lib/core/routes.js`).register(require(`${__hooks}/lib/api/routes.js`).support, (/** @type {core.RequestEvent} */ e) =>
  require(`${__hooks}/lib/core/routes.js`).dispatch(e, require(`${__hooks}/lib/api/routes.js`).support),
);

onRecordCreateRequest((e) => require(`${__hooks}/lib/support/tickets.js`).newTicketRequest(e), "support_tickets");
onRecordUpdateRequest((e) => require(`${__hooks}/lib/support/tickets.js`).ticketUpdateRequest(e), "support_tickets");
onRecordCreate((e) => require(`${__hooks}/lib/support/tickets.js`).startActivity(e), "support_tickets");

onRecordCreate((e) => require(`${__hooks}/lib/support/messages.js`).touchTicket(e), "chat_messages");
onRecordCreateRequest((e) => require(`${__hooks}/lib/support/messages.js`).newMessageRequest(e), "chat_messages");
onRecordAfterCreateSuccess((e) => require(`${__hooks}/lib/support/messages.js`).mailStaffReply(e), "chat_messages");

// Live support for customers (lib/support/support-live.js): every committed change of a
// ticket or message goes to its ticket's topic and its owner's, checked per client in memory.
onRecordAfterCreateSuccess(
  (e) => require(`${__hooks}/lib/support/support-live.js`).announce(e, "create"),
  "chat_messages",
  "support_tickets",
);
onRecordAfterUpdateSuccess(
  (e) => require(`${__hooks}/lib/support/support-live.js`).announce(e, "update"),
  "chat_messages",
  "support_tickets",
);
onRecordAfterDeleteSuccess(
  (e) => require(`${__hooks}/lib/support/support-live.js`).announce(e, "delete"),
  "chat_messages",
  "support_tickets",
);

onRecordCreateRequest((e) => require(`${__hooks}/lib/support/contact.js`).newMessageRequest(e), "contact_messages");
onRecordUpdateRequest((e) => require(`${__hooks}/lib/support/contact.js`).updateRequest(e), "contact_messages");
