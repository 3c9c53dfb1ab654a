// /console/analytics (admin spec 2, "Analytics"; issue #16): all-time cards whose captions
// compare the period's activity with the previous period of the same length (computed by
// the server), user growth and daily revenue over the chosen period as charts (each with a
// text summary and a data table), proxies in customers' hands by type and top countries,
// and the gateway's Performance Metrics over the period.
import { useStore } from "@nanostores/react";
import { DollarSign, Server, TrendingUp, Users } from "lucide-react";
import { AdminGate } from "@/components/session/admin-gate";
import { LoadError } from "@/components/ui/alert";
import { Field } from "@/components/ui/field";
import { PageHeader } from "@/components/ui/page-header";
import { Select } from "@/components/ui/select";
import { StatGrid } from "@/components/ui/stat-grid";
import { formatCents } from "@/lib/money";
import { PERIODS, type AnalyticsData, type PeriodDays } from "@/features/console-analytics/api";
import { DailyRevenue, UserGrowth } from "@/features/console-analytics/components/day-panels";
import { ProxyUsage, TopCountries } from "@/features/console-analytics/components/usage-panels";
import { GrowthCaption } from "@/features/console-analytics/components/growth-caption";
import { PerformanceMetrics } from "@/features/console-analytics/components/performance-panel";
import { formatCount } from "@/features/console-analytics/format";
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
      <PageHeader title="Analytics" description="Sign-ups, money received and proxy usage. Days are UTC days.">
        <Field id="analytics-period" label="Period" className="w-48">
          <Select id="analytics-period" value={period} onChange={(e) => setPeriod(Number(e.target.value) as PeriodDays)}>
            {PERIODS.map((p) => (
              <option key={p.days} value={p.days}>
                {p.label}
              </option>
            ))}
          </Select>
        </Field>
      </PageHeader>

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

      <PerformanceMetrics data={data} periodLabel={periodLabel} />
    </div>
  );
}

/** The spec's all-time cards; each caption compares the period's activity with the previous period's. */
const CARDS = [
  {
    label: "Total Users",
    figure: (d: AnalyticsData) => formatCount(d.total_users),
    growth: (d: AnalyticsData) => d.growth.users,
    detail: (d: AnalyticsData) => `${formatCount(d.growth.users.current)} new in the period`,
    icon: Users,
    testId: "card-users",
  },
  {
    label: "Total Revenue",
    figure: (d: AnalyticsData) => formatCents(d.total_revenue_cents),
    growth: (d: AnalyticsData) => d.growth.revenue,
    detail: (d: AnalyticsData) => `${formatCents(d.growth.revenue.current)} kept in the period`,
    icon: DollarSign,
    testId: "card-revenue",
  },
  {
    label: "Total Proxies",
    figure: (d: AnalyticsData) => formatCount(d.total_proxies),
    growth: (d: AnalyticsData) => d.growth.proxies,
    detail: (d: AnalyticsData) => `${formatCount(d.growth.proxies.current)} added in the period`,
    icon: Server,
    testId: "card-proxies",
  },
  {
    label: "Avg Revenue/User",
    figure: (d: AnalyticsData) => formatCents(d.avg_revenue_per_user_cents),
    growth: (d: AnalyticsData) => d.growth.avg_revenue_per_user,
    detail: (d: AnalyticsData) => `${formatCents(d.growth.avg_revenue_per_user.current)} per account in the period`,
    icon: TrendingUp,
    testId: "card-arpu",
  },
] as const;

function Cards({ data }: { data: AnalyticsData | null }) {
  return (
    <section aria-label="Totals, all time" className="space-y-2">
      <StatGrid
        loading={!data}
        stats={CARDS.map(({ figure, growth, detail, ...card }) => ({
          ...card,
          value: data ? figure(data) : "",
          caption: data ? (
            <>
              <GrowthCaption growth={growth(data)} />
              <span className="block text-slate-500">{detail(data)}</span>
            </>
          ) : undefined,
        }))}
      />
      <p className="text-sm text-slate-600">
        Totals are all time. Each caption compares the period&apos;s new accounts, money kept, proxies added and money kept per account with
        the previous period of the same length.
      </p>
      {data && data.test_payments_cents > 0 ? (
        <p className="text-sm text-slate-600" data-testid="analytics-test-payments">
          <span className="mr-2 rounded bg-violet-100 px-1.5 py-0.5 text-xs font-semibold text-violet-800">Test</span>
          Test payments (no money moved): {formatCents(data.test_payments_cents)}, not counted in revenue.
        </p>
      ) : null}
    </section>
  );
}
