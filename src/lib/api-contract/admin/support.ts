// The console's Support Tickets inbox (pb_hooks/support.pb.js): every ticket with its
// customer and last activity, and one ticket. Replies and status changes go through the
// ticket records (audited by audit.pb.js).
import * as v from "valibot";
import { route } from "../define";
import { TICKET_PRIORITIES } from "../support";
import { Count, DbDate, looseSearch, pageEntries, pagingQuery, person } from "./common";
import { TICKET_STATUSES } from "./users";

const TAG = "Support";
const ADMIN = "/api/admin" as const;

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

export const listTicketInbox = route({
  id: "listTicketInbox",
  method: "GET",
  path: "/support/tickets",
  base: ADMIN,
  tag: TAG,
  summary: "Every ticket, newest activity or most pressing first, with the counts per status",
  scope: "admin",
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
  errors: [400],
});

export const getInboxTicket = route({
  id: "getInboxTicket",
  method: "GET",
  path: "/support/tickets/{id}",
  base: ADMIN,
  tag: TAG,
  summary: "One ticket as the inbox lists it",
  scope: "admin",
  params: { id: "The ticket's id." },
  response: AdminTicket,
  errors: [404],
});

export const supportRoutes = [listTicketInbox, getInboxTicket];
