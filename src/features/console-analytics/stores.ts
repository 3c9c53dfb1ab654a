// Analytics state: the chosen period and the figures that answer it. A new period aborts
// the request it supersedes.
import { atom } from "nanostores";
import { keepLoaded } from "@/lib/keep-loaded";
import { fetchAnalytics, type AnalyticsData, type PeriodDays } from "@/features/console-analytics/api";

export interface AnalyticsState {
  status: "loading" | "ready" | "error";
  data: AnalyticsData | null;
  error: string;
}

export const $period = atom<PeriodDays>(30);
export const $analytics = atom<AnalyticsState>({ status: "loading", data: null, error: "" });
const $reloads = atom(0);

keepLoaded($analytics, [$period, $reloads], async (signal) => ({
  status: "ready",
  data: await fetchAnalytics($period.get(), signal),
  error: "",
}));

export function setPeriod(days: PeriodDays): void {
  if ($period.get() !== days) $period.set(days);
}

export function reloadAnalytics(): void {
  $reloads.set($reloads.get() + 1);
}
