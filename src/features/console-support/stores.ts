// The console's Support Tickets state: the inbox (server-side search, status filter and
// "load more" paging, kept live by the support_tickets subscription: a new ticket or a new
// message moves its ticket up) and the selected ticket's conversation (live through the
// ticket's support topic, support/conversation-store.ts). Subscriptions start with the
// first subscriber and stop on unmount (nanostores onMount).
import { atom, onMount } from "nanostores";
import {
  getInboxTicket,
  listInbox,
  subscribeAllTickets,
  updateTicketStatus,
  type AdminTicket,
  type TicketCounts,
  type TicketFilters,
  type TicketRecord,
  type TicketSort,
} from "@/features/console-support/api";
import { conversationStore, type ConversationState } from "@/components/support/conversation-store";
import { errorMessage, isAbort } from "@/lib/api-error";
import type { TicketStatus } from "@/lib/pocketbase-types";
import { followLive, type Live } from "@/lib/realtime";

export { $selectedTicketId, selectTicket } from "@/components/support/conversation-store";

/** Newest activity first, ties by id (the route's order). */
export function byActivity(a: AdminTicket, b: AdminTicket): number {
  if (a.last_message_at !== b.last_message_at) return a.last_message_at < b.last_message_at ? 1 : -1;
  return a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
}

/** Most pressing first (the route's sort=priority): urgent, high, medium, low. */
const PRIORITY_RANK = { urgent: 0, high: 1, medium: 2, low: 3 } as const;

/** Most pressing priority first, then newest activity (the route's sort=priority). */
export function byPriority(a: AdminTicket, b: AdminTicket): number {
  return PRIORITY_RANK[a.priority] - PRIORITY_RANK[b.priority] || byActivity(a, b);
}

/** `list` with `ticket` put in (or replaced), in the inbox's order (newest activity first by default). */
export function upsertTicket(list: readonly AdminTicket[], ticket: AdminTicket, sort: TicketSort = "activity"): AdminTicket[] {
  return [...list.filter((t) => t.id !== ticket.id), ticket].sort(sort === "priority" ? byPriority : byActivity);
}

/** A ticket of the list with the fields a support_tickets record carries. */
export function mergeRecord(ticket: AdminTicket, record: TicketRecord): AdminTicket {
  return {
    ...ticket,
    subject: record.subject,
    status: record.status,
    priority: record.priority,
    updated: record.updated,
    last_message_at: record.last_message_at ?? ticket.last_message_at,
    awaiting_reply: record.awaiting_reply ?? ticket.awaiting_reply,
  };
}

// ---- The inbox ------------------------------------------------------------------------

export interface InboxState {
  status: "loading" | "ready" | "error";
  items: AdminTicket[];
  error: string;
  page: number;
  totalItems: number;
  hasMore: boolean;
  loadingMore: boolean;
  counts: TicketCounts | null;
}

const EMPTY_INBOX: InboxState = {
  status: "loading",
  items: [],
  error: "",
  page: 0,
  totalItems: 0,
  hasMore: false,
  loadingMore: false,
  counts: null,
};

export const $inbox = atom<InboxState>(EMPTY_INBOX);
export const $inboxFilters = atom<TicketFilters>({ q: "", status: "", priority: "", sort: "activity" });

let inboxRequest: AbortController | null = null;

/** Loads page `page` of the current filters; page 1 replaces the list, others add to it. */
async function loadInbox(page: number, merge = false): Promise<void> {
  inboxRequest?.abort();
  const request = new AbortController();
  inboxRequest = request;
  const filters = $inboxFilters.get();
  if (page > 1) $inbox.set({ ...$inbox.get(), loadingMore: true });
  try {
    const result = await listInbox(filters, page, request.signal);
    if (request.signal.aborted) return;
    const current = $inbox.get();
    const items =
      page === 1 && !merge ? result.items : result.items.reduce((list, ticket) => upsertTicket(list, ticket, filters.sort), current.items);
    $inbox.set({
      status: "ready",
      items,
      error: "",
      page: merge ? Math.max(current.page, 1) : page,
      totalItems: result.totalItems,
      hasMore: items.length < result.totalItems,
      loadingMore: false,
      counts: result.counts,
    });
  } catch (err) {
    if (isAbort(err) || request.signal.aborted) return;
    const current = $inbox.get();
    $inbox.set({ ...current, status: current.status === "ready" ? "ready" : "error", error: errorMessage(err), loadingMore: false });
  }
}

export function refreshInbox(): Promise<void> {
  return loadInbox(1);
}

export function loadMoreInbox(): Promise<void> {
  return loadInbox($inbox.get().page + 1);
}

export function setInboxFilters(filters: TicketFilters): void {
  const current = $inboxFilters.get();
  if (
    current.q === filters.q &&
    current.status === filters.status &&
    current.priority === filters.priority &&
    current.sort === filters.sort
  ) {
    return;
  }
  $inboxFilters.set(filters);
}

/** Whether a ticket belongs in the list under the current status and priority filters. */
function matchesStatus(ticket: { status: TicketStatus; priority: AdminTicket["priority"] }): boolean {
  const { status, priority } = $inboxFilters.get();
  return (!status || ticket.status === status) && (!priority || ticket.priority === priority);
}

/** `list` with `ticket` put in, in the order the filters ask for. */
const upsert = (list: readonly AdminTicket[], ticket: AdminTicket) => upsertTicket(list, ticket, $inboxFilters.get().sort);

onMount($inbox, () => {
  let timer: number | undefined;
  // New tickets (or ones not loaded yet) arrive without their customer: the first page is
  // fetched again, a moment later so a burst of events makes one request.
  const refetchSoon = () => {
    window.clearTimeout(timer);
    timer = window.setTimeout(() => void loadInbox(1, true), 300);
  };
  const unbindFilters = $inboxFilters.listen(() => {
    $inbox.set({ ...EMPTY_INBOX, counts: $inbox.get().counts });
    void refreshInbox();
  });
  // The first read replaces the list; a read after a reconnect merges into the pages loaded.
  let reconnected = false;
  const live: Live = followLive({
    what: "ticket",
    subscribe: () =>
      subscribeAllTickets(({ action, record }) => {
        if (live.stopped) return;
        const state = $inbox.get();
        const known = state.items.find((t) => t.id === record.id);
        if (action === "delete") {
          $inbox.set({ ...state, items: state.items.filter((t) => t.id !== record.id) });
        } else if (known) {
          const merged = mergeRecord(known, record);
          $inbox.set({
            ...state,
            items: matchesStatus(merged) ? upsert(state.items, merged) : state.items.filter((t) => t.id !== record.id),
          });
          if (known.status !== merged.status || known.awaiting_reply !== merged.awaiting_reply || known.priority !== merged.priority) {
            refetchSoon();
          }
        } else if (matchesStatus(record)) {
          refetchSoon();
        }
      }),
    reload: () => {
      const merge = reconnected;
      reconnected = true;
      return loadInbox(1, merge);
    },
  });
  return () => {
    live.stop();
    unbindFilters();
    window.clearTimeout(timer);
    inboxRequest?.abort();
    $inbox.set(EMPTY_INBOX);
  };
});

// ---- The selected ticket ----------------------------------------------------------------

/** The selected ticket's conversation (the customer page's store, with the inbox's ticket shape). */
const conversation = conversationStore<AdminTicket>({
  known: (ticketId) => $inbox.value?.items.find((t) => t.id === ticketId) ?? null,
  fetchTicket: getInboxTicket,
  updated: (current, record) => (current ? mergeRecord(current, record) : current),
});

export type TicketViewState = ConversationState<AdminTicket>;
export const $ticketView = conversation.$state;

/** A staff reply on the open ticket (is_admin_message is set by the server). */
export const sendStaffReply = conversation.send;

/** Changes the open ticket's status; the list and the panel follow at once. */
export async function changeStatus(status: TicketStatus): Promise<void> {
  const { ticketId } = $ticketView.get();
  if (!ticketId) return;
  const record = await updateTicketStatus(ticketId, status);
  const view = $ticketView.get();
  if (view.ticketId === ticketId && view.ticket) $ticketView.set({ ...view, ticket: mergeRecord(view.ticket, record) });
  const inbox = $inbox.get();
  const known = inbox.items.find((t) => t.id === ticketId);
  if (known) {
    const merged = mergeRecord(known, record);
    $inbox.set({
      ...inbox,
      items: matchesStatus(merged) ? upsert(inbox.items, merged) : inbox.items.filter((t) => t.id !== ticketId),
    });
  }
}
