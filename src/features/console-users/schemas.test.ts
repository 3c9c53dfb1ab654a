import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { AMOUNT_MESSAGES, BalanceSchema, amountToCents } from "@/features/console-users/schemas";

describe("the balance form", () => {
  it("reads dollars as whole cents", () => {
    expect(amountToCents("25.50")).toBe(2550);
    expect(amountToCents("0.005")).toBe(1);
    expect(amountToCents("")).toBeNaN();
    expect(amountToCents("abc")).toBeNaN();
  });

  it("takes an amount of a cent or more and a description", () => {
    expect(v.parse(BalanceSchema, { amount: "0.5", description: " Fee " })).toEqual({ amount: 50, description: "Fee" });
    expect(v.safeParse(BalanceSchema, { amount: "0", description: "Fee" }).success).toBe(false);
    expect(v.safeParse(BalanceSchema, { amount: "", description: "Fee" }).success).toBe(false);
    expect(v.safeParse(BalanceSchema, { amount: "1", description: "  " }).success).toBe(false);
  });

  it("says what is wrong with an amount in words, with the limit (issue #15)", () => {
    const amountMessage = (amount: string) => {
      const result = v.safeParse(BalanceSchema, { amount, description: "Fee" });
      return result.success ? "" : v.flatten<typeof BalanceSchema>(result.issues).nested?.amount?.[0];
    };
    expect(amountMessage("")).toBe("Amount is required");
    expect(amountMessage("abc")).toBe(AMOUNT_MESSAGES.notNumber);
    expect(amountMessage("-50")).toBe("Amount must be greater than $0.00; use Debit to take money away");
    expect(amountMessage("0")).toBe(AMOUNT_MESSAGES.notPositive);
    expect(amountMessage("0.001")).toBe("Amount cannot have fractions of a cent (at most 2 decimal places)");
    expect(amountMessage("100000000")).toBe("Amount must be at most $1,000,000.00 per adjustment");
    expect(amountMessage("1000000.01")).toBe(AMOUNT_MESSAGES.max);
    expect(amountMessage("1000000")).toBe("");
    expect(amountMessage("0.01")).toBe("");
  });
});
