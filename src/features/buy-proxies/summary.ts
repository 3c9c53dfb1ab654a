// The order summary and the balance check of the Buy Proxies form (spec section 5).
import { formatCents } from "@/lib/money";

export interface SummaryInput {
  /** Price of one proxy for 30 days (0 when not for sale or not loaded). */
  unitPriceCents: number;
  /** The valid quantity, or null when the quantity field is invalid. */
  quantity: number | null;
  /** null while the balance is loading. */
  balanceCents: number | null;
  /** Proxies available at the chosen place; null when no country is chosen yet. */
  available: number | null;
  processing: boolean;
}

export interface Summary {
  totalCents: number;
  /** How much is missing from the balance (0 when it covers the total). */
  shortfallCents: number;
  /** 'Insufficient balance. Need $X more.' or "". */
  shortfallText: string;
  /** The balance is exactly 0: the 'Insufficient Balance' banner shows. */
  zeroBalance: boolean;
  /** The chosen place has fewer proxies than the quantity. */
  shortOfStock: boolean;
  canPurchase: boolean;
}

export function orderSummary(input: SummaryInput): Summary {
  const totalCents = input.quantity ? input.unitPriceCents * input.quantity : 0;
  const balance = input.balanceCents;
  const shortfallCents = balance !== null && totalCents > balance ? totalCents - balance : 0;
  const shortOfStock = input.available !== null && input.quantity !== null && input.available < input.quantity;
  return {
    totalCents,
    shortfallCents,
    shortfallText: shortfallCents > 0 ? `Insufficient balance. Need ${formatCents(shortfallCents)} more.` : "",
    zeroBalance: balance === 0,
    shortOfStock,
    canPurchase: balance !== null && totalCents > 0 && balance >= totalCents && !shortOfStock && !input.processing,
  };
}

/** The Idempotency-Key to send: the same attempt (same body, not yet bought) keeps its key. */
export interface Attempt {
  key: string;
  body: string;
}

export function keyForAttempt(previous: Attempt | null, body: string, newKey: () => string): Attempt {
  return previous && previous.body === body ? previous : { key: newKey(), body };
}
