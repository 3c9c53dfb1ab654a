// The support page's state (spec 2.18, 4): the user's tickets and the open conversation
// (components/support/conversation-store.ts, shared with the console), each kept live by
// realtime subscriptions that start with the store's first subscriber, follow the signed-in
// user and the selected ticket, and are dropped on every switch, sign-out and unmount.
import { atom, onMount } from "nanostores";
import { conversationStore, selectTicket } from "@/components/support/conversation-store";
import { createTicket, getTicket, listTickets, subscribeUserTickets } from "@/features/support/api";
import { byNewest, upsert, upsertAll } from "@/components/support/format";
import type { NewTicketOutput } from "@/features/support/schemas";
import { isAbort, readFailed } from "@/lib/api-error";
import type { SupportTicketRecord } from "@/lib/pocketbase-types";
import { followLive, type Live } from "@/lib/realtime";
import { followUser } from "@/stores/follow-user";

// ---- Tickets ------------------------------------------------------------------------

export interface TicketsState {
  status: "loading" | "ready" | "error";
  items: SupportTicketRecord[];
  error: string;
  /** Pages loaded so far. */
  page: number;
  hasMore: boolean;
  loadingMore: boolean;
}

const NO_TICKETS: TicketsState = { status: "loading", items: [], error: "", page: 0, hasMore: false, loadingMore: false };

export const $tickets = atom<TicketsState>(NO_TICKETS);

let ticketsUserId: string | null = null;
let ticketsRequest: AbortController | null = null;

async function loadTickets(page: number): Promise<void> {
  const userId = ticketsUserId;
  if (!userId) return;
  ticketsRequest?.abort();
  const request = new AbortController();
  ticketsRequest = request;
  if (page > 1) $tickets.set({ ...$tickets.get(), loadingMore: true });
  try {
    const result = await listTickets(userId, page, request.signal);
    if (request.signal.aborted || userId !== ticketsUserId) return;
    const current = $tickets.get();
    $tickets.set({
      status: "ready",
      items: page === 1 ? result.items : upsertAll(current.items, result.items, byNewest),
      error: "",
      page,
      hasMore: result.page < result.totalPages,
      loadingMore: false,
    });
  } catch (err) {
    if (isAbort(err) || request.signal.aborted || userId !== ticketsUserId) return;
    $tickets.set({ ...readFailed($tickets.get(), err), loadingMore: false });
  }
}

/** Reloads the first page of tickets (after a new ticket, a reconnect, or Retry). */
export function refreshTickets(): Promise<void> {
  return loadTickets(1);
}

export function loadMoreTickets(): Promise<void> {
  return loadTickets($tickets.get().page + 1);
}

function followTickets(userId: string): () => void {
  ticketsUserId = userId;
  $tickets.set(NO_TICKETS);
  const live: Live = followLive({
    what: "ticket",
    reload: refreshTickets,
    subscribe: () =>
      subscribeUserTickets(userId, (event) => {
        if (live.stopped || event.collection !== "support_tickets") return;
        const { action, record } = event;
        const state = $tickets.get();
        if (action === "delete") {
          $tickets.set({ ...state, items: state.items.filter((t) => t.id !== record.id) });
        } else if (action === "create" || state.items.some((t) => t.id === record.id)) {
          $tickets.set({ ...state, items: upsert(state.items, record, byNewest) });
        }
      }),
  });
  return () => {
    live.stop();
    ticketsRequest?.abort();
    ticketsUserId = null;
    $tickets.set(NO_TICKETS);
  };
}

onMount($tickets, () => followUser(followTickets));

/** POST the new ticket with its first message, refresh the list, select it (spec 4). */
export async function openTicket(input: NewTicketOutput): Promise<SupportTicketRecord> {
  const { ticket } = await createTicket(input);
  const state = $tickets.get();
  $tickets.set({ ...state, items: upsert(state.items, ticket, byNewest) });
  void refreshTickets();
  selectTicket(ticket.id);
  return ticket;
}

// ---- The selected ticket and its conversation ------------------------------------------

/** The open ticket's conversation (lib: conversation-store.ts). */
const conversation = conversationStore<SupportTicketRecord>({
  // `.value`, not get(): reading must not start the tickets list's own subscriptions.
  known: (ticketId) => $tickets.value?.items.find((t) => t.id === ticketId) ?? null,
  fetchTicket: getTicket,
  updated: (_current, record) => record,
});

export const $conversation = conversation.$state;
export type { ConversationState } from "@/components/support/conversation-store";

/** Sends a reply on the open ticket; the answer (or its realtime event, whichever is first) shows it. */
export const sendReply = conversation.send;
