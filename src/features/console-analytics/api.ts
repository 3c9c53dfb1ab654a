// Analytics read: GET /api/admin/analytics?days= (console-insights.pb.js).
import { pb } from "@/lib/pocketbase";

export const PERIODS = [
  { days: 7, label: "Last 7 days" },
  { days: 30, label: "Last 30 days" },
  { days: 90, label: "Last 90 days" },
] as const;

export type PeriodDays = (typeof PERIODS)[number]["days"];

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
}

export function fetchAnalytics(days: PeriodDays, signal?: AbortSignal): Promise<AnalyticsData> {
  return pb().send<AnalyticsData>("/api/admin/analytics", {
    method: "GET",
    query: { days },
    requestKey: null,
    ...(signal ? { signal } : {}),
  });
}
