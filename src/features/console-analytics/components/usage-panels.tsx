// Proxies in customers' hands: by type and the top countries, as labelled bars.
import { BarChart3, Globe2 } from "lucide-react";
import { EmptyState } from "@/components/ui/empty-state";
import { isProxyType, PROXY_TYPE_LABELS } from "@/lib/catalog";
import type { AnalyticsData } from "@/features/console-analytics/api";
import { ChartSkeleton, Panel } from "@/features/console-analytics/components/analytics-panel";
import { formatCount, percent } from "@/features/console-analytics/format";

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

export function ProxyUsage({ data }: { data: AnalyticsData | null }) {
  const rows = data
    ? Object.entries(data.proxy_usage.by_type).map(([type, count]) => ({ name: isProxyType(type) ? PROXY_TYPE_LABELS[type] : type, count }))
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

export function TopCountries({ data }: { data: AnalyticsData | null }) {
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
