import { describe, expect, it } from "vitest";
import type { AdminPayment } from "@/features/console-users/api";
import { paymentBadges, paymentOutcome, paymentTitle } from "@/features/console-users/payment-format";

const base: AdminPayment = {
  id: "p1",
  package_id: "package-50",
  provider: "stripe",
  status: "paid",
  amount_cents: 4500,
  credits_cents: 5000,
  bonus_cents: 500,
  currency: "usd",
  refunded_cents: 0,
  disputed_cents: 0,
  dispute_status: "",
  kept_cents: 4500,
  failure_reason: "",
  paid_at: "2026-11-25 08:00:00.000Z",
  reversed_at: "",
  created: "2026-11-25 07:59:00.000Z",
};
const labels = (p: AdminPayment) => paymentBadges(p).map((b) => b.label);

describe("payment formats in the user drawer (security review #13, findings 2 and 4)", () => {
  it("finding 2: a test-provider payment carries the Test badge and says no money moved", () => {
    const test = { ...base, provider: "test" as const, kept_cents: 0 };
    expect(labels(test)).toEqual(["Test (no money moved)", "Paid"]);
    expect(paymentOutcome(test)).toBe(
      "Credits from the test provider: no money was received, so it is not revenue and earns no commission.",
    );
    expect(paymentTitle(test)).toBe("Paid $45.00 for $50.00 in credits + $5.00 bonus");
  });

  it("finding 4: refunds and disputes name their cents and the money kept", () => {
    expect(labels(base)).toEqual(["Paid"]);
    expect(paymentOutcome(base)).toBe("");
    const partial = { ...base, status: "partially_refunded" as const, refunded_cents: 1500, kept_cents: 3000 };
    expect(labels(partial)).toEqual(["Partially refunded"]);
    expect(paymentOutcome(partial)).toBe("Stripe refunded $15.00 of $45.00. Money kept: $30.00.");
    const full = { ...base, status: "refunded" as const, refunded_cents: 4500, kept_cents: 0 };
    expect(labels(full)).toEqual(["Refunded"]);
    expect(paymentOutcome(full)).toBe("Stripe refunded all $45.00. Money kept: $0.00.");
    const open = { ...base, status: "disputed" as const, disputed_cents: 4500, dispute_status: "open" as const };
    expect(labels(open)).toEqual(["Disputed"]);
    expect(paymentOutcome(open)).toBe("A chargeback of $45.00 is open. Its credits were reversed in the ledger while the dispute is open.");
    const lost = { ...open, dispute_status: "lost" as const, kept_cents: 0 };
    expect(labels(lost)).toEqual(["Dispute lost"]);
    expect(paymentOutcome(lost)).toBe("A chargeback of $45.00 was lost. Money kept: $0.00.");
    const won = { ...open, status: "paid" as const, dispute_status: "won" as const };
    expect(labels(won)).toEqual(["Dispute won"]);
    expect(paymentOutcome(won)).toBe("A chargeback of $45.00 was won; the credits were restored. Money kept: $45.00.");
  });

  it("a checkout not completed or failed is not called paid", () => {
    const pending = { ...base, status: "pending" as const, paid_at: "", kept_cents: 0 };
    expect(labels(pending)).toEqual(["Pending"]);
    expect(paymentTitle(pending)).toBe("Checkout of $45.00 for $50.00 in credits + $5.00 bonus");
    const failed = { ...pending, status: "failed" as const, failure_reason: "Paid 100 usd but 4500 usd was due" };
    expect(labels(failed)).toEqual(["Failed"]);
    expect(paymentOutcome(failed)).toBe("Failed: Paid 100 usd but 4500 usd was due.");
  });
});
