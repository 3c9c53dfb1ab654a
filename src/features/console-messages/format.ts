// What the contact inbox shows: topic labels and the "Reply by e-mail" link.
import type { ContactMessageType } from "@/lib/pocketbase-types";

export const TYPE_LABELS: Record<ContactMessageType, string> = {
  general: "General inquiry",
  technical: "Technical support",
  billing: "Billing question",
  partnership: "Partnership",
};

/** "Re: <subject>", not doubled when the subject already starts with "Re:". */
export function replySubject(subject: string): string {
  return /^re:/i.test(subject.trim()) ? subject.trim() : `Re: ${subject.trim()}`;
}

/**
 * A mailto: link to the sender with the subject "Re: ...", every character encoded (an "&"
 * or "?" in the subject stays text); the address keeps its "@" readable.
 */
export function replyLink(email: string, subject: string): string {
  const to = encodeURIComponent(email.trim()).replace(/%40/g, "@");
  return `mailto:${to}?subject=${encodeURIComponent(replySubject(subject))}`;
}
