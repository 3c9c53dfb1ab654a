// @ts-check
/// <reference path="../types/pocketbase.d.ts" />
// The console's Support Tickets inbox (get_admin_support_tickets in the spec). Shop admins
// only (anonymous 401, customers 403). Everything else the console does on tickets and
// contact messages goes through the records API, audited by audit.pb.js:
//   - status change: PATCH /api/collections/support_tickets/records/{id} {status}
//   - staff reply:   POST  /api/collections/chat_messages/records {ticket_id, sender_id, message, attachments?}
//                    (is_admin_message forced by support.pb.js; refused in demo mode)
//   - contact read/unread: PATCH /api/collections/contact_messages/records/{id} {read_at: "now" | ""}
//
// GET /api/admin/support/tickets?q=&status=&page=&perPage=
//   q: searched in the subject, the customer's e-mail, first, last and full name, and the
//      ticket number (id prefix); status: "", open, pending or closed; perPage 1-100 (20).
//   -> {items: [{id, subject, status, priority, created, updated, last_message_at,
//      awaiting_reply, user_id, user_email, user_first_name, user_last_name}], page, perPage,
//      totalItems, totalPages, counts: {all, open, pending, closed, awaiting_reply}}
//   Newest activity (last_message_at) first. 400 {data.status} for an unknown status.
//
// GET /api/admin/support/tickets/{id} -> one item as above; 404 "Ticket not found."

routerAdd(
  "GET",
  "/api/admin/support/tickets",
  (e) => {
    /** @type {typeof import("./lib/audit/admin.js")} */
    const admin = require(`${__hooks}/lib/audit/admin.js`);
    /** @type {typeof import("./lib/support/console-support.js")} */
    const support = require(`${__hooks}/lib/support/console-support.js`);
    admin.requireAdmin(e);
    return e.json(200, support.listTickets(e.app, support.listFilters(e), admin.paging(e, 100)));
  },
  $apis.requireAuth("users"),
);

routerAdd(
  "GET",
  "/api/admin/support/tickets/{id}",
  (e) => {
    /** @type {typeof import("./lib/audit/admin.js")} */
    const admin = require(`${__hooks}/lib/audit/admin.js`);
    /** @type {typeof import("./lib/support/console-support.js")} */
    const support = require(`${__hooks}/lib/support/console-support.js`);
    admin.requireAdmin(e);
    return e.json(200, support.getTicket(e.app, e.request?.pathValue("id") ?? ""));
  },
  $apis.requireAuth("users"),
);
