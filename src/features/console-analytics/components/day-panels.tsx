// User Growth and Daily Revenue: a summary line, the chart, and the figures behind it as
// a folded table (the chart's text alternative).
import { createColumnHelper } from "@tanstack/react-table";
import { useCallback, useMemo } from "react";
import { DataTable, type ColumnDef } from "@/components/ui/data-table";
import type { AnalyticsData } from "@/features/console-analytics/api";
import { ChartSkeleton, Panel } from "@/features/console-analytics/components/analytics-panel";
import { DayChart } from "@/features/console-analytics/components/day-chart";
import { formatCount, formatWholeDollars, shortDay } from "@/features/console-analytics/format";
import { plural } from "@/lib/plural";

interface DayRow {
  /** The UTC day, YYYY-MM-DD. */
  id: string;
  day: string;
  value: string;
}

const column = createColumnHelper<DayRow>();
const TIGHT = "px-3 py-1.5";

const dayColumns = (valueHeader: string) => [
  column.accessor("day", { header: "Day (UTC)", meta: { className: TIGHT, cellClassName: "text-slate-700" } }),
  column.accessor("value", {
    header: valueHeader,
    meta: { className: `${TIGHT} text-right`, cellClassName: "text-slate-900 tabular-nums" },
  }),
];
const GROWTH_COLUMNS = dayColumns("New users");
const REVENUE_COLUMNS = dayColumns("Revenue");

function DayTable({ caption, columns, rows }: { caption: string; columns: ColumnDef<DayRow, string>[]; rows: DayRow[] }) {
  return (
    <details className="text-sm">
      <summary className="cursor-pointer text-primary">Show data</summary>
      <DataTable
        columns={columns}
        data={rows}
        label={caption}
        caption={caption}
        frameClassName="mt-2 max-h-64 overflow-y-auto rounded-md border border-slate-200"
      />
    </details>
  );
}

export function UserGrowth({ data, periodLabel }: { data: AnalyticsData | null; periodLabel: string }) {
  const dates = useMemo(() => data?.user_growth.map((d) => d.date) ?? [], [data]);
  const values = useMemo(() => data?.user_growth.map((d) => d.count) ?? [], [data]);
  const format = useCallback((n: number) => formatCount(n), []);
  const busiest = data?.user_growth.reduce((best, d) => (d.count > best.count ? d : best), { date: "", count: 0 });
  return (
    <Panel id="user-growth-title" title="User Growth" subtitle={`New accounts per day, ${periodLabel.toLowerCase()}`}>
      {data ? (
        <>
          <p className="text-sm text-slate-700" data-testid="user-growth-summary">
            {data.period_new_users === 0
              ? "No new users in this period."
              : `${plural(data.period_new_users, "new user", "new users")}; the busiest day was ${shortDay(busiest?.date ?? "")} with ${formatCount(busiest?.count ?? 0)}.`}
          </p>
          <DayChart dates={dates} values={values} formatValue={format} kind="line" label="New users" testId="user-growth-chart" />
          <DayTable
            caption="New users per day"
            columns={GROWTH_COLUMNS}
            rows={[...data.user_growth].reverse().map((d) => ({ id: d.date, day: shortDay(d.date), value: formatCount(d.count) }))}
          />
        </>
      ) : (
        <ChartSkeleton />
      )}
    </Panel>
  );
}

export function DailyRevenue({ data, periodLabel }: { data: AnalyticsData | null; periodLabel: string }) {
  const dates = useMemo(() => data?.revenue.map((d) => d.date) ?? [], [data]);
  const values = useMemo(() => data?.revenue.map((d) => d.cents) ?? [], [data]);
  const format = useCallback((cents: number) => formatWholeDollars(cents), []);
  return (
    <Panel
      id="daily-revenue-title"
      title="Daily Revenue"
      subtitle={`Money received per day (paid credit purchases), ${periodLabel.toLowerCase()}`}
    >
      {data ? (
        <>
          <p className="text-sm text-slate-700" data-testid="revenue-summary">
            {data.period_revenue_cents === 0
              ? "No revenue in this period."
              : `${formatWholeDollars(data.period_revenue_cents)} received in this period.`}
          </p>
          <DayChart dates={dates} values={values} formatValue={format} kind="bars" label="Revenue" testId="revenue-chart" />
          <DayTable
            caption="Revenue per day, whole dollars"
            columns={REVENUE_COLUMNS}
            rows={[...data.revenue].reverse().map((d) => ({ id: d.date, day: shortDay(d.date), value: formatWholeDollars(d.cents) }))}
          />
        </>
      ) : (
        <ChartSkeleton />
      )}
    </Panel>
  );
}
