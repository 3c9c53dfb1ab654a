// Overview state: the figures, loaded when the page mounts and on "Try again".
import { atom, onMount } from "nanostores";
import { errorMessage, isAbort } from "@/lib/api-error";
import { fetchOverview, type AdminOverview } from "@/features/console-overview/api";

export interface OverviewState {
  status: "loading" | "ready" | "error";
  data: AdminOverview | null;
  error: string;
}

export const $overview = atom<OverviewState>({ status: "loading", data: null, error: "" });
const $reloads = atom(0);

onMount($overview, () => {
  let controller: AbortController | null = null;
  const load = () => {
    controller?.abort();
    const current = new AbortController();
    controller = current;
    $overview.set({ ...$overview.get(), status: "loading", error: "" });
    fetchOverview(current.signal).then(
      (data) => {
        if (!current.signal.aborted) $overview.set({ status: "ready", data, error: "" });
      },
      (err: unknown) => {
        if (current.signal.aborted || isAbort(err)) return;
        $overview.set({ ...$overview.get(), status: "error", error: errorMessage(err) });
      },
    );
  };
  const off = $reloads.listen(load);
  load();
  return () => {
    off();
    controller?.abort();
  };
});

export function reloadOverview(): void {
  $reloads.set($reloads.get() + 1);
}
