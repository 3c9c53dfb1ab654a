// How a ledger row reads on screen and in the CSV export (spec 9): CREDIT and REFUND add money (green, +), DEBIT and
// PROXY_PURCHASE take it (red, -) (spec 2.17).
import { toCsv } from "@/lib/csv";
import { formatDateTime, todayStamp } from "@/lib/dates";
import { formatCents } from "@/lib/money";
import type { TransactionRecord, TransactionType } from "@/lib/pocketbase-types";

export function isIncoming(type: TransactionType): boolean {
  return type === "CREDIT" || type === "REFUND";
}

/** "+$10.00" or "-$4.50": the sign follows the type. */
export function signedAmount(row: Pick<TransactionRecord, "type" | "amount_cents">): string {
  return `${isIncoming(row.type) ? "+" : "-"}${formatCents(Math.abs(row.amount_cents))}`;
}

export function amountClass(type: TransactionType): string {
  return isIncoming(type) ? "text-green-700" : "text-red-700";
}

export const TRANSACTION_CSV_HEADER = ["Date", "Type", "Amount", "Description", "Stripe Payment ID"] as const;

/** Dollars as a plain signed number for spreadsheets: "-4.50", "10.00". */
export function csvAmount(row: Pick<TransactionRecord, "type" | "amount_cents">): string {
  const dollars = (Math.abs(row.amount_cents) / 100).toFixed(2);
  return isIncoming(row.type) ? dollars : `-${dollars}`;
}

export function transactionsCsv(
  rows: ReadonlyArray<Pick<TransactionRecord, "created" | "type" | "amount_cents" | "description" | "stripe_payment_intent_id">>,
): string {
  return toCsv(
    TRANSACTION_CSV_HEADER,
    rows.map((row) => [formatDateTime(row.created), row.type, csvAmount(row), row.description, row.stripe_payment_intent_id]),
  );
}

export function transactionsFileName(now: Date = new Date()): string {
  return `transactions-${todayStamp(now)}.csv`;
}
