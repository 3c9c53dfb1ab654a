// What the console shows for a ticket: badge tones (spec 4: green open, yellow pending, red
// closed), priority tones and the customer's name.
import type { BadgeProps } from "@/components/ui/badge";
import { PRIORITY_LABELS } from "@/components/support/format";
import type { TicketPriority, TicketStatus } from "@/lib/pocketbase-types";

type Tone = NonNullable<BadgeProps["tone"]>;

export const STATUS_OPTIONS = [
  { value: "", label: "All Status" },
  { value: "open", label: "Open" },
  { value: "pending", label: "Pending" },
  { value: "closed", label: "Closed" },
] as const satisfies readonly { value: "" | TicketStatus; label: string }[];

/** The inbox's priority filter, most pressing first. */
export const PRIORITY_OPTIONS: readonly { value: "" | TicketPriority; label: string }[] = [
  { value: "", label: "All Priorities" },
  ...(["urgent", "high", "medium", "low"] as const).map((value) => ({ value, label: PRIORITY_LABELS[value] })),
];

export const SORT_OPTIONS = [
  { value: "activity", label: "Newest activity first" },
  { value: "priority", label: "Most urgent first" },
] as const;

export const CONSOLE_STATUS_TONES: Record<TicketStatus, Tone> = { open: "success", pending: "warning", closed: "danger" };

export const PRIORITY_TONES: Record<TicketPriority, Tone> = { urgent: "danger", high: "warning", medium: "info", low: "neutral" };

/** "Ada Lovelace", or the e-mail when the customer has no name. */
export function customerName(ticket: { user_first_name: string; user_last_name: string; user_email: string }): string {
  return `${ticket.user_first_name} ${ticket.user_last_name}`.trim() || ticket.user_email || "Unknown customer";
}
