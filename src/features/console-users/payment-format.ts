// How the user drawer describes a credit payment: its badges (test money, refunds, a
// dispute) and the sentence that says what was paid, refunded, disputed and kept
// (security review #13, findings 2 and 4).
import type { BadgeProps } from "@/components/ui/badge";
import { formatCents } from "@/lib/money";
import type { AdminPayment } from "@/features/console-users/api";

export interface PaymentBadge {
  label: string;
  tone: NonNullable<BadgeProps["tone"]> | "test";
}

/** Whether the payment's credits were booked (lib/money/payments.js CREDITED_STATUSES). */
export function isCredited(payment: Pick<AdminPayment, "status">): boolean {
  return ["paid", "partially_refunded", "refunded", "disputed"].includes(payment.status);
}

/**
 * The payment's badges, in reading order: "Test (no money moved)" for the test provider,
 * then its state: Pending, Failed, Paid, Partially refunded, Refunded, and the dispute's
 * Disputed / Dispute won / Dispute lost.
 */
export function paymentBadges(payment: AdminPayment): PaymentBadge[] {
  const badges: PaymentBadge[] = [];
  if (payment.provider === "test") badges.push({ label: "Test (no money moved)", tone: "test" });
  if (payment.status === "pending") return [...badges, { label: "Pending", tone: "neutral" }];
  if (payment.status === "failed") return [...badges, { label: "Failed", tone: "danger" }];
  if (payment.refunded_cents >= payment.amount_cents && payment.refunded_cents > 0) {
    badges.push({ label: "Refunded", tone: "danger" });
  } else if (payment.refunded_cents > 0) {
    badges.push({ label: "Partially refunded", tone: "warning" });
  }
  if (payment.dispute_status === "open") badges.push({ label: "Disputed", tone: "danger" });
  else if (payment.dispute_status === "lost") badges.push({ label: "Dispute lost", tone: "danger" });
  else if (payment.dispute_status === "won") badges.push({ label: "Dispute won", tone: "success" });
  if (badges.every((b) => b.tone === "test")) badges.push({ label: "Paid", tone: "success" });
  return badges;
}

/** "Paid $45.00 for $50.00 in credits + $5.00 bonus" (or "Checkout for ..." before it is paid). */
export function paymentTitle(payment: AdminPayment): string {
  const credits = `${formatCents(payment.credits_cents)} in credits${payment.bonus_cents > 0 ? ` + ${formatCents(payment.bonus_cents)} bonus` : ""}`;
  return `${isCredited(payment) ? "Paid" : "Checkout of"} ${formatCents(payment.amount_cents)} for ${credits}`;
}

/**
 * What happened to the money, as a sentence: refunds and disputes with their cents and the
 * money kept (Stripe), or that a test payment moved no money; "" for a plain Stripe payment.
 */
export function paymentOutcome(payment: AdminPayment): string {
  if (payment.status === "failed") return payment.failure_reason ? `Failed: ${payment.failure_reason}.` : "The payment failed.";
  if (payment.status === "pending") return "The customer has not completed the checkout; no credits were given.";
  if (payment.provider === "test")
    return "Credits from the test provider: no money was received, so it is not revenue and earns no commission.";
  const parts: string[] = [];
  if (payment.refunded_cents > 0) {
    parts.push(
      payment.refunded_cents >= payment.amount_cents
        ? `Stripe refunded all ${formatCents(payment.refunded_cents)}.`
        : `Stripe refunded ${formatCents(payment.refunded_cents)} of ${formatCents(payment.amount_cents)}.`,
    );
  }
  if (payment.dispute_status === "open") parts.push(`A chargeback of ${formatCents(payment.disputed_cents)} is open.`);
  if (payment.dispute_status === "lost") parts.push(`A chargeback of ${formatCents(payment.disputed_cents)} was lost.`);
  if (payment.dispute_status === "won")
    parts.push(`A chargeback of ${formatCents(payment.disputed_cents)} was won; the credits were restored.`);
  if (parts.length === 0) return "";
  parts.push(
    payment.dispute_status === "open"
      ? "Its credits were reversed in the ledger while the dispute is open."
      : `Money kept: ${formatCents(payment.kept_cents)}.`,
  );
  return parts.join(" ");
}
