// The balance form (admin spec 2, "balance modal"): an amount in dollars, saved as whole
// cents, and the description the customer reads in their history. The server
// (lib/money/adjustments.js) checks the same, and stays the truth.
import * as v from "valibot";

/** Dollars typed in the amount field as whole cents (rounded; spec 5); NaN when not a number. */
export function amountToCents(text: string): number {
  const value = Number(text);
  return text.trim() === "" || !Number.isFinite(value) ? Number.NaN : Math.round(value * 100);
}

export const BalanceSchema = v.object({
  amount: v.pipe(v.string(), v.transform(amountToCents), v.number(), v.minValue(1)),
  description: v.pipe(v.string(), v.trim(), v.nonEmpty(), v.maxLength(500)),
});

export type BalanceInput = v.InferInput<typeof BalanceSchema>;
export type BalanceOutput = v.InferOutput<typeof BalanceSchema>;

export const EMPTY_BALANCE: BalanceInput = { amount: "", description: "" };
