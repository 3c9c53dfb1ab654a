// Analytics state: the chosen period and the figures that answer it. A new period aborts
// the request it supersedes.
import { atom, onMount } from "nanostores";
import { errorMessage, isAbort } from "@/lib/api-error";
import { fetchAnalytics, type AnalyticsData, type PeriodDays } from "@/features/console-analytics/api";

export interface AnalyticsState {
  status: "loading" | "ready" | "error";
  data: AnalyticsData | null;
  error: string;
}

export const $period = atom<PeriodDays>(30);
export const $analytics = atom<AnalyticsState>({ status: "loading", data: null, error: "" });
const $reloads = atom(0);

onMount($analytics, () => {
  let controller: AbortController | null = null;
  const load = () => {
    controller?.abort();
    const current = new AbortController();
    controller = current;
    $analytics.set({ ...$analytics.get(), status: "loading", error: "" });
    fetchAnalytics($period.get(), current.signal).then(
      (data) => {
        if (!current.signal.aborted) $analytics.set({ status: "ready", data, error: "" });
      },
      (err: unknown) => {
        if (current.signal.aborted || isAbort(err)) return;
        $analytics.set({ ...$analytics.get(), status: "error", error: errorMessage(err) });
      },
    );
  };
  const offs = [$period.listen(load), $reloads.listen(load)];
  load();
  return () => {
    for (const off of offs) off();
    controller?.abort();
  };
});

export function setPeriod(days: PeriodDays): void {
  if ($period.get() !== days) $period.set(days);
}

export function reloadAnalytics(): void {
  $reloads.set($reloads.get() + 1);
}
