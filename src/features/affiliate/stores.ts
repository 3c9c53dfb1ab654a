// The affiliate page's figures (GET /api/v1/affiliate), loaded while the page shows them;
// Retry loads them again.
import { atom } from "nanostores";
import { loadAffiliate, type AffiliateSummary } from "@/features/affiliate/api";
import { keepLoaded } from "@/lib/keep-loaded";

export interface AffiliateState {
  status: "loading" | "ready" | "error";
  error: string;
  data: AffiliateSummary | null;
}

export const $affiliate = atom<AffiliateState>({ status: "loading", error: "", data: null });

const $reloads = atom(0);

keepLoaded($affiliate, [$reloads], async (signal) => ({ status: "ready", error: "", data: await loadAffiliate(signal) }));

export function reloadAffiliate(): void {
  $reloads.set($reloads.get() + 1);
}
