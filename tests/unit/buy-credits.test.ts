import { describe, expect, it } from "vitest";
import { creditsText, packageLine, packageName, packageTotalCents, paymentView, returnedPayment } from "@/features/credits/packages";

const payment = { credits_cents: 2500, bonus_cents: 100, amount_cents: 2400, failure_reason: "" };

describe("credit packages", () => {
  it("adds the bonus to the credits", () => {
    expect(packageTotalCents({ credits_cents: 2500, bonus_cents: 100 })).toBe(2600);
    expect(creditsText({ credits_cents: 2500, bonus_cents: 100 })).toBe("$25.00 in credits + $1.00 bonus");
    expect(creditsText({ credits_cents: 1000, bonus_cents: 0 })).toBe("$10.00 in credits");
    // One plain line a package (issue #28): what you pay, the credits, the bonus on top.
    expect(packageLine({ price_cents: 4500, credits_cents: 5000, bonus_cents: 500 })).toBe(
      "You pay $45.00 and get $50.00 in credits + $5.00 bonus.",
    );
    expect(packageLine({ price_cents: 1000, credits_cents: 1000, bonus_cents: 0 })).toBe("You pay $10.00 and get $10.00 in credits.");
    expect(packageName({ credits_cents: 5000 })).toBe("$50.00 Credits");
  });
});

describe("payment status", () => {
  it("paid: names what was added", () => {
    const view = paymentView({ ...payment, status: "paid" });
    expect(view).toMatchObject({ phase: "paid", tone: "success", settled: true });
    expect(view.text).toBe("You paid $24.00: $25.00 in credits + $1.00 bonus were added to your balance.");
  });

  it("pending: waits for the confirmation and keeps following", () => {
    const view = paymentView({ ...payment, status: "pending" });
    expect(view).toMatchObject({ phase: "pending", settled: false });
    expect(view.text).toContain("waiting for the payment confirmation");
  });

  it("failed: gives the reason once, with one full stop", () => {
    const view = paymentView({ ...payment, status: "failed", failure_reason: "The checkout expired before it was paid." });
    expect(view).toMatchObject({ phase: "failed", tone: "error", settled: true });
    expect(view.text).toBe("The checkout expired before it was paid. Nothing was added to your balance; you can try again.");
  });

  it("canceled: a pending payment the customer walked away from; paid wins over canceled", () => {
    expect(paymentView({ ...payment, status: "pending" }, true)).toMatchObject({ phase: "canceled", settled: true });
    expect(paymentView({ ...payment, status: "paid" }, true).phase).toBe("paid");
  });

  it("reads Stripe's return address", () => {
    expect(returnedPayment("?payment=abc123&session_id=cs_test_1")).toEqual({ id: "abc123", canceled: false });
    expect(returnedPayment("?payment=abc123&canceled=1")).toEqual({ id: "abc123", canceled: true });
    expect(returnedPayment("")).toBeNull();
    expect(returnedPayment("?payment=../../x")).toBeNull();
  });
});
