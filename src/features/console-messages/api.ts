// Contact inbox calls: the records API (admins only read and write contact_messages; every
// write is audited and demo-mode-checked by audit.pb.js). read_at: any date marks a message
// read (the server stamps its own time), "" unread (pocketbase/pb_hooks/contact.pb.js).
import type { RecordSubscription, UnsubscribeFunc } from "pocketbase";
import { pb } from "@/lib/pocketbase";
import type { ContactMessageRecord } from "@/lib/pocketbase-types";

export const MESSAGES_PER_PAGE = 20;

export type MessageFilter = "all" | "unread";

const UNREAD = 'read_at = ""';

export function listContactMessages(filter: MessageFilter, page: number, signal?: AbortSignal) {
  return pb()
    .collection("contact_messages")
    .getList<ContactMessageRecord>(page, MESSAGES_PER_PAGE, {
      sort: "-created,-id",
      requestKey: null,
      ...(filter === "unread" ? { filter: UNREAD } : {}),
      ...(signal ? { signal } : {}),
    });
}

/** How many messages are unread (a count query on the (read_at, created) index). */
export async function countUnread(signal?: AbortSignal): Promise<number> {
  const page = await pb()
    .collection("contact_messages")
    .getList(1, 1, { filter: UNREAD, fields: "id", requestKey: null, ...(signal ? { signal } : {}) });
  return page.totalItems;
}

export function setRead(id: string, read: boolean): Promise<ContactMessageRecord> {
  return pb()
    .collection("contact_messages")
    .update<ContactMessageRecord>(id, { read_at: read ? new Date().toISOString() : "" }, { requestKey: null });
}

export function subscribeContactMessages(onEvent: (e: RecordSubscription<ContactMessageRecord>) => void): Promise<UnsubscribeFunc> {
  return pb().collection("contact_messages").subscribe<ContactMessageRecord>("*", onEvent);
}
