// The console's Support Tickets inbox (pb_hooks/support.pb.js): every ticket with its
// customer and last activity, and one ticket. Replies and status changes go through the
// ticket records (audited by audit.pb.js).
import * as v from "valibot";
import { routeList, routesOf } from "../define";
import { TICKET_PRIORITIES } from "../support";
import { Count, DbDate, looseSearch, pageEntries, pagingQuery, person } from "./common";
import { TICKET_STATUSES } from "./users";

export const AdminTicket = v.object({
  id: v.string(),
  subject: v.string(),
  status: v.picklist(TICKET_STATUSES),
  priority: v.picklist(TICKET_PRIORITIES),
  created: DbDate,
  updated: DbDate,
  last_message_at: v.pipe(DbDate, v.description("The newest message's time.")),
  awaiting_reply: v.pipe(v.boolean(), v.description("The customer's last message has no staff answer yet.")),
  user_id: v.string(),
  ...person("user"),
});

const inbox = routesOf({ base: "/api/admin", tag: "Support", scope: "admin", params: { id: "The ticket's id." } });

export const listTicketInbox = inbox.get("/support/tickets", {
  summary: "Every ticket, newest activity or most pressing first, with the counts per status",
  query: v.object({
    q: looseSearch("In the subject or the customer's e-mail and names (the first 200 characters)."),
    status: v.optional(v.picklist(["", ...TICKET_STATUSES], "Status must be open, pending or closed.")),
    priority: v.optional(v.picklist(["", ...TICKET_PRIORITIES], "Priority must be low, medium, high or urgent.")),
    sort: v.optional(
      v.pipe(
        v.picklist(["activity", "priority"], "Sort must be activity or priority."),
        v.description("activity (default): newest activity first; priority: urgent first, then newest activity."),
      ),
    ),
    ...pagingQuery,
  }),
  response: v.object({
    ...pageEntries(AdminTicket),
    counts: v.object({ all: Count, open: Count, pending: Count, closed: Count, awaiting_reply: Count }),
  }),
});

export const getInboxTicket = inbox.get("/support/tickets/{id}", {
  summary: "One ticket as the inbox lists it",
  response: AdminTicket,
});

export const supportRoutes = routeList({ listTicketInbox, getInboxTicket });
