// Analytics read: the contract's getAnalytics (GET /api/admin/analytics?days=), through the typed caller.
import { api } from "@/lib/api-client";
import { getAnalytics } from "@/lib/api-contract/admin/insights";
import type { ResponseOf } from "@/lib/api-contract/define";

export const PERIODS = [
  { days: 7, label: "Last 7 days" },
  { days: 30, label: "Last 30 days" },
  { days: 90, label: "Last 90 days" },
] as const;

export type PeriodDays = (typeof PERIODS)[number]["days"];

export type AnalyticsData = ResponseOf<typeof getAnalytics>;
/**
 * A figure of the period against the previous period of the same length, with the caption
 * the server words: "+12% vs previous 30 days", "No change" or "New" (change_percent null).
 */
export type Growth = AnalyticsData["growth"]["users"];
/** The gateway's metering over the period (hourly rows: the hours that begin in it). */
export type Performance = AnalyticsData["performance"];

export function fetchAnalytics(days: PeriodDays, signal?: AbortSignal): Promise<AnalyticsData> {
  return api.call(getAnalytics, { query: { days: `${days}` }, ...(signal ? { signal } : {}) });
}
