// The console's Support Tickets calls: the contract's inbox routes (@/lib/api-contract/admin/support,
// through the typed caller) and records-API writes that PocketBase audits
// (audit.pb.js). Messages, replies, live events and file tokens reuse the customer's
// support calls (@/components/support/api): the API rules let admins see every ticket.
import type { RecordSubscription, UnsubscribeFunc } from "pocketbase";
import { api } from "@/lib/api-client";
import { getInboxTicket as getInboxTicketRoute, listTicketInbox } from "@/lib/api-contract/admin/support";
import type { ResponseOf } from "@/lib/api-contract/define";
import { pb } from "@/lib/pocketbase";
import type { SupportTicketRecord, TicketPriority, TicketStatus } from "@/lib/pocketbase-types";

export const TICKETS_PER_PAGE = 20;

export type TicketPage = ResponseOf<typeof listTicketInbox>;
/** A ticket as the inbox lists it: with its customer and last activity. */
export type AdminTicket = TicketPage["items"][number];
export type TicketCounts = TicketPage["counts"];

export type TicketSort = "activity" | "priority";

export interface TicketFilters {
  q: string;
  status: "" | TicketStatus;
  priority: "" | TicketPriority;
  sort: TicketSort;
}

/** The ticket record with the inbox's server-kept fields (support_tickets records). */
export type TicketRecord = SupportTicketRecord & Partial<Pick<AdminTicket, "last_message_at" | "awaiting_reply">>;

export function listInbox(filters: TicketFilters, page: number, signal?: AbortSignal): Promise<TicketPage> {
  return api.call(listTicketInbox, {
    query: { q: filters.q, status: filters.status, priority: filters.priority, sort: filters.sort, page, perPage: TICKETS_PER_PAGE },
    ...(signal ? { signal } : {}),
  });
}

export function getInboxTicket(id: string, signal?: AbortSignal): Promise<AdminTicket> {
  return api.call(getInboxTicketRoute, { params: { id }, ...(signal ? { signal } : {}) });
}

/** PATCH the status (audited as support_tickets.update; refused in demo mode). */
export function updateTicketStatus(id: string, status: TicketStatus): Promise<TicketRecord> {
  return pb().collection("support_tickets").update<TicketRecord>(id, { status }, { requestKey: null });
}

/** Every ticket's changes (admins pass the list rule for all): new tickets, status, activity. */
export function subscribeAllTickets(onEvent: (e: RecordSubscription<TicketRecord>) => void): Promise<UnsubscribeFunc> {
  return pb().collection("support_tickets").subscribe<TicketRecord>("*", onEvent);
}
