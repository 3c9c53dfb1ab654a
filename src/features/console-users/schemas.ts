// The balance form (admin spec 2, "balance modal"): an amount in dollars, saved as whole
// cents, and the description the customer reads in their history. The server
// (lib/accounts/adjustments.js) checks the same, and stays the truth.
import * as v from "valibot";
import { MAX_ADJUSTMENT_CENTS, MAX_ADJUSTMENT_MESSAGE } from "@/lib/catalog";

/** Dollars typed in the amount field as whole cents (rounded; spec 5); NaN when not a number. */
export function amountToCents(text: string): number {
  const value = Number(text);
  return text.trim() === "" || !Number.isFinite(value) ? Number.NaN : Math.round(value * 100);
}

/** What the amount field says, in words (issue #15): each refusal names what is wrong. */
export const AMOUNT_MESSAGES = {
  required: "Amount is required",
  notNumber: "Enter the amount in dollars, for example 25.50",
  notPositive: "Amount must be greater than $0.00; use Debit to take money away",
  fraction: "Amount cannot have fractions of a cent (at most 2 decimal places)",
  max: MAX_ADJUSTMENT_MESSAGE,
} as const;

export const BalanceSchema = v.object({
  amount: v.pipe(
    v.string(),
    v.trim(),
    v.nonEmpty(AMOUNT_MESSAGES.required),
    v.regex(/^-?(\d+\.?\d*|\.\d+)$/, AMOUNT_MESSAGES.notNumber),
    v.check((text) => Number(text) > 0, AMOUNT_MESSAGES.notPositive),
    v.regex(/^-?\d*(\.\d{0,2})?$/, AMOUNT_MESSAGES.fraction),
    v.transform(amountToCents),
    v.number(),
    v.minValue(1, AMOUNT_MESSAGES.notPositive),
    v.maxValue(MAX_ADJUSTMENT_CENTS, AMOUNT_MESSAGES.max),
  ),
  description: v.pipe(
    v.string(),
    v.trim(),
    v.nonEmpty("Description is required"),
    v.maxLength(500, "Description must be at most 500 characters"),
  ),
});

export type BalanceInput = v.InferInput<typeof BalanceSchema>;
export type BalanceOutput = v.InferOutput<typeof BalanceSchema>;

export const EMPTY_BALANCE: BalanceInput = { amount: "", description: "" };
