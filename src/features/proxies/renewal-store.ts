// The renewal dialog of My Proxies (spec 2.16): the proxies it renews, today's prices, one
// Idempotency-Key per attempt (reused by its retries), and the notice once it is done.
import { atom } from "nanostores";
import { fetchPrices, renewProxies } from "@/features/proxies/api";
import { isRenewable } from "@/features/proxies/format";
import { MAX_RENEWAL, proxyCount, type PriceList } from "@/features/proxies/renewal";
import { $notice, $selected, clearSelection, replaceProxies } from "@/features/proxies/stores";
import { errorMessage } from "@/lib/api-error";
import { TERM_TEXT } from "@/lib/catalog";
import { newIdempotencyKey } from "@/lib/idempotency";
import { formatCents } from "@/lib/money";
import type { ProxyRecord } from "@/lib/pocketbase-types";
import { setBalance } from "@/stores/balance";

export interface RenewalState {
  open: boolean;
  proxies: ProxyRecord[];
  /** The attempt's Idempotency-Key: made when the dialog opens, reused for its retries. */
  key: string;
  prices: PriceList | null;
  pricesError: string;
  pending: boolean;
  error: string;
  /** The renewal covers the whole selection (cleared once it succeeds). */
  fromSelection: boolean;
}

const CLOSED_RENEWAL: RenewalState = {
  open: false,
  proxies: [],
  key: "",
  prices: null,
  pricesError: "",
  pending: false,
  error: "",
  fromSelection: false,
};
export const $renewal = atom<RenewalState>(CLOSED_RENEWAL);

function loadRenewalPrices(): void {
  fetchPrices().then(
    (prices) => {
      if ($renewal.get().open) $renewal.set({ ...$renewal.get(), prices, pricesError: "" });
    },
    (err: unknown) => {
      if ($renewal.get().open) $renewal.set({ ...$renewal.get(), pricesError: errorMessage(err) });
    },
  );
}

/** Opens the renewal dialog for `proxies` (a new attempt: a new Idempotency-Key). */
export function openRenewal(proxies: readonly ProxyRecord[], fromSelection = false): void {
  $notice.set(null);
  $renewal.set({ ...CLOSED_RENEWAL, open: true, proxies: proxies.filter(isRenewable), key: newIdempotencyKey(), fromSelection });
  loadRenewalPrices();
}

export function renewSelection(): void {
  openRenewal([...$selected.get().values()], true);
}

export function retryRenewalPrices(): void {
  $renewal.set({ ...$renewal.get(), pricesError: "" });
  loadRenewalPrices();
}

export function closeRenewal(): void {
  if (!$renewal.get().pending) $renewal.set(CLOSED_RENEWAL);
}

/** Renews the dialog's proxies with the attempt's key (a retry sends the same key). */
export async function confirmRenewal(): Promise<void> {
  const state = $renewal.get();
  if (!state.open || state.pending || state.proxies.length === 0) return;
  if (state.proxies.length > MAX_RENEWAL) {
    $renewal.set({ ...state, error: `At most ${MAX_RENEWAL} proxies can be renewed at once.` });
    return;
  }
  $renewal.set({ ...state, pending: true, error: "" });
  try {
    const result = await renewProxies(
      state.proxies.map((p) => p.id),
      state.key,
    );
    setBalance(result.balance_cents);
    replaceProxies(result.proxies);
    if (state.fromSelection) clearSelection();
    $renewal.set(CLOSED_RENEWAL);
    $notice.set({
      tone: "success",
      text: `Renewed ${proxyCount(result.proxies.length)} for ${TERM_TEXT}. Your balance is now ${formatCents(result.balance_cents)}.`,
    });
  } catch (err) {
    $renewal.set({ ...$renewal.get(), pending: false, error: errorMessage(err) });
  }
}
