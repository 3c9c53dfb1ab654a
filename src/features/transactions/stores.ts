// Transaction History state (spec 2.17): the query, the page it answers, the export.
// A new query aborts the request it supersedes. The first page may come from the server
// (seeded, see stores/seed.ts): no first load then.
import { atom, onMount } from "nanostores";
import { errorMessage } from "@/lib/api-error";
import type { TransactionRecord, TransactionType } from "@/lib/pocketbase-types";
import { $auth } from "@/stores/auth";
import { listQuery } from "@/stores/list-query";
import { fetchAllTransactions, fetchTransactionPage, type TransactionPage } from "@/features/transactions/api";
import { NO_CRITERIA, type TransactionCriteria } from "@/features/transactions/filters";

export interface TransactionListState {
  status: "loading" | "ready" | "error";
  items: TransactionRecord[];
  page: number;
  totalPages: number;
  /** The criteria the items answer (for the empty state's wording). */
  criteria: TransactionCriteria;
  error: string;
}

const query = listQuery(NO_CRITERIA);
export const $transactionQuery = query.$query;
export const $transactionSearchText = query.$searchText;
export const { setSearchText: setTransactionSearch, clearFilters: clearTransactionFilters, goToPage: goToTransactionPage } = query;
export const $transactions = atom<TransactionListState>({
  status: "loading",
  items: [],
  page: 1,
  totalPages: 0,
  criteria: NO_CRITERIA,
  error: "",
});
export const $transactionExport = atom<{ pending: boolean; error: string }>({ pending: false, error: "" });

const $reloads = atom(0);

onMount($transactions, () =>
  query.followPages($transactions, fetchTransactionPage, (result, criteria) => ({ status: "ready", error: "", criteria, ...result }), [
    $reloads,
  ]),
);

/** The list state for the first page the server read. */
export function transactionsSeed(first: TransactionPage | null | undefined): TransactionListState | null {
  return first ? { status: "ready", error: "", criteria: NO_CRITERIA, ...first } : null;
}

export function setTransactionType(type: TransactionType | ""): void {
  query.setCriteria({ type });
}

export function reloadTransactions(): void {
  $reloads.set($reloads.get() + 1);
}

/** Downloads every row matching the current filters (not just the page) as CSV. */
export async function exportTransactions(): Promise<void> {
  const userId = $auth.get().user?.id;
  if (!userId || $transactionExport.get().pending) return;
  $transactionExport.set({ pending: true, error: "" });
  try {
    // The CSV writer (papaparse) loads on the first export, not with the page.
    const [rows, { transactionsCsv, transactionsFileName }, { downloadText }] = await Promise.all([
      fetchAllTransactions(userId, $transactionQuery.get().criteria),
      import("@/features/transactions/export"),
      import("@/lib/csv"),
    ]);
    downloadText(transactionsFileName(), transactionsCsv(rows));
    $transactionExport.set({ pending: false, error: "" });
  } catch (err) {
    $transactionExport.set({ pending: false, error: errorMessage(err) });
  }
}
