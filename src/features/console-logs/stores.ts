// Audit Logs state: the query (search, action, page), the page it answers and the summary
// cards. A new query aborts the request it supersedes; typing is debounced.
import { atom } from "nanostores";
import { keepLoaded } from "@/lib/keep-loaded";
import { loadedList, pendingList, type PagedListState } from "@/lib/paged-list";
import { listQuery } from "@/stores/list-query";
import { seedOf, type StoreSeed } from "@/stores/seed";
import {
  fetchAuditPage,
  fetchAuditSummary,
  type AuditCriteria,
  type AuditEntry,
  type AuditPage,
  type AuditSummary,
} from "@/features/console-logs/api";

export const SEARCH_DELAY_MS = 250;
export const NO_CRITERIA: AuditCriteria = { search: "", action: "" };

export type AuditListState = PagedListState<AuditEntry, AuditCriteria>;

export interface AuditSummaryState {
  status: "loading" | "ready" | "error";
  summary: AuditSummary | null;
  error: string;
}

const auditQuery = listQuery(NO_CRITERIA, { searchDelayMs: SEARCH_DELAY_MS });
export const $auditQuery = auditQuery.$query;
export const $auditSearchText = auditQuery.$searchText;
export const $auditLogs = atom<AuditListState>(pendingList(NO_CRITERIA));
export const $auditSummary = atom<AuditSummaryState>({ status: "loading", summary: null, error: "" });

const $reloads = atom(0);

keepLoaded($auditLogs, [$auditQuery, $reloads], async (signal) => {
  const { criteria, page } = $auditQuery.get();
  return loadedList(await fetchAuditPage(criteria, page, signal), criteria);
});

keepLoaded($auditSummary, [$reloads], async (signal) => ({ status: "ready", summary: await fetchAuditSummary(signal), error: "" }));

export const setAuditSearch = auditQuery.setSearchText;
export const clearAuditFilters = auditQuery.clearFilters;
export const goToAuditPage = auditQuery.goToPage;

export function setAuditAction(action: string): void {
  auditQuery.setCriteria({ action });
}

/** The stores' states for the first data the server read (null parts load in the browser). */
export function auditLogsSeeds(first: { entries: AuditPage | null; summary: AuditSummary | null } | null): StoreSeed[] {
  return [
    seedOf($auditLogs, first?.entries ? loadedList(first.entries, NO_CRITERIA) : null),
    seedOf($auditSummary, first?.summary ? { status: "ready", summary: first.summary, error: "" } : null),
  ];
}

/** Reloads the page of entries and the summary (Refresh). */
export function reloadAuditLogs(): void {
  $reloads.set($reloads.get() + 1);
}
