// The console's Support Tickets calls: the inbox route (GET /api/admin/support/tickets,
// pocketbase/pb_hooks/console-support.pb.js) and records-API writes that PocketBase audits
// (audit.pb.js). Messages, replies, live events and file tokens reuse the customer's
// support calls (@/components/support/api): the API rules let admins see every ticket.
import type { RecordSubscription, UnsubscribeFunc } from "pocketbase";
import { pb } from "@/lib/pocketbase";
import type { SupportTicketRecord, TicketPriority, TicketStatus } from "@/lib/pocketbase-types";

export const TICKETS_PER_PAGE = 20;

/** A ticket as the inbox lists it: with its customer and last activity. */
export interface AdminTicket {
  id: string;
  subject: string;
  status: TicketStatus;
  priority: TicketPriority;
  created: string;
  updated: string;
  /** The newest message's time (server-kept). */
  last_message_at: string;
  /** The customer's last message has no staff answer yet (server-kept). */
  awaiting_reply: boolean;
  user_id: string;
  user_email: string;
  user_first_name: string;
  user_last_name: string;
}

export interface TicketCounts {
  all: number;
  open: number;
  pending: number;
  closed: number;
  awaiting_reply: number;
}

export interface TicketPage {
  items: AdminTicket[];
  page: number;
  perPage: number;
  totalItems: number;
  totalPages: number;
  counts: TicketCounts;
}

export interface TicketFilters {
  q: string;
  status: "" | TicketStatus;
}

/** The ticket record with the inbox's server-kept fields (support_tickets records). */
export type TicketRecord = SupportTicketRecord & Partial<Pick<AdminTicket, "last_message_at" | "awaiting_reply">>;

export function listInbox(filters: TicketFilters, page: number, signal?: AbortSignal): Promise<TicketPage> {
  return pb().send<TicketPage>("/api/admin/support/tickets", {
    method: "GET",
    query: { q: filters.q, status: filters.status, page, perPage: TICKETS_PER_PAGE },
    requestKey: null,
    ...(signal ? { signal } : {}),
  });
}

export function getInboxTicket(id: string, signal?: AbortSignal): Promise<AdminTicket> {
  return pb().send<AdminTicket>(`/api/admin/support/tickets/${encodeURIComponent(id)}`, {
    method: "GET",
    requestKey: null,
    ...(signal ? { signal } : {}),
  });
}

/** PATCH the status (audited as support_tickets.update; refused in demo mode). */
export function updateTicketStatus(id: string, status: TicketStatus): Promise<TicketRecord> {
  return pb().collection("support_tickets").update<TicketRecord>(id, { status }, { requestKey: null });
}

/** Every ticket's changes (admins pass the list rule for all): new tickets, status, activity. */
export function subscribeAllTickets(onEvent: (e: RecordSubscription<TicketRecord>) => void): Promise<UnsubscribeFunc> {
  return pb().collection("support_tickets").subscribe<TicketRecord>("*", onEvent);
}
