// @ts-check
/// <reference path="../types/pocketbase.d.ts" />
// The shop's notices that follow a committed record change (lib/support/mails.js):
// staff hear of a new ticket and a new contact-form message, a customer of their ticket's
// closing. After-success hooks run once the write's transaction committed (an admin's write
// is wrapped in one with its audit row, audit.pb.js), so no mail waits inside one. The
// receipts and the refund notice are sent by their routes (purchase, checkout, Stripe
// webhook, refund) after their own transactions.

onRecordAfterCreateSuccess((e) => require(`${__hooks}/lib/support/tickets.js`).mailNewTicket(e), "support_tickets");
onRecordAfterUpdateSuccess((e) => require(`${__hooks}/lib/support/tickets.js`).mailClosedTicket(e), "support_tickets");
onRecordAfterCreateSuccess((e) => require(`${__hooks}/lib/support/contact.js`).mailNewMessage(e), "contact_messages");
