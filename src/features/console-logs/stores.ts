// Audit Logs state: the query (search, action, page), the page it answers and the summary
// cards. A new query aborts the request it supersedes; typing is debounced.
import { atom, onMount } from "nanostores";
import { errorMessage, isAbort } from "@/lib/api-error";
import { fetchAuditPage, fetchAuditSummary, type AuditCriteria, type AuditEntry, type AuditSummary } from "@/features/console-logs/api";

export const SEARCH_DELAY_MS = 250;
const NO_CRITERIA: AuditCriteria = { search: "", action: "" };

export interface AuditListState {
  status: "loading" | "ready" | "error";
  items: AuditEntry[];
  page: number;
  totalItems: number;
  totalPages: number;
  criteria: AuditCriteria;
  error: string;
}

export interface AuditSummaryState {
  status: "loading" | "ready" | "error";
  summary: AuditSummary | null;
  error: string;
}

export const $auditQuery = atom<{ criteria: AuditCriteria; page: number }>({ criteria: NO_CRITERIA, page: 1 });
export const $auditSearchText = atom("");
export const $auditLogs = atom<AuditListState>({
  status: "loading",
  items: [],
  page: 1,
  totalItems: 0,
  totalPages: 0,
  criteria: NO_CRITERIA,
  error: "",
});
export const $auditSummary = atom<AuditSummaryState>({ status: "loading", summary: null, error: "" });

const $reloads = atom(0);

onMount($auditLogs, () => {
  let controller: AbortController | null = null;
  const load = () => {
    controller?.abort();
    const current = new AbortController();
    controller = current;
    const { criteria, page } = $auditQuery.get();
    $auditLogs.set({ ...$auditLogs.get(), status: "loading", error: "" });
    fetchAuditPage(criteria, page, current.signal).then(
      (result) => {
        if (current.signal.aborted) return;
        $auditLogs.set({
          status: "ready",
          error: "",
          criteria,
          items: result.items,
          page: result.page,
          totalItems: result.totalItems,
          totalPages: result.totalPages,
        });
      },
      (err: unknown) => {
        if (current.signal.aborted || isAbort(err)) return;
        $auditLogs.set({ ...$auditLogs.get(), status: "error", error: errorMessage(err) });
      },
    );
  };
  const offs = [$auditQuery.listen(load), $reloads.listen(load)];
  load();
  return () => {
    for (const off of offs) off();
    controller?.abort();
  };
});

onMount($auditSummary, () => {
  let controller: AbortController | null = null;
  const load = () => {
    controller?.abort();
    const current = new AbortController();
    controller = current;
    $auditSummary.set({ ...$auditSummary.get(), status: "loading", error: "" });
    fetchAuditSummary(current.signal).then(
      (summary) => {
        if (!current.signal.aborted) $auditSummary.set({ status: "ready", summary, error: "" });
      },
      (err: unknown) => {
        if (current.signal.aborted || isAbort(err)) return;
        $auditSummary.set({ ...$auditSummary.get(), status: "error", error: errorMessage(err) });
      },
    );
  };
  const off = $reloads.listen(load);
  load();
  return () => {
    off();
    controller?.abort();
  };
});

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

/** Reloads the page of entries and the summary (Refresh). */
export function reloadAuditLogs(): void {
  $reloads.set($reloads.get() + 1);
}
