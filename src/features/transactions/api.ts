// Transaction History reads: the user's own ledger rows through the records API.
import { pb, readAllForExport, withSignal, type TypedPocketBase } from "@/lib/pocketbase";
import type { TransactionRecord } from "@/lib/pocketbase-types";
import type { FirstDataContext } from "@/lib/server/first-data";
import {
  NO_CRITERIA,
  TRANSACTION_SORT,
  TRANSACTIONS_PER_PAGE,
  transactionFilter,
  type TransactionCriteria,
} from "@/features/transactions/filters";

export interface TransactionPage {
  items: TransactionRecord[];
  page: number;
  totalPages: number;
}

export async function fetchTransactionPage(
  userId: string,
  criteria: TransactionCriteria,
  page: number,
  signal?: AbortSignal,
  client: TypedPocketBase = pb(),
): Promise<TransactionPage> {
  const list = await client.collection("transactions").getList(page, TRANSACTIONS_PER_PAGE, {
    filter: transactionFilter(client, userId, criteria),
    sort: TRANSACTION_SORT,
    ...withSignal(signal),
  });
  return { items: list.items, page: list.page, totalPages: list.totalPages };
}

/** The page's first data, read on the server with the user's session (pages/dashboard/transactions.astro). */
export const transactionsFirstData = {
  transactions: ({ client, user, signal }: FirstDataContext): Promise<TransactionPage> =>
    fetchTransactionPage(user.id, NO_CRITERIA, 1, signal, client),
};

/** Every matching row, read in batches (for the CSV export). */
export function fetchAllTransactions(userId: string, criteria: TransactionCriteria): Promise<TransactionRecord[]> {
  const client = pb();
  return readAllForExport(client.collection("transactions"), transactionFilter(client, userId, criteria), TRANSACTION_SORT);
}
