// /console/logs (admin spec 2, "Audit Logs"): every admin action, newest first, searchable
// and filtered by action on the server, with the summary cards.
import { useStore } from "@nanostores/react";
import { Activity, CalendarDays, ScrollText, ServerCog, Users } from "lucide-react";
import { AdminGate } from "@/components/session/admin-gate";
import { SeededPage } from "@/components/session/seeded-page";
import { LocalDateTime } from "@/components/session/local-date-time";
import { LoadError } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { RefreshButton } from "@/components/ui/button";
import { FilteredEmptyState, type EmptyTexts } from "@/components/ui/empty-state";
import { Field } from "@/components/ui/field";
import { ListCount, PagedListState } from "@/components/ui/list-state";
import { PageHeader } from "@/components/ui/page-header";
import { Pager } from "@/components/ui/pager";
import { SearchField } from "@/components/ui/search-field";
import { Options } from "@/components/ui/options";
import { Select } from "@/components/ui/select";
import { StatGrid } from "@/components/ui/stat-grid";
import { cn } from "@/lib/cn";
import type { FirstDataProps } from "@/lib/server/first-data";
import { useSeededStore } from "@/stores/seed";
import { AUDIT_LOGS_PER_PAGE, type AuditEntry, type auditLogsFirstData } from "@/features/console-logs/api";
import { actionTitle, adminName, auditSentence, detailsJson, shortId, showPager, targetDisplay } from "@/features/console-logs/format";
import {
  $auditLogs,
  $auditQuery,
  $auditSearchText,
  $auditSummary,
  auditLogsSeeds,
  clearAuditFilters,
  goToAuditPage,
  reloadAuditLogs,
  setAuditAction,
  setAuditSearch,
} from "@/features/console-logs/stores";

/** The first page and the summary the server read (null parts load here). */
export function AuditLogsPage(props: FirstDataProps<typeof auditLogsFirstData>) {
  return <SeededPage Gate={AdminGate} admin {...props} seeds={auditLogsSeeds} Page={AuditLogs} />;
}

function AuditLogs() {
  const list = useSeededStore($auditLogs);
  return (
    <div className="mx-auto max-w-6xl space-y-6">
      <PageHeader title="Audit Logs" description="Every change an administrator made, newest first.">
        <RefreshButton onRefresh={reloadAuditLogs} pending={list.status === "loading"} />
      </PageHeader>
      <SummaryCards />
      <Filters />
      <EntryList />
    </div>
  );
}

function SummaryCards() {
  const { status, summary, error } = useSeededStore($auditSummary);
  return (
    <section aria-label="Summary" className="space-y-2">
      {status === "error" ? <LoadError message={error} onRetry={reloadAuditLogs} /> : null}
      <StatGrid
        loading={status === "loading" && !summary}
        stats={[
          { label: "Actions Today", value: String(summary?.today ?? 0), icon: Activity, testId: "audit-today" },
          { label: "This Week", value: String(summary?.this_week ?? 0), icon: CalendarDays, testId: "audit-week" },
          { label: "Active Admins", value: String(summary?.active_admins ?? 0), icon: Users, testId: "audit-admins" },
          {
            label: "System Uptime",
            value: summary?.uptime_percent == null ? "No data" : `${summary.uptime_percent}%`,
            icon: ServerCog,
            testId: "audit-uptime",
          },
        ]}
      />
      <p className="text-xs text-slate-500">
        Today starts at 00:00 UTC; This Week, Active Admins and System Uptime (the proxy gateway's) cover the last 7 days.
      </p>
    </section>
  );
}

function Filters() {
  const text = useStore($auditSearchText);
  const { criteria } = useStore($auditQuery);
  const { summary } = useSeededStore($auditSummary);
  const list = useSeededStore($auditLogs);
  const actions = summary?.actions ?? [];
  // Keep the chosen action listed even before the summary (re)loads.
  const options = criteria.action && !actions.includes(criteria.action) ? [criteria.action, ...actions] : actions;
  return (
    <div className="space-y-2">
      <div role="search" aria-label="Filter audit logs" className="grid gap-3 sm:grid-cols-[minmax(0,1fr)_16rem]">
        <SearchField id="audit-search" placeholder="Action, target, admin or details" value={text} onSearch={setAuditSearch} />
        <Field id="audit-action" label="Action">
          <Select id="audit-action" value={criteria.action} onChange={(e) => setAuditAction(e.target.value)}>
            <option value="">All Actions</option>
            <Options values={options} labels={actionTitle} />
          </Select>
        </Field>
      </div>
      <ListCount list={list} one="entry" many="entries" testId="audit-count" />
    </div>
  );
}

const NO_ENTRIES: EmptyTexts = {
  icon: ScrollText,
  title: "No audit log entries found",
  filteredText: "Try adjusting your search or action filter",
  emptyText: "Changes made in the console will appear here",
};

function EntryList() {
  const list = useSeededStore($auditLogs);
  const filtered = list.criteria.search !== "" || list.criteria.action !== "";
  const busy = list.status === "loading";
  const empty = <FilteredEmptyState texts={NO_ENTRIES} filtered={filtered} onClear={clearAuditFilters} />;
  return (
    <PagedListState
      list={list}
      onRetry={reloadAuditLogs}
      loadingLabel="Loading audit logs"
      skeletonClassName="h-24 rounded-xl"
      empty={empty}
    >
      <ul aria-label="Audit log entries" aria-busy={busy} className={cn("space-y-3", busy && "opacity-60")}>
        {list.items.map((entry) => (
          <EntryItem key={entry.id} entry={entry} />
        ))}
      </ul>
      {showPager(list.page, list.items.length, AUDIT_LOGS_PER_PAGE) ? (
        <Pager page={list.page} hasNext={list.page < list.totalPages} onPage={goToAuditPage} disabled={busy} />
      ) : null}
    </PagedListState>
  );
}

function EntryItem({ entry }: { entry: AuditEntry }) {
  const name = adminName(entry.admin_first_name, entry.admin_last_name);
  const details = detailsJson(entry.details);
  return (
    <li className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm" data-testid="audit-entry">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0 space-y-1">
          <p className="flex flex-wrap items-center gap-2">
            <span className="font-semibold text-slate-900" data-testid="audit-action">
              {actionTitle(entry.action)}
            </span>
            {entry.target_type ? <Badge tone="info">{entry.target_type}</Badge> : null}
          </p>
          <p className="text-sm break-words text-slate-800" data-testid="audit-sentence">
            {auditSentence(entry)}
          </p>
          <p className="text-sm break-words text-slate-600">
            {entry.admin_email ? (
              <>
                <span className="font-medium text-slate-800">{name || "Admin"}</span> <span>{entry.admin_email}</span>
              </>
            ) : (
              <span className="italic">{entry.action === "admin.refused" ? "No administrator" : "Deleted administrator"}</span>
            )}
          </p>
        </div>
        <div className="text-right text-xs text-slate-500">
          <LocalDateTime value={entry.created} />
          {entry.target_id ? (
            <p className="break-words">
              Target{" "}
              {entry.target_label && !entry.target_deleted ? (
                <>
                  <span className="text-slate-700" data-testid="audit-target-name">
                    {targetDisplay(entry)}
                  </span>{" "}
                </>
              ) : null}
              <code className="font-mono text-slate-500" title={entry.target_id} data-testid="audit-target">
                {shortId(entry.target_id)}
              </code>
              {entry.target_deleted ? " (deleted)" : null}
            </p>
          ) : null}
        </div>
      </div>
      {details ? (
        <details className="mt-3 text-sm">
          <summary className="cursor-pointer rounded text-slate-600 hover:text-slate-900 focus-visible:ring-2 focus-visible:ring-blue-500 focus-visible:outline-none">
            Show details
          </summary>
          <pre
            // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- a scrolling box must be reachable by keyboard
            tabIndex={0}
            aria-label={`Details of ${actionTitle(entry.action)}`}
            className="mt-2 max-h-64 overflow-auto rounded-md bg-slate-50 p-3 font-mono text-xs text-slate-800"
            data-testid="audit-details"
          >
            {details}
          </pre>
        </details>
      ) : null}
    </li>
  );
}
