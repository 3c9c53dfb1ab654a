// Audit Logs state: the query (search, action, page), the page it answers and the summary
// cards. A new query aborts the request it supersedes; typing is debounced.
import { atom } from "nanostores";
import { keepLoaded } from "@/lib/keep-loaded";
import { loadedList, pendingList, type PagedListState } from "@/lib/paged-list";
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

export const $auditQuery = atom<{ criteria: AuditCriteria; page: number }>({ criteria: NO_CRITERIA, page: 1 });
export const $auditSearchText = atom("");
export const $auditLogs = atom<AuditListState>(pendingList(NO_CRITERIA));
export const $auditSummary = atom<AuditSummaryState>({ status: "loading", summary: null, error: "" });

const $reloads = atom(0);

keepLoaded($auditLogs, [$auditQuery, $reloads], async (signal) => {
  const { criteria, page } = $auditQuery.get();
  return loadedList(await fetchAuditPage(criteria, page, signal), criteria);
});

keepLoaded($auditSummary, [$reloads], async (signal) => ({ status: "ready", summary: await fetchAuditSummary(signal), error: "" }));

let searchTimer: ReturnType<typeof setTimeout> | undefined;

function setCriteria(change: Partial<AuditCriteria>): void {
  $auditQuery.set({ criteria: { ...$auditQuery.get().criteria, ...change }, page: 1 });
}

export function setAuditSearch(text: string): void {
  $auditSearchText.set(text);
  clearTimeout(searchTimer);
  searchTimer = setTimeout(() => {
    if ($auditQuery.get().criteria.search !== text.trim()) setCriteria({ search: text.trim() });
  }, SEARCH_DELAY_MS);
}

export function setAuditAction(action: string): void {
  setCriteria({ action });
}

export function clearAuditFilters(): void {
  clearTimeout(searchTimer);
  $auditSearchText.set("");
  $auditQuery.set({ criteria: NO_CRITERIA, page: 1 });
}

export function goToAuditPage(page: number): void {
  $auditQuery.set({ ...$auditQuery.get(), page: Math.max(1, page) });
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
