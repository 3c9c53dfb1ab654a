// This month's traffic of each of my active proxies (issue #16): one request for the whole
// page (GET /api/v1/proxies/usage-summary), made after the list is ready, so the page's
// first render does not wait for it. Read again whenever the list loads again (Refresh, a
// new page or filter). A failed read shows no new figures: the cards work without them.
import { atom, computed } from "nanostores";
import { api } from "@/lib/api-client";
import { getProxyUsageSummary } from "@/lib/api-contract/proxies";
import { formatDateUtc } from "@/lib/dates";
import { keepLoaded } from "@/lib/keep-loaded";
import type { MonthUsage } from "@/lib/month-usage";
import { $proxyList } from "@/features/proxies/stores";

export interface MonthUsageState {
  status: "loading" | "ready" | "error";
  error: string;
  /** Each proxy's month by its id (a proxy missing: no figures). */
  usage: Readonly<Record<string, MonthUsage>>;
}

export const $monthUsage = atom<MonthUsageState>({ status: "loading", error: "", usage: {} });

/** Whether the list is ready: each time it becomes ready, the figures are read again. */
const $listReady = computed($proxyList, (list) => list.status === "ready");

keepLoaded($monthUsage, [$listReady], async (signal) =>
  $listReady.get() ? { status: "ready", error: "", usage: await api.call(getProxyUsageSummary, { signal }) } : null,
);

/** "2026-12-01" -> "Dec 01, 2026": the day as every date of the dashboard is written (lib/dates.ts). */
export function renewsLabel(date: string): string {
  return formatDateUtc(`${date} 00:00:00.000Z`);
}
