// Settings → Activity (issue #18): the customer's own log from GET /api/v1/activity, newest
// first, paged with "Load more", filtered by event, exported as CSV. The route's types come
// from the API contract; the typed caller sends the route.
import { useEffect, useState } from "react";
import { Download, History } from "lucide-react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { ListState, pagedListState } from "@/components/ui/list-state";
import { LoadMore } from "@/components/ui/load-more";
import { Select } from "@/components/ui/select";
import { api } from "@/lib/api-client";
import type { ResponseOf } from "@/lib/api-contract/define";
import { listActivity, type ActivityKindValue } from "@/lib/api-contract/activity";
import { errorMessage, isAbort } from "@/lib/api-error";
import { formatDateTime, todayStamp } from "@/lib/dates";

type ActivityPage = ResponseOf<typeof listActivity>;
type Activity = ActivityPage["items"][number];

const PAGE_SIZE = 50;
/** The most rows one export holds (pages of 100). */
export const EXPORT_MAX_ROWS = 5000;

/** How each kind of row reads in the Event column (and the filter). */
export const ACTIVITY_LABELS: Record<ActivityKindValue, string> = {
  sign_in: "Sign-in",
  password_changed: "Password changed",
  email_changed: "E-mail changed",
  ip_allowlist_changed: "IP allowlist changed",
  api_key_created: "API key created",
  api_key_changed: "API key changed",
  api_key_revoked: "API key revoked",
  api_key_spent: "API key spent",
  webhook_created: "Webhook created",
  webhook_updated: "Webhook updated",
  webhook_deleted: "Webhook deleted",
  webhook_secret_rotated: "Webhook secret rotated",
  purchase: "Purchase",
  renewal: "Renewal",
  credentials_rotated: "Credentials rotated",
};
const KIND_OPTIONS = Object.entries(ACTIVITY_LABELS) as [ActivityKindValue, string][];

/** One page of the log: `kind` "" for every event. */
function fetchActivity(
  query: { kind: ActivityKindValue | ""; cursor?: string | null; limit?: number },
  signal?: AbortSignal,
): Promise<ActivityPage> {
  return api.call(listActivity, {
    query: {
      limit: String(query.limit ?? PAGE_SIZE),
      ...(query.kind ? { kind: query.kind } : {}),
      ...(query.cursor ? { cursor: query.cursor } : {}),
    },
    ...(signal ? { signal } : {}),
  });
}

const BROWSERS: [RegExp, string][] = [
  [/Edg(e|A|iOS)?\//, "Edge"],
  [/OPR\/|Opera/, "Opera"],
  [/Firefox\/|FxiOS/, "Firefox"],
  [/Chrome\/|CriOS/, "Chrome"],
  [/Safari\//, "Safari"],
  [/^curl\//, "curl"],
  [/python-requests|python-httpx|aiohttp/i, "Python"],
  [/^node|undici|axios/i, "Node.js"],
  [/^Go-http-client/, "Go"],
];
const SYSTEMS: [RegExp, string][] = [
  [/Android/, "Android"],
  [/iPhone|iPad|iOS/, "iOS"],
  [/Windows/, "Windows"],
  [/Mac OS X|Macintosh/, "macOS"],
  [/CrOS/, "ChromeOS"],
  [/Linux/, "Linux"],
];

/** A user agent as a person names it ("Chrome on Linux"), or its first characters. */
export function shortAgent(agent: string): string {
  if (!agent) return "";
  const browser = BROWSERS.find(([pattern]) => pattern.test(agent))?.[1];
  const system = SYSTEMS.find(([pattern]) => pattern.test(agent))?.[1];
  if (browser) return system ? `${browser} on ${system}` : browser;
  return agent.length > 40 ? `${agent.slice(0, 40)}…` : agent;
}

/** Every row the filter matches, up to EXPORT_MAX_ROWS, as CSV text. */
async function activityCsv(kind: ActivityKindValue | ""): Promise<string> {
  const rows: Activity[] = [];
  let cursor: string | null = null;
  do {
    const page: ActivityPage = await fetchActivity({ kind, cursor, limit: 100 });
    rows.push(...page.items);
    cursor = page.next_cursor;
  } while (cursor && rows.length < EXPORT_MAX_ROWS);
  // The CSV writer (papaparse) loads on the first export, not with the panel.
  const { toCsv } = await import("@/lib/csv");
  return toCsv(
    ["Date (UTC)", "Event", "Details", "IP address", "Device", "API key"],
    rows
      .slice(0, EXPORT_MAX_ROWS)
      .map((row) => [row.created, ACTIVITY_LABELS[row.kind], row.summary, row.ip, row.user_agent, row.api_key_name]),
  );
}

type List = { status: "loading" | "ready" | "error"; error: string; items: Activity[]; next: string | null };

/** Settings → Activity: what happened to the account, newest first. */
export function ActivityPanel() {
  const [kind, setKind] = useState<ActivityKindValue | "">("");
  const [attempt, setAttempt] = useState(0);
  const [list, setList] = useState<List>({ status: "loading", error: "", items: [], next: null });
  const [loadingMore, setLoadingMore] = useState(false);
  const [exporting, setExporting] = useState<{ pending: boolean; error: string }>({ pending: false, error: "" });

  useEffect(() => {
    const controller = new AbortController();
    setList({ status: "loading", error: "", items: [], next: null });
    fetchActivity({ kind }, controller.signal).then(
      (page) => setList({ status: "ready", error: "", items: page.items, next: page.next_cursor }),
      (err: unknown) => {
        if (!isAbort(err)) setList({ status: "error", error: errorMessage(err), items: [], next: null });
      },
    );
    return () => controller.abort();
  }, [kind, attempt]);

  const loadMore = async () => {
    if (!list.next || loadingMore) return;
    setLoadingMore(true);
    try {
      const page = await fetchActivity({ kind, cursor: list.next });
      setList((current) => ({ status: "ready", error: "", items: [...current.items, ...page.items], next: page.next_cursor }));
    } catch (err) {
      setList((current) => ({ ...current, status: "error", error: errorMessage(err) }));
    } finally {
      setLoadingMore(false);
    }
  };

  const exportCsv = async () => {
    if (exporting.pending) return;
    setExporting({ pending: true, error: "" });
    try {
      const [csv, { downloadText }] = await Promise.all([activityCsv(kind), import("@/lib/csv")]);
      downloadText(`activity-${todayStamp(new Date())}.csv`, csv);
      setExporting({ pending: false, error: "" });
    } catch (err) {
      setExporting({ pending: false, error: `The export failed: ${errorMessage(err)}` });
    }
  };

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h2 className="flex items-center gap-2 text-lg font-semibold text-slate-900">
            <History className="size-5" aria-hidden="true" /> Activity
          </h2>
          <p className="text-sm text-slate-600">Sign-ins, security changes, API keys, webhooks, purchases and rotations on your account.</p>
        </div>
        <div className="flex flex-wrap items-end gap-2">
          <div className="space-y-1">
            <label htmlFor="activity-kind" className="block text-sm font-medium text-slate-700">
              Event
            </label>
            <Select
              id="activity-kind"
              value={kind}
              onChange={(event) => setKind(event.target.value as ActivityKindValue | "")}
              className="w-56"
            >
              <option value="">All events</option>
              {KIND_OPTIONS.map(([value, label]) => (
                <option key={value} value={value}>
                  {label}
                </option>
              ))}
            </Select>
          </div>
          <Button variant="secondary" onClick={() => void exportCsv()} pending={exporting.pending} pendingText="Exporting...">
            <Download className="size-4" aria-hidden="true" />
            Export CSV
          </Button>
        </div>
      </div>
      {exporting.error ? <Alert tone="error">{exporting.error}</Alert> : null}
      <ListState
        {...pagedListState(list)}
        onRetry={() => setAttempt((n) => n + 1)}
        loadingLabel="Loading your activity"
        emptyState={
          <EmptyState
            icon={History}
            title="No activity yet"
            text={kind ? "Nothing of this kind has happened on your account." : "Sign-ins and changes to your account show here."}
          />
        }
        skeletonClassName="h-10"
      >
        <div className="overflow-x-auto rounded-lg border border-slate-200">
          <table className="w-full text-left text-sm" data-testid="activity-table">
            <thead className="bg-slate-50 text-xs font-semibold tracking-wide text-slate-600 uppercase">
              <tr>
                <th scope="col" className="px-3 py-2">
                  When
                </th>
                <th scope="col" className="px-3 py-2">
                  Event
                </th>
                <th scope="col" className="px-3 py-2">
                  Details
                </th>
                <th scope="col" className="px-3 py-2">
                  IP address
                </th>
                <th scope="col" className="px-3 py-2">
                  Device
                </th>
                <th scope="col" className="px-3 py-2">
                  API key
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {list.items.map((row) => (
                <tr key={row.id} className="align-top">
                  <td className="px-3 py-2 whitespace-nowrap text-slate-600">
                    <time dateTime={row.created}>{formatDateTime(row.created)}</time>
                  </td>
                  <td className="px-3 py-2 whitespace-nowrap text-slate-900">{ACTIVITY_LABELS[row.kind]}</td>
                  <td className="px-3 py-2 break-words text-slate-900">{row.summary}</td>
                  <td className="px-3 py-2 font-mono text-xs whitespace-nowrap text-slate-700">{row.ip || "-"}</td>
                  <td className="px-3 py-2 text-slate-700" title={row.user_agent || undefined}>
                    {shortAgent(row.user_agent) || "-"}
                  </td>
                  <td className="px-3 py-2 text-slate-700">{row.api_key_name || "-"}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <LoadMore shown={list.next !== null} pending={loadingMore} onLoad={() => void loadMore()}>
            Load more
          </LoadMore>
        </div>
      </ListState>
    </div>
  );
}
