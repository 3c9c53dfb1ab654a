import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { EMPTY_GENERATE, GenerateSchema } from "@/features/console-proxies/schemas";

const quantityMessage = (quantity: string) => {
  const result = v.safeParse(GenerateSchema, { ...EMPTY_GENERATE, country: "US", quantity });
  return result.success ? "" : v.flatten<typeof GenerateSchema>(result.issues).nested?.quantity?.[0];
};

describe("the generate form's quantity", () => {
  it("says 'at least 1' for zero and negative numbers, 'whole number' for fractions (issue #15)", () => {
    expect(quantityMessage("-2")).toBe("Quantity must be at least 1");
    expect(quantityMessage("0")).toBe("Quantity must be at least 1");
    expect(quantityMessage("2.5")).toBe("Quantity must be a whole number");
    expect(quantityMessage("1001")).toBe("Maximum 1000 proxies per batch");
    expect(quantityMessage("1")).toBe("");
  });
});
