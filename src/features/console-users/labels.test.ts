import { describe, expect, it } from "vitest";
import { proxyOutcome } from "@/features/console-users/labels";

describe("a refund's confirmation", () => {
  it("says one proxy goes back in the singular, several in the plural (issue #28)", () => {
    expect(proxyOutcome({ kind: "purchase", quantity: 1 })).toBe(
      "The proxy of this order, if the customer still holds it, goes back to stock with a new password; its credentials stop working.",
    );
    expect(proxyOutcome({ kind: "purchase", quantity: 2 })).toBe(
      "The 2 proxies of this order that the customer still holds go back to stock with new passwords; their credentials stop working.",
    );
    expect(proxyOutcome({ kind: "renewal", quantity: 1 })).toMatch(/^The \d+ days this renewal bought are taken off its proxies/);
  });
});
