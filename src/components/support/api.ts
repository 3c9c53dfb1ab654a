// Support calls the customer's page and the console share: a ticket's messages, sending a
// reply, its live topic, the staff name and protected attachments.
import type { UnsubscribeFunc } from "pocketbase";
import { pb, withSignal } from "@/lib/pocketbase";
import type { ChatMessageRecord, SupportTicketRecord } from "@/lib/pocketbase-types";

/** The default_support_name setting ("" when unset). */
export async function loadSupportNameSetting(signal?: AbortSignal): Promise<string> {
  const rows = await pb()
    .collection("settings")
    .getList(1, 1, { ...withSignal(signal), filter: pb().filter("key = {:key}", { key: "default_support_name" }), skipTotal: true });
  return rows.items[0]?.value ?? "";
}

/** Every message of a ticket, oldest first. */
export async function listMessages(ticketId: string, signal?: AbortSignal): Promise<ChatMessageRecord[]> {
  return pb()
    .collection("chat_messages")
    .getFullList({ ...withSignal(signal), batch: 200, filter: pb().filter("ticket_id = {:ticketId}", { ticketId }), sort: "created,id" });
}

/** A reply on a ticket; with files it goes as multipart FormData. */
export async function sendMessage(ticketId: string, senderId: string, message: string, files: readonly File[]): Promise<ChatMessageRecord> {
  const messages = pb().collection("chat_messages");
  if (files.length === 0) return messages.create({ ticket_id: ticketId, sender_id: senderId, message }, { requestKey: null });
  const form = new FormData();
  form.append("ticket_id", ticketId);
  form.append("sender_id", senderId);
  form.append("message", message);
  for (const file of files) form.append("attachments", file);
  return messages.create(form, { requestKey: null });
}

/**
 * A change on a support topic (pb_hooks/lib/support/support-live.js): the same shape as a record
 * subscription's event, naming the collection it comes from.
 */
export type SupportEvent =
  | { collection: "chat_messages"; action: string; record: ChatMessageRecord }
  | { collection: "support_tickets"; action: string; record: SupportTicketRecord };

/**
 * Live messages and changes of one ticket, for its owner and staff. A custom topic rather
 * than `chat_messages/*` with a filter, which costs PocketBase a query per connected client.
 */
export async function subscribeConversation(ticketId: string, onEvent: (e: SupportEvent) => void): Promise<UnsubscribeFunc> {
  return pb().realtime.subscribe(`support/tickets/${ticketId}`, onEvent);
}

/** A short-lived (3 minutes) token that opens protected files the user may view. */
export async function fileToken(): Promise<string> {
  return pb().files.getToken({ requestKey: null });
}

export function attachmentUrl(message: ChatMessageRecord, fileName: string, token: string, thumb?: string): string {
  return pb().files.getURL(message, fileName, { token, ...(thumb ? { thumb } : {}) });
}
