// Overview state: the figures and what System Alerts reads, loaded together when the page
// mounts and on "Try again"; seeded with the server's first data when the page rendered both.
import { atom } from "nanostores";
import { keepLoaded } from "@/lib/keep-loaded";
import { fetchOverview, fetchSystemAlerts, type AdminOverview, type SystemAlerts } from "@/features/console-overview/api";

export interface OverviewState {
  status: "loading" | "ready" | "error";
  data: AdminOverview | null;
  alerts: SystemAlerts | null;
  error: string;
}

export const $overview = atom<OverviewState>({ status: "loading", data: null, alerts: null, error: "" });
const $reloads = atom(0);

keepLoaded($overview, [$reloads], async (signal) => {
  const [data, alerts] = await Promise.all([fetchOverview(signal), fetchSystemAlerts(signal)]);
  return { status: "ready", data, alerts, error: "" };
});

export function reloadOverview(): void {
  $reloads.set($reloads.get() + 1);
}

/** The state the page shows for what the server rendered (null unless it read both). */
export function overviewSeed(data: AdminOverview | null | undefined, alerts: SystemAlerts | null | undefined): OverviewState | null {
  return data && alerts ? { status: "ready", data, alerts, error: "" } : null;
}
