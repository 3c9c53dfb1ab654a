// How Affiliate Management names people and referral statuses.
import type { BadgeProps } from "@/components/ui/badge";

/** "Ada Lovelace", else the e-mail. */
export function personName(first: string, last: string, email: string): string {
  return [first, last].filter(Boolean).join(" ") || email;
}

/** Badge tone of a referral status: pending yellow, paid green, anything else red (spec 3). */
export function referralTone(status: string): NonNullable<BadgeProps["tone"]> {
  if (status === "pending") return "warning";
  if (status === "paid") return "success";
  return "danger";
}

/** "Pending", "Paid", or the value as it is. */
export function referralStatusLabel(status: string): string {
  return status ? status.charAt(0).toUpperCase() + status.slice(1) : "Unknown";
}
