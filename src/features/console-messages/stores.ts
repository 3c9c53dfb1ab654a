// The contact inbox's state: one page of messages (All or Unread, newest first), the unread
// count, the open message; new messages arrive live (contact_messages subscription).
import { atom, onMount } from "nanostores";
import { followLive, type Live } from "@/lib/realtime";
import {
  countUnread,
  listContactMessages,
  MESSAGES_PER_PAGE,
  setRead,
  subscribeContactMessages,
  type MessageFilter,
} from "@/features/console-messages/api";
import { errorMessage, isAbort } from "@/lib/api-error";
import type { ContactMessageRecord } from "@/lib/pocketbase-types";

export interface InboxState {
  status: "loading" | "ready" | "error";
  filter: MessageFilter;
  page: number;
  items: ContactMessageRecord[];
  totalItems: number;
  totalPages: number;
  unread: number | null;
  error: string;
}

const INITIAL: InboxState = { status: "loading", filter: "all", page: 1, items: [], totalItems: 0, totalPages: 0, unread: null, error: "" };

export const $messages = atom<InboxState>(INITIAL);
export const $openMessageId = atom<string | null>(null);

let request: AbortController | null = null;

async function load(filter: MessageFilter, page: number): Promise<void> {
  request?.abort();
  const current = new AbortController();
  request = current;
  const before = $messages.get();
  const switching = before.filter !== filter || before.page !== page;
  $messages.set({ ...before, filter, page, status: switching || before.status === "error" ? "loading" : before.status, error: "" });
  try {
    const [list, unread] = await Promise.all([listContactMessages(filter, page, current.signal), countUnread(current.signal)]);
    if (current.signal.aborted) return;
    $messages.set({
      status: "ready",
      filter,
      page,
      items: list.items,
      totalItems: list.totalItems,
      totalPages: list.totalPages,
      unread,
      error: "",
    });
  } catch (err) {
    if (isAbort(err) || current.signal.aborted) return;
    $messages.set({ ...$messages.get(), status: "error", error: errorMessage(err) });
  }
}

export function showMessages(filter: MessageFilter, page = 1): Promise<void> {
  return load(filter, page);
}

export function reloadMessages(): Promise<void> {
  const { filter, page } = $messages.get();
  return load(filter, page);
}

function patch(record: ContactMessageRecord): void {
  const state = $messages.get();
  const known = state.items.find((m) => m.id === record.id);
  if (!known) return;
  const becameRead = !known.read_at && !!record.read_at;
  const becameUnread = !!known.read_at && !record.read_at;
  const unread = state.unread === null ? null : state.unread - (becameRead ? 1 : 0) + (becameUnread ? 1 : 0);
  $messages.set({ ...state, items: state.items.map((m) => (m.id === record.id ? record : m)), unread });
}

onMount($messages, () => {
  const live: Live = followLive({
    what: "contact message",
    subscribe: () =>
      subscribeContactMessages(({ action, record }) => {
        if (live.stopped) return;
        const state = $messages.get();
        if (action === "create") {
          // A new message: first on the first page (either filter; it is unread).
          if (state.page === 1) {
            $messages.set({
              ...state,
              items: [record, ...state.items.filter((m) => m.id !== record.id)].slice(0, MESSAGES_PER_PAGE),
              totalItems: state.totalItems + 1,
              totalPages: Math.ceil((state.totalItems + 1) / MESSAGES_PER_PAGE),
              unread: state.unread === null ? null : state.unread + 1,
            });
          } else {
            $messages.set({ ...state, unread: state.unread === null ? null : state.unread + 1 });
          }
        } else if (action === "update") {
          patch(record);
        } else if (action === "delete") {
          void reloadMessages();
        }
      }),
    reload: reloadMessages,
  });
  return () => {
    live.stop();
    request?.abort();
    $messages.set(INITIAL);
  };
});

/** Marks a message read or unread; the list and the count follow at once. */
export async function markRead(message: ContactMessageRecord, read: boolean): Promise<ContactMessageRecord> {
  const record = await setRead(message.id, read);
  patch(record);
  // In the Unread view a message marked read stays until the view is reloaded, so the
  // reader doesn't lose the one they're reading.
  return record;
}

/** Opens a message; an unread one becomes read. */
export async function openMessage(message: ContactMessageRecord): Promise<void> {
  $openMessageId.set(message.id);
  if (!message.read_at) await markRead(message, true);
}
