// Transaction History state (spec 2.17): the query, the page it answers, the export.
// A new query aborts the request it supersedes. The first page may come from the server
// (seeded, see stores/seed.ts): no first load then.
import { atom, onMount } from "nanostores";
import { errorMessage, isAbort } from "@/lib/api-error";
import type { TransactionRecord, TransactionType } from "@/lib/pocketbase-types";
import { $auth } from "@/stores/auth";
import { takeSeed } from "@/stores/seed";
import { fetchAllTransactions, fetchTransactionPage, type TransactionPage } from "@/features/transactions/api";
import { NO_CRITERIA, type TransactionCriteria } from "@/features/transactions/filters";

export const SEARCH_DELAY_MS = 300;

export interface TransactionQuery {
  criteria: TransactionCriteria;
  page: number;
}

export interface TransactionListState {
  status: "loading" | "ready" | "error";
  items: TransactionRecord[];
  page: number;
  totalPages: number;
  /** The criteria the items answer (for the empty state's wording). */
  criteria: TransactionCriteria;
  error: string;
}

export const $transactionQuery = atom<TransactionQuery>({ criteria: NO_CRITERIA, page: 1 });
export const $transactionSearchText = atom("");
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

onMount($transactions, () => {
  let controller: AbortController | null = null;
  let userId = "";
  const load = () => {
    userId = $auth.get().user?.id ?? "";
    controller?.abort();
    const current = new AbortController();
    controller = current;
    if (!userId) return;
    const { criteria, page } = $transactionQuery.get();
    $transactions.set({ ...$transactions.get(), status: "loading", error: "" });
    fetchTransactionPage(userId, criteria, page, current.signal).then(
      (result) => {
        if (!current.signal.aborted) $transactions.set({ status: "ready", error: "", criteria, ...result });
      },
      (err: unknown) => {
        if (current.signal.aborted || isAbort(err)) return;
        $transactions.set({ ...$transactions.get(), status: "error", error: errorMessage(err) });
      },
    );
  };
  const offs = [$transactionQuery.listen(load), $reloads.listen(load), $auth.listen(({ user }) => (user?.id ?? "") !== userId && load())];
  // The server's first page stands for the first load while the query is still the first one.
  const seed = takeSeed($transactions);
  const { criteria, page } = $transactionQuery.get();
  if (seed && criteria === NO_CRITERIA && page === 1) userId = seed.userId;
  else load();
  return () => {
    for (const off of offs) off();
    controller?.abort();
  };
});

/** The list state for the first page the server read. */
export function transactionsSeed(first: TransactionPage | null | undefined): TransactionListState | null {
  return first ? { status: "ready", error: "", criteria: NO_CRITERIA, ...first } : null;
}

let searchTimer: ReturnType<typeof setTimeout> | undefined;

function setCriteria(change: Partial<TransactionCriteria>): void {
  $transactionQuery.set({ criteria: { ...$transactionQuery.get().criteria, ...change }, page: 1 });
}

export function setTransactionSearch(text: string): void {
  $transactionSearchText.set(text);
  clearTimeout(searchTimer);
  searchTimer = setTimeout(() => {
    if ($transactionQuery.get().criteria.search !== text.trim()) setCriteria({ search: text.trim() });
  }, SEARCH_DELAY_MS);
}

export function setTransactionType(type: TransactionType | ""): void {
  setCriteria({ type });
}

export function clearTransactionFilters(): void {
  clearTimeout(searchTimer);
  $transactionSearchText.set("");
  $transactionQuery.set({ criteria: NO_CRITERIA, page: 1 });
}

export function goToTransactionPage(page: number): void {
  $transactionQuery.set({ ...$transactionQuery.get(), page: Math.max(1, page) });
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
