// Performance Metrics: the gateway's own figures over the chosen period (issue #16), from
// its hourly metering: success rate, median connect time, uptime, traffic and connections.
// A figure without data says so instead of showing a number.
import type { ReactNode } from "react";
import { Skeleton } from "@/components/ui/skeleton";
import type { AnalyticsData, Performance } from "@/features/console-analytics/api";
import { Panel } from "@/features/console-analytics/components/analytics-panel";
import { formatBytes, formatCount, formatMedianConnect, formatPercent } from "@/features/console-analytics/format";
import { GrowthCaption } from "@/features/console-analytics/components/growth-caption";
import { plural } from "@/lib/plural";

interface Metric {
  label: string;
  /** The figure, or null when there is no data (then `empty` is shown instead). */
  value: string | null;
  empty: string;
  testId: string;
  caption: ReactNode;
}

/** Clients refused before they became connections (407, 429), said apart (issue #28). */
function refusedLine(refused: number): ReactNode {
  return refused > 0 ? (
    <span className="block text-slate-500" data-testid="perf-refused">
      {plural(refused, "client", "clients")} refused (407/429), not counted
    </span>
  ) : null;
}

function metrics(p: Performance): Metric[] {
  // One count of connections (issue #28): the gateways' authorised attempts, reached or failed.
  const attempts = p.traffic.connections;
  const several = p.gateways.length > 1;
  return [
    {
      label: "Success Rate",
      value: p.success_rate_percent === null ? null : formatPercent(p.success_rate_percent),
      empty: "No connections yet",
      testId: "perf-success",
      caption:
        attempts > 0
          ? `${formatCount(p.connections_ok)} of ${formatCount(attempts)} connections reached their target`
          : "Share of connections that reached their target",
    },
    {
      label: "Median Connect Time",
      value: p.median_connect ? formatMedianConnect(p.median_connect) : null,
      empty: "No connections yet",
      testId: "perf-median",
      caption: "At least half of the connections reached their target within this time bucket",
    },
    {
      label: "Gateway Uptime",
      value: p.uptime_percent === null ? null : formatPercent(p.uptime_percent),
      empty: "No gateway reports yet",
      testId: "perf-uptime",
      caption: several ? (
        <>
          Average of {p.gateways.length} gateways:{" "}
          {p.gateways.map((g) => `${g.gateway} ${g.uptime_percent === null ? "no data" : formatPercent(g.uptime_percent)}`).join(", ")}
        </>
      ) : p.gateways[0] ? (
        `Gateway ${p.gateways[0].gateway}, counted from when it first reported or the period's start`
      ) : (
        "The gateway's own time up, from when it first reported"
      ),
    },
    {
      label: "Traffic",
      value: p.traffic.bytes > 0 ? formatBytes(p.traffic.bytes) : null,
      empty: "No traffic yet",
      testId: "perf-traffic",
      caption:
        p.traffic.bytes > 0 || p.traffic_growth.previous > 0 ? (
          <>
            <GrowthCaption growth={p.traffic_growth} />
            <span className="block text-slate-500">
              {formatBytes(p.traffic.bytes_up)} up, {formatBytes(p.traffic.bytes_down)} down
            </span>
          </>
        ) : (
          "Bytes up and down through the gateway"
        ),
    },
    {
      label: "Connections",
      value: p.traffic.connections > 0 ? formatCount(p.traffic.connections) : null,
      empty: "No connections yet",
      testId: "perf-connections",
      caption:
        p.traffic.connections > 0 || p.connections_growth.previous > 0 || p.connections_refused > 0 ? (
          <>
            <GrowthCaption growth={p.connections_growth} />
            {p.traffic.failed_connections > 0 ? (
              <span className="block text-slate-500">{formatCount(p.traffic.failed_connections)} failed to reach their target</span>
            ) : null}
            {refusedLine(p.connections_refused)}
          </>
        ) : (
          "Attempts through the gateway to reach a target"
        ),
    },
  ];
}

export function PerformanceMetrics({ data, periodLabel }: { data: AnalyticsData | null; periodLabel: string }) {
  return (
    <Panel
      id="performance-title"
      title="Performance Metrics"
      subtitle={`The proxy gateway's metering, ${periodLabel.toLowerCase()} (hourly). Uptime is each gateway's time up since the period began (or since it first reported); with several gateways, their average.`}
    >
      {!data ? (
        <Skeleton className="h-28 w-full rounded-lg" />
      ) : (
        <dl className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {metrics(data.performance).map((m) => (
            <Figure key={m.label} metric={m} />
          ))}
        </dl>
      )}
    </Panel>
  );
}

function Figure({ metric }: { metric: Metric }) {
  return (
    <div className="flex flex-col rounded-lg bg-slate-50 p-4 text-center">
      <dt className="order-2 text-sm font-medium text-slate-700">{metric.label}</dt>
      <dd className="order-1 text-2xl font-bold text-slate-900" data-testid={metric.testId}>
        {metric.value ?? <span className="block text-base leading-8 font-semibold text-slate-500">{metric.empty}</span>}
      </dd>
      <dd className="order-3 mt-1 text-xs text-slate-600">{metric.caption}</dd>
    </div>
  );
}
