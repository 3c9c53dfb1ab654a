// The Transaction History CSV (spec 9): every matching row, every value quoted and
// neutralised (toCsv), amounts as plain signed dollars. Loaded on the first export.
import { toCsv } from "@/lib/csv";
import { formatDateTime, todayStamp } from "@/lib/dates";
import type { TransactionRecord } from "@/lib/pocketbase-types";
import { isIncoming } from "@/lib/catalog";

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
