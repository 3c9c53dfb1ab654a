// How a ledger row reads: CREDIT and REFUND add money (green, +), DEBIT and
// PROXY_PURCHASE take it (red, -) (spec 2.17).
import { formatCents } from "@/lib/money";
import { isIncoming, type TransactionType } from "@/lib/catalog";
import type { TransactionRecord } from "@/lib/pocketbase-types";

/** "+$10.00" or "-$4.50": the sign follows the type. */
export function signedAmount(row: Pick<TransactionRecord, "type" | "amount_cents">): string {
  return `${isIncoming(row.type) ? "+" : "-"}${formatCents(Math.abs(row.amount_cents))}`;
}

export function amountClass(type: TransactionType): string {
  return isIncoming(type) ? "text-green-700" : "text-red-700";
}
