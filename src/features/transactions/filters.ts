// The Transaction History query (spec 2.17): search on the description and a type filter,
// always scoped to the signed-in user's own ledger rows.
import type PocketBase from "pocketbase";
import type { TransactionType } from "@/lib/catalog";
import { containsPattern } from "@/lib/filter";

/** Rows a page (spec 9); the pager shows once a page is full or past page 1. */
export const TRANSACTIONS_PER_PAGE = 20;
export const TRANSACTION_SORT = "-created,-id";

export interface TransactionCriteria {
  search: string;
  type: TransactionType | "";
}

export const NO_CRITERIA: TransactionCriteria = { search: "", type: "" };

export function hasCriteria(criteria: TransactionCriteria): boolean {
  return criteria.search.trim() !== "" || criteria.type !== "";
}

export function transactionFilter(client: Pick<PocketBase, "filter">, userId: string, criteria: TransactionCriteria): string {
  const parts = [client.filter("user_id = {:userId}", { userId })];
  const search = criteria.search.trim();
  if (search) parts.push(client.filter("description ~ {:q}", { q: containsPattern(search) }));
  if (criteria.type) parts.push(client.filter("type = {:type}", { type: criteria.type }));
  return parts.join(" && ");
}

/** Pager rule of spec 2.17: shown when at least a full page is loaded, or past page 1. */
export function showPager(page: number, rowsLoaded: number): boolean {
  return page > 1 || rowsLoaded >= TRANSACTIONS_PER_PAGE;
}
