// The Buy Proxies calls, through the typed caller: the prices, live stock per type and the
// purchase (one Idempotency-Key per attempt).
import type { Stock } from "@/features/buy-proxies/locations";
import type { ProxyPurchaseOutput } from "@/features/buy-proxies/schemas";
import type { ProxyType } from "@/lib/catalog";
import { api } from "@/lib/api-client";
import type { BodyOf, ResponseOf } from "@/lib/api-contract/define";
import { getProxyPrices, getProxyStock, purchaseProxies as purchaseRoute } from "@/lib/api-contract/proxies";

/** The unit price of every type for sale (a type not for sale is missing). */
export async function loadPrices(signal?: AbortSignal): Promise<ResponseOf<typeof getProxyPrices>> {
  return api.call(getProxyPrices, signal ? { signal } : {});
}

/** A type's unit price and the places with AVAILABLE proxies. */
export async function loadStock(type: ProxyType, signal?: AbortSignal): Promise<Stock> {
  return api.call(getProxyStock, { query: { type }, ...(signal ? { signal } : {}) });
}

export type PurchaseResult = ResponseOf<typeof purchaseRoute>;

/** Buys the order; `key` is the attempt's Idempotency-Key (reused on retries). */
export async function purchaseProxies(input: ProxyPurchaseOutput, key: string): Promise<PurchaseResult> {
  const body: BodyOf<typeof purchaseRoute> = { type: input.type, country: input.country, quantity: input.quantity };
  if (input.state) body.state = input.state;
  if (input.state && input.city) body.city = input.city;
  return api.call(purchaseRoute, { body, idempotencyKey: key });
}
