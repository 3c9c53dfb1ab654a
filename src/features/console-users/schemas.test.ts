import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { BalanceSchema, amountToCents } from "@/features/console-users/schemas";

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
});
