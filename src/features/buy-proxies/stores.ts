// Buy Proxies state (spec section 5): both types' live stock (loaded with the first
// subscriber) and the purchase under way, its refusal or its receipt. The form's values
// live in the form (react-hook-form); a purchase is one attempt with one Idempotency-Key,
// reused while the same order is retried.
import { atom, onMount } from "nanostores";
import { ClientResponseError } from "pocketbase";
import { loadStock, purchaseProxies, type PurchaseResult } from "@/features/buy-proxies/api";
import type { Stock } from "@/features/buy-proxies/locations";
import type { ProxyPurchaseOutput, PurchaseField } from "@/features/buy-proxies/schemas";
import { keyForAttempt, type Attempt } from "@/features/buy-proxies/summary";
import { errorMessage, fieldErrors, isAbort } from "@/lib/api-error";
import { PURCHASE_TYPES, type PurchaseType } from "@/lib/catalog";
import { newIdempotencyKey } from "@/lib/idempotency";
import { refreshSession } from "@/stores/auth";
import { setBalance } from "@/stores/balance";

export type StockState = { status: "loading" } | { status: "ready"; stock: Stock } | { status: "error"; error: string };

const LOADING: StockState = { status: "loading" };
const ALL_LOADING: Record<PurchaseType, StockState> = { RESIDENTIAL: LOADING, DATACENTER: LOADING };

export const $stock = atom<Record<PurchaseType, StockState>>(ALL_LOADING);

let stockRequest: AbortController | null = null;

function fetchStock(): void {
  stockRequest?.abort();
  const current = new AbortController();
  stockRequest = current;
  for (const type of PURCHASE_TYPES) {
    loadStock(type, current.signal)
      .then((stock) => $stock.set({ ...$stock.get(), [type]: { status: "ready", stock } }))
      .catch((err: unknown) => {
        if (!isAbort(err)) $stock.set({ ...$stock.get(), [type]: { status: "error", error: errorMessage(err) } });
      });
  }
}

/** Reloads both types' stock; `quiet` keeps the current choices on screen meanwhile. */
export function reloadStock(quiet = false): void {
  if (!quiet) $stock.set(ALL_LOADING);
  fetchStock();
}

onMount($stock, () => {
  fetchStock();
  return () => stockRequest?.abort();
});

/** A refused purchase: the server's message, and that nothing was charged. */
export interface Refusal {
  message: string;
  uncharged: boolean;
}

export interface PurchaseState {
  processing: boolean;
  refusal: Refusal | null;
  /** The server's messages for the country and quantity fields. */
  serverFields: Partial<Record<PurchaseField, string>>;
  result: PurchaseResult | null;
}

export const $purchase = atom<PurchaseState>({ processing: false, refusal: null, serverFields: {}, result: null });

let attempt: Attempt | null = null;

/** The form changed: the last refusal and the server's field messages no longer apply. */
export function purchaseEdited(clearReceipt = false): void {
  const state = $purchase.get();
  $purchase.set({ ...state, refusal: null, serverFields: {}, result: clearReceipt ? null : state.result });
}

/**
 * Buys the order; answers whether it was bought. A second call while one is under way
 * buys nothing more.
 */
export async function purchase(order: ProxyPurchaseOutput): Promise<boolean> {
  if ($purchase.get().processing) return false;
  $purchase.set({ processing: true, refusal: null, serverFields: {}, result: null });
  attempt = keyForAttempt(attempt, JSON.stringify(order), newIdempotencyKey);
  try {
    const result = await purchaseProxies(order, attempt.key);
    attempt = null;
    $purchase.set({ processing: false, refusal: null, serverFields: {}, result });
    setBalance(result.balance_cents);
    reloadStock(true);
    return true;
  } catch (err) {
    const status = err instanceof ClientResponseError ? err.status : 0;
    const fields = fieldErrors(err);
    $purchase.set({
      processing: false,
      refusal: { message: errorMessage(err), uncharged: status >= 400 && status < 500 },
      serverFields: {
        ...(fields["country"] ? { country: fields["country"] } : {}),
        ...(fields["quantity"] ? { quantity: fields["quantity"] } : {}),
      },
      result: null,
    });
    if (status === 409) reloadStock(true);
    if (status === 403) void refreshSession().catch(() => {});
    return false;
  }
}
