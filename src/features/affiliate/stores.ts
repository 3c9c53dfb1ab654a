// The affiliate page's figures (GET /api/v1/affiliate), loaded while the page shows them;
// Retry loads them again; a saved payout method brings the figures the server answered.
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

/** Shows the figures the server answered a change with (the payout method saved). */
export function showAffiliate(data: AffiliateSummary): void {
  $affiliate.set({ status: "ready", error: "", data });
}
