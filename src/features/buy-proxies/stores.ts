// Buy Proxies state (spec section 5): the types for sale (the prices route: every type with
// an active plan or a built-in price) and each one's live stock (loaded with the first
// subscriber; after a purchase, or a refusal for want of stock, only the bought type's again),
// and the purchase under way, its refusal or its receipt. The form's
// values live in the form (react-hook-form); a purchase is one attempt with one
// Idempotency-Key, reused while the same order is retried.
import { atom, onMount } from "nanostores";
import { ClientResponseError } from "pocketbase";
import { loadPrices, loadStock, purchaseProxies, type PurchaseResult } from "@/features/buy-proxies/api";
import { countryNames, type Stock } from "@/features/buy-proxies/locations";
import type { ProxyPurchaseOutput, PurchaseField } from "@/features/buy-proxies/schemas";
import { keyForAttempt, type Attempt } from "@/features/buy-proxies/summary";
import { errorMessage, fieldErrors, isAbort } from "@/lib/api-error";
import { PROXY_TYPES, type ProxyType } from "@/lib/catalog";
import { newIdempotencyKey } from "@/lib/idempotency";
import { refreshSession } from "@/stores/auth";
import { setBalance } from "@/stores/balance";

export type StockState = { status: "loading" } | { status: "ready"; stock: Stock } | { status: "error"; error: string };

/** The types for sale, in the catalog's order. */
export type OfferState = { status: "loading" } | { status: "ready"; types: ProxyType[] } | { status: "error"; error: string };

export const STOCK_LOADING: StockState = { status: "loading" };

export const $offer = atom<OfferState>({ status: "loading" });
/** The stock of each type for sale (a type not loaded yet is missing: loading). */
export const $stock = atom<Partial<Record<ProxyType, StockState>>>({});
/**
 * Every country name the stock has given (code -> "Norway"), kept across reloads, so a place
 * whose last proxy was just bought (the receipt, a chosen place now out of stock) keeps its name.
 */
export const $countryNames = atom<ReadonlyMap<string, string>>(new Map());

function stockLoaded(type: ProxyType, stock: Stock): void {
  $stock.set({ ...$stock.get(), [type]: { status: "ready", stock } });
  const names = new Map($countryNames.get());
  const before = names.size;
  for (const [code, name] of countryNames(stock.locations)) names.set(code, name);
  if (names.size !== before) $countryNames.set(names);
}

let stockRequest: AbortController | null = null;

/** Reads one type's stock; a superseded or stopped load (aborted) changes nothing. */
function fetchTypeStock(type: ProxyType, signal: AbortSignal | undefined): void {
  loadStock(type, signal)
    .then((stock) => stockLoaded(type, stock))
    .catch((err: unknown) => {
      if (!isAbort(err)) $stock.set({ ...$stock.get(), [type]: { status: "error", error: errorMessage(err) } });
    });
}

function fetchStock(): void {
  stockRequest?.abort();
  const current = new AbortController();
  stockRequest = current;
  loadPrices(current.signal)
    .then((prices) => {
      const types = PROXY_TYPES.filter((t) => (prices[t] ?? 0) > 0);
      $offer.set({ status: "ready", types });
      for (const type of types) fetchTypeStock(type, current.signal);
    })
    .catch((err: unknown) => {
      if (!isAbort(err)) $offer.set({ status: "error", error: errorMessage(err) });
    });
}

/** Reloads the types for sale and their stock (Refresh, Try again). */
export function reloadStock(): void {
  $offer.set({ status: "loading" });
  $stock.set({});
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
    fetchTypeStock(order.type, stockRequest?.signal);
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
    if (status === 409) fetchTypeStock(order.type, stockRequest?.signal);
    if (status === 403) void refreshSession().catch(() => {});
    return false;
  }
}
