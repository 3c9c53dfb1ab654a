// The support page's state (spec 2.18, 4): the user's tickets, the open conversation and
// the staff name, each kept live by realtime subscriptions that start with the store's
// first subscriber, follow the signed-in user and the selected ticket, and are dropped on
// every switch, sign-out and unmount (nanostores onMount).
import { atom, onMount } from "nanostores";
import type { UnsubscribeFunc } from "pocketbase";
import {
  createTicket,
  fileToken,
  getTicket,
  listMessages,
  listTickets,
  loadSupportNameSetting,
  onRealtimeReconnect,
  sendMessage,
  subscribeMessages,
  subscribeTicket,
  subscribeTickets,
} from "@/features/support/api";
import { byCreated, byNewest, supportName, upsert, upsertAll } from "@/features/support/format";
import type { NewTicketOutput } from "@/features/support/schemas";
import { errorMessage, isAbort } from "@/lib/api-error";
import type { ChatMessageRecord, SupportTicketRecord } from "@/lib/pocketbase-types";
import { $auth } from "@/stores/auth";

/** Holds realtime unsubscribers; whatever arrives after stop() is dropped at once. */
export function subscriptions() {
  let stopped = false;
  const offs: UnsubscribeFunc[] = [];
  return {
    get stopped() {
      return stopped;
    },
    hold(off: UnsubscribeFunc) {
      if (stopped) void off().catch(() => {});
      else offs.push(off);
    },
    stop() {
      stopped = true;
      for (const off of offs.splice(0)) void off().catch(() => {});
    },
  };
}

/** Follows the signed-in user's id: `start(userId)` runs for each new user, its stop function on change. */
function followUser(start: (userId: string) => () => void): () => void {
  let stop: (() => void) | null = null;
  let current: string | null = null;
  const unbind = $auth.subscribe(({ user }) => {
    const id = user?.id ?? null;
    if (id === current) return;
    stop?.();
    stop = null;
    current = id;
    if (id) stop = start(id);
  });
  return () => {
    unbind();
    stop?.();
  };
}

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
    const current = $tickets.get();
    $tickets.set({ ...current, status: current.status === "ready" ? "ready" : "error", error: errorMessage(err), loadingMore: false });
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
  const subs = subscriptions();
  ticketsUserId = userId;
  $tickets.set(NO_TICKETS);
  void (async () => {
    try {
      subs.hold(
        await subscribeTickets(userId, ({ action, record }) => {
          if (subs.stopped) return;
          const state = $tickets.get();
          if (action === "delete") {
            $tickets.set({ ...state, items: state.items.filter((t) => t.id !== record.id) });
          } else if (action === "create" || state.items.some((t) => t.id === record.id)) {
            $tickets.set({ ...state, items: upsert(state.items, record, byNewest) });
          }
        }),
      );
      subs.hold(await onRealtimeReconnect(() => void refreshTickets()));
    } catch (err) {
      // Without realtime the list still loads; it just isn't live.
      console.error("Live ticket updates are unavailable", err);
    }
    if (!subs.stopped) await refreshTickets();
  })();
  return () => {
    subs.stop();
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

export const $selectedTicketId = atom<string | null>(null);

/** Selects a ticket and puts it in the address (`?ticket=<id>`, the link staff-reply mails use). */
export function selectTicket(id: string | null): void {
  $selectedTicketId.set(id);
  if (typeof window === "undefined") return;
  const url = new URL(window.location.href);
  if (id) url.searchParams.set("ticket", id);
  else url.searchParams.delete("ticket");
  window.history.replaceState(window.history.state, "", url);
}

export interface ConversationState {
  ticketId: string | null;
  ticket: SupportTicketRecord | null;
  status: "idle" | "loading" | "ready" | "error";
  /** Oldest first. */
  messages: ChatMessageRecord[];
  error: string;
}

const IDLE: ConversationState = { ticketId: null, ticket: null, status: "idle", messages: [], error: "" };

export const $conversation = atom<ConversationState>(IDLE);

function followConversation(ticketId: string): () => void {
  const subs = subscriptions();
  const request = new AbortController();
  // `.value`, not get(): reading must not start the tickets list's own subscriptions.
  const known = $tickets.value?.items.find((t) => t.id === ticketId) ?? null;
  $conversation.set({ ticketId, ticket: known, status: "loading", messages: [], error: "" });
  const patch = (change: (state: ConversationState) => ConversationState) => {
    if (!subs.stopped && $conversation.get().ticketId === ticketId) $conversation.set(change($conversation.get()));
  };

  const load = async () => {
    try {
      const [ticket, messages] = await Promise.all([getTicket(ticketId, request.signal), listMessages(ticketId, request.signal)]);
      // Live events that came in meanwhile are kept; the same message is never shown twice.
      patch((s) => ({ ...s, ticket, status: "ready", messages: upsertAll(s.messages, messages, byCreated), error: "" }));
    } catch (err) {
      if (isAbort(err) || request.signal.aborted) return;
      patch((s) => ({ ...s, status: s.status === "ready" ? "ready" : "error", error: errorMessage(err) }));
    }
  };

  void (async () => {
    try {
      // Subscribe first, then load: nothing written in between is missed.
      subs.hold(
        await subscribeMessages(ticketId, ({ action, record }) => {
          if (record.ticket_id !== ticketId) return;
          patch((s) => ({
            ...s,
            messages: action === "delete" ? s.messages.filter((m) => m.id !== record.id) : upsert(s.messages, record, byCreated),
          }));
        }),
      );
      subs.hold(
        await subscribeTicket(ticketId, ({ action, record }) => {
          if (action === "update") patch((s) => ({ ...s, ticket: record }));
        }),
      );
      subs.hold(await onRealtimeReconnect(() => void load()));
    } catch (err) {
      console.error("Live conversation updates are unavailable", err);
    }
    if (!subs.stopped) await load();
  })();

  return () => {
    subs.stop();
    request.abort();
  };
}

onMount($conversation, () => {
  let stop: (() => void) | null = null;
  let key: string | null = null;
  const update = () => {
    const userId = $auth.get().user?.id ?? null;
    const ticketId = $selectedTicketId.get();
    const next = userId && ticketId ? `${userId}:${ticketId}` : null;
    if (next === key) return;
    stop?.();
    stop = null;
    key = next;
    $conversation.set(IDLE);
    if (userId && ticketId) stop = followConversation(ticketId);
  };
  const unbindAuth = $auth.subscribe(update);
  const unbindTicket = $selectedTicketId.subscribe(update);
  return () => {
    unbindAuth();
    unbindTicket();
    stop?.();
    stop = null;
    key = null;
    $conversation.set(IDLE);
  };
});

/** Sends a reply on the open ticket; the answer (or its realtime event, whichever is first) shows it. */
export async function sendReply(text: string, files: readonly File[]): Promise<ChatMessageRecord> {
  const { ticketId } = $conversation.get();
  const userId = $auth.get().user?.id;
  if (!ticketId || !userId) throw new Error("No ticket is open");
  const message = await sendMessage(ticketId, userId, text, files);
  const state = $conversation.get();
  if (state.ticketId === ticketId) $conversation.set({ ...state, messages: upsert(state.messages, message, byCreated) });
  return message;
}

// ---- The staff name and the file token ----------------------------------------------

/** What staff replies are signed with (the default_support_name setting, or "Support"). */
export const $supportName = atom<string>("Support");

onMount($supportName, () => {
  const request = new AbortController();
  loadSupportNameSetting(request.signal)
    .then((value) => $supportName.set(supportName(value)))
    .catch((err: unknown) => {
      if (!isAbort(err)) console.error("Loading the support name failed", err);
    });
  return () => request.abort();
});

/** How often the file token (valid 3 minutes) is renewed while attachments are shown. */
export const FILE_TOKEN_RENEW_MS = 120_000;

/** A file token of the signed-in user for protected attachments ("" until loaded). */
export const $fileToken = atom<string>("");

onMount($fileToken, () =>
  followUser(() => {
    let stopped = false;
    const renew = () =>
      fileToken()
        .then((token) => {
          if (!stopped) $fileToken.set(token);
        })
        .catch((err: unknown) => console.error("Getting a file token failed", err));
    void renew();
    const timer = window.setInterval(() => void renew(), FILE_TOKEN_RENEW_MS);
    return () => {
      stopped = true;
      window.clearInterval(timer);
      $fileToken.set("");
    };
  }),
);
