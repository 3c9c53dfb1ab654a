// Overview state: the figures, loaded when the page mounts and on "Try again"; seeded with
// the server's first data when the page rendered it (no first load then).
import { atom } from "nanostores";
import { keepLoaded } from "@/lib/keep-loaded";
import { fetchOverview, type AdminOverview } from "@/features/console-overview/api";

export interface OverviewState {
  status: "loading" | "ready" | "error";
  data: AdminOverview | null;
  error: string;
}

export const $overview = atom<OverviewState>({ status: "loading", data: null, error: "" });
const $reloads = atom(0);

keepLoaded($overview, [$reloads], async (signal) => ({ status: "ready", data: await fetchOverview(signal), error: "" }));

export function reloadOverview(): void {
  $reloads.set($reloads.get() + 1);
}

/** The state the page shows for the figures the server rendered. */
export function overviewSeed(data: AdminOverview | null | undefined): OverviewState | null {
  return data ? { status: "ready", data, error: "" } : null;
}
