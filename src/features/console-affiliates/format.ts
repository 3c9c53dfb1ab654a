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

/**
 * The warning badge of a referral flag (the server's reasons to check a referral before
 * paying it): a short label and the sentence that explains it.
 */
export function referralFlag(flag: string): { label: string; reason: string } {
  if (flag === "same_signup_address") {
    return { label: "Same sign-up address", reason: "The referrer and the referred customer signed up from the same network address." };
  }
  if (flag === "same_payment_card") {
    return { label: "Same payment card", reason: "The referrer and the referred customer paid with the same card." };
  }
  return { label: "Check this referral", reason: `Flagged: ${flag}.` };
}
