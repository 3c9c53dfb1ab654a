// The open ticket's conversation, for the customer's support page and the console's
// Support Tickets alike: the selected ticket and its messages (oldest first), kept live by
// realtime subscriptions that start with the store's first subscriber, follow the
// signed-in user and the selected ticket ($selectedTicketId), and are dropped on every
// switch, sign-out and unmount (nanostores onMount).
import { atom, onMount, type WritableAtom } from "nanostores";
import { listMessages, sendMessage, subscribeConversation } from "@/components/support/api";
import { byCreated, upsert, upsertAll } from "@/components/support/format";
import { isAbort, readFailed } from "@/lib/api-error";
import type { ChatMessageRecord, SupportTicketRecord } from "@/lib/pocketbase-types";
import { followLive, type Live } from "@/lib/realtime";
import { $auth } from "@/stores/auth";

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

export interface ConversationState<Ticket> {
  ticketId: string | null;
  ticket: Ticket | null;
  status: "idle" | "loading" | "ready" | "error";
  /** Oldest first. */
  messages: ChatMessageRecord[];
  error: string;
}

export interface ConversationSource<Ticket> {
  /** The ticket as a list already holds it, shown while the conversation loads. */
  known(ticketId: string): Ticket | null;
  fetchTicket(ticketId: string, signal: AbortSignal): Promise<Ticket>;
  /** The ticket after a realtime update of its support_tickets record. */
  updated(current: Ticket | null, record: SupportTicketRecord): Ticket | null;
}

export interface ConversationStore<Ticket> {
  $state: WritableAtom<ConversationState<Ticket>>;
  /** Sends a message on the open ticket; the answer (or its realtime event, whichever is first) shows it. */
  send: (text: string, files: readonly File[]) => Promise<ChatMessageRecord>;
}

export function conversationStore<Ticket>(source: ConversationSource<Ticket>): ConversationStore<Ticket> {
  const idle: ConversationState<Ticket> = { ticketId: null, ticket: null, status: "idle", messages: [], error: "" };
  const $state = atom<ConversationState<Ticket>>(idle);

  function follow(ticketId: string): () => void {
    const request = new AbortController();
    $state.set({ ticketId, ticket: source.known(ticketId), status: "loading", messages: [], error: "" });
    const patch = (change: (state: ConversationState<Ticket>) => ConversationState<Ticket>) => {
      if (!live.stopped && $state.get().ticketId === ticketId) $state.set(change($state.get()));
    };

    const load = async () => {
      try {
        const [ticket, messages] = await Promise.all([
          source.fetchTicket(ticketId, request.signal),
          listMessages(ticketId, request.signal),
        ]);
        // Live events that came in meanwhile are kept; the same message is never shown twice.
        patch((s) => ({ ...s, ticket, status: "ready", messages: upsertAll(s.messages, messages, byCreated), error: "" }));
      } catch (err) {
        if (isAbort(err) || request.signal.aborted) return;
        patch((s) => readFailed(s, err));
      }
    };

    const live: Live = followLive({
      what: "conversation",
      reload: load,
      subscribe: () =>
        subscribeConversation(ticketId, (event) => {
          if (event.collection === "support_tickets") {
            if (event.action === "update" && event.record.id === ticketId) {
              patch((s) => ({ ...s, ticket: source.updated(s.ticket, event.record) }));
            }
            return;
          }
          const { action, record } = event;
          if (record.ticket_id !== ticketId) return;
          patch((s) => ({
            ...s,
            messages: action === "delete" ? s.messages.filter((m) => m.id !== record.id) : upsert(s.messages, record, byCreated),
          }));
        }),
    });

    return () => {
      live.stop();
      request.abort();
    };
  }

  onMount($state, () => {
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
      $state.set(idle);
      if (userId && ticketId) stop = follow(ticketId);
    };
    const unbindAuth = $auth.subscribe(update);
    const unbindTicket = $selectedTicketId.subscribe(update);
    return () => {
      unbindAuth();
      unbindTicket();
      stop?.();
      stop = null;
      key = null;
      $state.set(idle);
    };
  });

  async function send(text: string, files: readonly File[]): Promise<ChatMessageRecord> {
    const { ticketId } = $state.get();
    const userId = $auth.get().user?.id;
    if (!ticketId || !userId) throw new Error("No ticket is open");
    const message = await sendMessage(ticketId, userId, text, files);
    const state = $state.get();
    if (state.ticketId === ticketId) $state.set({ ...state, messages: upsert(state.messages, message, byCreated) });
    return message;
  }

  return { $state, send };
}
