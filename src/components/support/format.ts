// Pure helpers of the support page: what a ticket and a message show.
import type { ChatMessageRecord, TicketPriority, TicketStatus } from "@/lib/pocketbase-types";

/** The ticket number shown (spec 9): the first 8 characters of its id. */
export function ticketNumber(id: string): string {
  return id.slice(0, 8);
}

/** The name staff replies are signed with: the default_support_name setting, or "Support". */
export function supportName(setting: string | null | undefined): string {
  return setting?.trim() || "Support";
}

/**
 * Who wrote a message, as the customer sees it: "You" for their own, the support name for
 * staff replies (only the owner and admins can write on a ticket).
 */
export function senderLabel(message: Pick<ChatMessageRecord, "sender_id">, userId: string, staff: string): string {
  return message.sender_id === userId ? "You" : staff;
}

// Kept apart from the schemas (valibot) so a page that only lists tickets does not load them.
export const TICKET_PRIORITIES = ["low", "medium", "high", "urgent"] as const satisfies readonly TicketPriority[];

export const PRIORITY_LABELS: Record<TicketPriority, string> = {
  low: "Low",
  medium: "Medium",
  high: "High",
  urgent: "Urgent",
};

export const STATUS_LABELS: Record<TicketStatus, string> = { open: "Open", pending: "Pending", closed: "Closed" };

export const STATUS_TONES = { open: "success", pending: "warning", closed: "neutral" } as const satisfies Record<TicketStatus, string>;

interface Dated {
  id: string;
  created: string;
}

/** Oldest first, ties by id (PocketBase dates have millisecond precision). */
export function byCreated(a: Dated, b: Dated): number {
  return a.created === b.created ? a.id.localeCompare(b.id) : a.created < b.created ? -1 : 1;
}

/** Newest first. */
export function byNewest(a: Dated, b: Dated): number {
  return -byCreated(a, b);
}

/**
 * `list` with `record` put in (replacing the row with its id, never a second copy), kept in
 * `order`. The answer of a send and the realtime event of the same message meet here.
 */
export function upsert<T extends Dated>(list: readonly T[], record: T, order: (a: T, b: T) => number): T[] {
  const rest = list.filter((item) => item.id !== record.id);
  return [...rest, record].sort(order);
}

/** `list` with every row of `records` put in (see upsert). */
export function upsertAll<T extends Dated>(list: readonly T[], records: readonly T[], order: (a: T, b: T) => number): T[] {
  const byId = new Map(list.map((item) => [item.id, item]));
  for (const record of records) byId.set(record.id, record);
  return [...byId.values()].sort(order);
}

/** "report.pdf" for PocketBase's stored name "report_a1b2c3d4e5.pdf" (it adds a random suffix). */
export function displayFileName(stored: string): string {
  return stored.replace(/_[a-z0-9]{10}(\.[^.]+)?$/i, "$1");
}
