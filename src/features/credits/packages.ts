// What a credit package and a payment look like on the Buy Credits page.
import type { CreditPackage } from "@/features/credits/api";
import { formatCents } from "@/lib/money";
import type { PaymentRecord } from "@/lib/pocketbase-types";

/** Everything the package adds to the balance: credits plus bonus. */
export function packageTotalCents(pkg: Pick<CreditPackage, "credits_cents" | "bonus_cents">): number {
  return pkg.credits_cents + pkg.bonus_cents;
}

/** "$25.00 in credits + $1.00 bonus" (no bonus part when there is none). */
export function creditsText(pkg: Pick<CreditPackage, "credits_cents" | "bonus_cents">): string {
  const bonus = pkg.bonus_cents > 0 ? ` + ${formatCents(pkg.bonus_cents)} bonus` : "";
  return `${formatCents(pkg.credits_cents)} in credits${bonus}`;
}

/** A package's name, on its card and in the ledger (lib/money/payments.js): "$50.00 Credits". */
export function packageName(pkg: Pick<CreditPackage, "credits_cents">): string {
  return `${formatCents(pkg.credits_cents)} Credits`;
}

/**
 * The package in one plain line: what you pay, the credits you get, the bonus on top
 * ("You pay $45.00 and get $50.00 in credits + $5.00 bonus.").
 */
export function packageLine(pkg: Pick<CreditPackage, "price_cents" | "credits_cents" | "bonus_cents">): string {
  return `You pay ${formatCents(pkg.price_cents)} and get ${creditsText(pkg)}.`;
}

export type PaymentPhase = "pending" | "paid" | "failed" | "canceled";

export interface PaymentView {
  phase: PaymentPhase;
  tone: "info" | "success" | "error" | "warning";
  title: string;
  text: string;
  /** Nothing more will happen to it: stop following it. */
  settled: boolean;
}

/** "The checkout expired. " from a reason with or without its full stop; "" for none. */
function sentence(reason: string): string {
  const text = reason.trim().replace(/\.+$/, "");
  return text ? `${text}. ` : "";
}

type PaymentFacts = Pick<PaymentRecord, "status" | "credits_cents" | "bonus_cents" | "amount_cents" | "failure_reason">;

/**
 * How a payment reads on the page. `canceled`: Stripe sent the browser back from the
 * checkout's cancel link (the payment stays pending until its session expires; if it was
 * paid meanwhile, paid wins).
 */
export function paymentView(payment: PaymentFacts, canceled = false): PaymentView {
  const added = creditsText(payment);
  switch (payment.status) {
    case "paid":
      return {
        phase: "paid",
        tone: "success",
        title: "Payment complete",
        text: `You paid ${formatCents(payment.amount_cents)}: ${added} ${payment.bonus_cents > 0 ? "were" : "was"} added to your balance.`,
        settled: true,
      };
    case "failed":
      return {
        phase: "failed",
        tone: "error",
        title: "Payment failed",
        text: `${sentence(payment.failure_reason)}Nothing was added to your balance; you can try again.`,
        settled: true,
      };
    default:
      return canceled
        ? {
            phase: "canceled",
            tone: "warning",
            title: "Payment canceled",
            text: "You left the checkout before paying. Nothing was charged and nothing was added to your balance.",
            settled: true,
          }
        : {
            phase: "pending",
            tone: "info",
            title: "Payment pending",
            text: `We are waiting for the payment confirmation. ${added} will be added to your balance as soon as it arrives.`,
            settled: false,
          };
  }
}

/** The payment a return from Stripe names: ?payment=<id>[&session_id=...|&canceled=1]. */
export function returnedPayment(search: string): { id: string; canceled: boolean } | null {
  const params = new URLSearchParams(search);
  const id = params.get("payment") ?? "";
  if (!/^[a-z0-9]{1,30}$/.test(id)) return null;
  return { id, canceled: params.get("canceled") === "1" };
}
