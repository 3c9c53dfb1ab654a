// Overview state: the figures, loaded when the page mounts and on "Try again".
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
