// Analytics read: GET /api/admin/analytics?days= (console-insights.pb.js).
import { pb } from "@/lib/pocketbase";

export const PERIODS = [
  { days: 7, label: "Last 7 days" },
  { days: 30, label: "Last 30 days" },
  { days: 90, label: "Last 90 days" },
] as const;

export type PeriodDays = (typeof PERIODS)[number]["days"];

/**
 * A figure of the period against the previous period of the same length (the one just
 * before it), with the caption the server words: "+12% vs previous 30 days", "-4% vs
 * previous 30 days", "No change" (equal, or a change that rounds to 0%) or "New" (nothing
 * before; change_percent null then).
 */
export interface Growth {
  current: number;
  previous: number;
  change_percent: number | null;
  caption: string;
}

/** One gateway process's uptime over the period (from when it first reported, if later). */
export interface GatewayUptime {
  gateway: string;
  up_seconds: number;
  /** Seconds from the period's start (or the gateway's first report) until now. */
  seconds: number;
  /** The moment those seconds are counted from (a PocketBase date). */
  since: string;
  uptime_percent: number | null;
}

/** Proxy traffic from the gateway's hourly usage rows. */
export interface Traffic {
  bytes_up: number;
  bytes_down: number;
  bytes: number;
  connections: number;
  failed_connections: number;
}

/** The gateway's metering over the period (hourly rows: the hours that begin in it). */
export interface Performance {
  /** Connections that reached their target. */
  connections_ok: number;
  /** Connections that could not (target refused or unreachable, upstream down). */
  connections_failed: number;
  /** ok / (ok + failed), one decimal; null without connections. */
  success_rate_percent: number | null;
  /** Connect times: counts per bucket, upper bounds 1, 2, 5 ... 5000 ms, then slower. */
  connect_ms_histogram: number[];
  /**
   * The bucket holding the median connect time: at least half of the connections had
   * connected within at_most_ms; over_ms (5000) when that is the open last bucket. Null
   * without connections.
   */
  median_connect: { at_most_ms: number | null; over_ms: number | null } | null;
  /** The average of the gateways' own uptimes; null when no gateway reported. */
  uptime_percent: number | null;
  gateways: GatewayUptime[];
  traffic: Traffic;
  traffic_growth: Growth;
  connections_growth: Growth;
}

export interface AnalyticsData {
  days: number;
  total_users: number;
  /** Money kept from Stripe payments (minus refunds and lost disputes). */
  total_revenue_cents: number;
  /** Test-provider payments: no money moved, never revenue. */
  test_payments_cents: number;
  total_proxies: number;
  avg_revenue_per_user_cents: number;
  period_new_users: number;
  period_revenue_cents: number;
  user_growth: { date: string; count: number }[];
  revenue: { date: string; cents: number }[];
  proxy_usage: { by_type: Record<string, number>; by_country: { country: string; count: number }[] };
  /** The cards' captions: the period's new accounts, money kept, proxies added and money kept per account. */
  growth: { users: Growth; revenue: Growth; proxies: Growth; avg_revenue_per_user: Growth };
  performance: Performance;
}

export function fetchAnalytics(days: PeriodDays, signal?: AbortSignal): Promise<AnalyticsData> {
  return pb().send<AnalyticsData>("/api/admin/analytics", {
    method: "GET",
    query: { days },
    requestKey: null,
    ...(signal ? { signal } : {}),
  });
}
