// /console/analytics (admin spec 2, "Analytics"): all-time cards with the spec's fixed
// captions, user growth and daily revenue over the chosen period as charts (each with a
// text summary and a data table), proxies in customers' hands by type and top countries,
// and the fixed Performance Metrics block.
import { useStore } from "@nanostores/react";
import { BarChart3, DollarSign, Globe2, Server, TrendingUp, Users } from "lucide-react";
import { useCallback, useMemo, type ReactNode } from "react";
import { AdminGate } from "@/components/session/admin-gate";
import { LoadError } from "@/components/ui/alert";
import { Card } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { Field } from "@/components/ui/field";
import { Select } from "@/components/ui/select";
import { Skeleton } from "@/components/ui/skeleton";
import { formatCents } from "@/lib/money";
import { PERIODS, PROXY_TYPE_LABELS, type AnalyticsData, type PeriodDays } from "@/features/console-analytics/api";
import { DayChart } from "@/features/console-analytics/components/day-chart";
import { formatCount, formatWholeDollars, percent, shortDay } from "@/features/console-analytics/format";
import { $analytics, $period, reloadAnalytics, setPeriod } from "@/features/console-analytics/stores";

export function AnalyticsPage() {
  return <AdminGate>{() => <Analytics />}</AdminGate>;
}

function Analytics() {
  const period = useStore($period);
  const state = useStore($analytics);
  const data = state.data;
  const periodLabel = PERIODS.find((p) => p.days === period)?.label ?? "";
  return (
    <div className="mx-auto max-w-7xl space-y-6" aria-busy={state.status === "loading"}>
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-2xl font-bold text-slate-900">Analytics</h1>
          <p className="text-sm text-slate-600">Sign-ups, money received and proxy usage. Days are UTC days.</p>
        </div>
        <Field id="analytics-period" label="Period" className="w-48">
          <Select id="analytics-period" value={period} onChange={(e) => setPeriod(Number(e.target.value) as PeriodDays)}>
            {PERIODS.map((p) => (
              <option key={p.days} value={p.days}>
                {p.label}
              </option>
            ))}
          </Select>
        </Field>
      </div>

      {state.status === "error" ? <LoadError message={state.error} onRetry={reloadAnalytics} /> : null}

      <Cards data={data} />

      <div className="grid gap-6 lg:grid-cols-2">
        <UserGrowth data={data} periodLabel={periodLabel} />
        <DailyRevenue data={data} periodLabel={periodLabel} />
      </div>

      <div className="grid gap-6 lg:grid-cols-2">
        <ProxyUsage data={data} />
        <TopCountries data={data} />
      </div>

      <PerformanceMetrics />
    </div>
  );
}

function Cards({ data }: { data: AnalyticsData | null }) {
  const cards = [
    { label: "Total Users", value: data ? formatCount(data.total_users) : "", caption: "+12%", icon: Users, testId: "card-users" },
    {
      label: "Total Revenue",
      value: data ? formatCents(data.total_revenue_cents) : "",
      caption: "+8%",
      icon: DollarSign,
      testId: "card-revenue",
    },
    { label: "Total Proxies", value: data ? formatCount(data.total_proxies) : "", caption: "+25%", icon: Server, testId: "card-proxies" },
    {
      label: "Avg Revenue/User",
      value: data ? formatCents(data.avg_revenue_per_user_cents) : "",
      caption: "Stable",
      icon: TrendingUp,
      testId: "card-arpu",
    },
  ];
  return (
    <section aria-label="Totals, all time" className="space-y-2">
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        {cards.map((card) => (
          <Card key={card.label} role="group" aria-label={card.label} className="flex items-start justify-between gap-3">
            <div className="min-w-0">
              <p className="text-sm text-slate-500">{card.label}</p>
              {data ? (
                <p className="mt-1 text-2xl font-bold text-slate-900" data-testid={card.testId}>
                  {card.value}
                </p>
              ) : (
                <Skeleton className="mt-2 h-7 w-20" />
              )}
              <p className="mt-1 text-xs">
                <span className="font-medium text-green-700">{card.caption}</span> <span className="text-slate-500">All time</span>
              </p>
            </div>
            <span className="rounded-lg bg-primary/10 p-2 text-primary">
              <card.icon className="size-5" aria-hidden="true" />
            </span>
          </Card>
        ))}
      </div>
      {data && data.test_payments_cents > 0 ? (
        <p className="text-sm text-slate-600" data-testid="analytics-test-payments">
          <span className="mr-2 rounded bg-violet-100 px-1.5 py-0.5 text-xs font-semibold text-violet-800">Test</span>
          Test payments (no money moved): {formatCents(data.test_payments_cents)}, not counted in revenue.
        </p>
      ) : null}
    </section>
  );
}

function Panel({ title, subtitle, children, id }: { title: string; subtitle?: ReactNode; children: ReactNode; id: string }) {
  return (
    <Card role="region" aria-labelledby={id} className="min-w-0 space-y-3">
      <div>
        <h2 id={id} className="text-lg font-semibold text-slate-900">
          {title}
        </h2>
        {subtitle ? <p className="text-sm text-slate-600">{subtitle}</p> : null}
      </div>
      {children}
    </Card>
  );
}

function ChartSkeleton() {
  return <Skeleton className="h-56 w-full rounded-lg" />;
}

/** The figures behind a chart as a table, folded away (the chart's text alternative). */
function DataTable({ caption, rows, valueHeader }: { caption: string; rows: [string, string][]; valueHeader: string }) {
  return (
    <details className="text-sm">
      <summary className="cursor-pointer text-primary">Show data</summary>
      <div tabIndex={0} role="region" aria-label={caption} className="mt-2 max-h-64 overflow-y-auto rounded-md border border-slate-200">
        <table className="w-full">
          <caption className="sr-only">{caption}</caption>
          <thead className="sticky top-0 bg-slate-50">
            <tr>
              <th scope="col" className="px-3 py-2 text-left font-medium text-slate-600">
                Day (UTC)
              </th>
              <th scope="col" className="px-3 py-2 text-right font-medium text-slate-600">
                {valueHeader}
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {rows.map(([day, value]) => (
              <tr key={day}>
                <td className="px-3 py-1.5 text-slate-700">{day}</td>
                <td className="px-3 py-1.5 text-right text-slate-900 tabular-nums">{value}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </details>
  );
}

function UserGrowth({ data, periodLabel }: { data: AnalyticsData | null; periodLabel: string }) {
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
              : `${formatCount(data.period_new_users)} new ${data.period_new_users === 1 ? "user" : "users"}; the busiest day was ${shortDay(busiest?.date ?? "")} with ${formatCount(busiest?.count ?? 0)}.`}
          </p>
          <DayChart dates={dates} values={values} formatValue={format} kind="line" label="New users" testId="user-growth-chart" />
          <DataTable
            caption="New users per day"
            valueHeader="New users"
            rows={[...data.user_growth].reverse().map((d) => [shortDay(d.date), formatCount(d.count)])}
          />
        </>
      ) : (
        <ChartSkeleton />
      )}
    </Panel>
  );
}

function DailyRevenue({ data, periodLabel }: { data: AnalyticsData | null; periodLabel: string }) {
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
          <DataTable
            caption="Revenue per day, whole dollars"
            valueHeader="Revenue"
            rows={[...data.revenue].reverse().map((d) => [shortDay(d.date), formatWholeDollars(d.cents)])}
          />
        </>
      ) : (
        <ChartSkeleton />
      )}
    </Panel>
  );
}

function BarList({ rows, label }: { rows: { name: string; count: number }[]; label: string }) {
  const total = rows.reduce((sum, r) => sum + r.count, 0);
  const max = Math.max(1, ...rows.map((r) => r.count));
  return (
    <ul aria-label={label} className="space-y-3">
      {rows.map((row) => (
        <li key={row.name} className="space-y-1" data-testid="usage-row">
          <div className="flex items-center justify-between gap-2 text-sm">
            <span className="text-slate-700">{row.name}</span>
            <span className="text-slate-900 tabular-nums">
              {formatCount(row.count)} <span className="text-slate-500">({percent(row.count, total)}%)</span>
            </span>
          </div>
          <div className="h-2 rounded-full bg-slate-100" aria-hidden="true">
            <div className="h-2 rounded-full bg-primary" style={{ width: `${(row.count / max) * 100}%` }} />
          </div>
        </li>
      ))}
    </ul>
  );
}

function ProxyUsage({ data }: { data: AnalyticsData | null }) {
  const rows = data
    ? Object.entries(data.proxy_usage.by_type).map(([type, count]) => ({ name: PROXY_TYPE_LABELS[type] ?? type, count }))
    : [];
  const total = rows.reduce((sum, r) => sum + r.count, 0);
  return (
    <Panel id="proxy-usage-title" title="Proxy Usage by Type" subtitle="Proxies in customers' hands now (assigned)">
      {!data ? (
        <ChartSkeleton />
      ) : total === 0 ? (
        <EmptyState icon={BarChart3} title="No proxies in use" text="Proxies customers buy appear here." />
      ) : (
        <BarList rows={rows} label="Assigned proxies by type" />
      )}
    </Panel>
  );
}

function TopCountries({ data }: { data: AnalyticsData | null }) {
  const rows = data?.proxy_usage.by_country.map((c) => ({ name: c.country || "Unknown", count: c.count })) ?? [];
  return (
    <Panel id="top-countries-title" title="Top Countries" subtitle="Top 5 countries of the proxies in customers' hands">
      {!data ? (
        <ChartSkeleton />
      ) : rows.length === 0 ? (
        <EmptyState icon={Globe2} title="No proxies in use" text="Countries appear once customers buy proxies." />
      ) : (
        <BarList rows={rows} label="Assigned proxies by country" />
      )}
    </Panel>
  );
}

function PerformanceMetrics() {
  const metrics = [
    { label: "Uptime", value: "99.9%" },
    { label: "Average Response", value: "45ms" },
    { label: "Success Rate", value: "98.5%" },
  ];
  return (
    <Panel id="performance-title" title="Performance Metrics">
      <dl className="grid gap-4 sm:grid-cols-3">
        {metrics.map((m) => (
          <div key={m.label} className="rounded-lg bg-slate-50 p-4 text-center">
            <dd className="text-2xl font-bold text-slate-900">{m.value}</dd>
            <dt className="text-sm text-slate-600">{m.label}</dt>
          </div>
        ))}
      </dl>
    </Panel>
  );
}
