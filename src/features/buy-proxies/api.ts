// The Buy Proxies calls: live stock per type and the purchase (one Idempotency-Key per attempt).
import type { Stock } from "@/features/buy-proxies/locations";
import type { ProxyPurchaseOutput } from "@/features/buy-proxies/schemas";
import type { ProxyType } from "@/lib/catalog";
import { pb, withSignal } from "@/lib/pocketbase";
import type { BodyOf, ResponseOf } from "@/lib/api-contract/define";
import type { getProxyPrices, purchaseProxies as purchaseRoute } from "@/lib/api-contract/proxies";

/** GET /api/v1/proxies/prices: the unit price of every type for sale (a type not for sale is missing). */
export async function loadPrices(signal?: AbortSignal): Promise<ResponseOf<typeof getProxyPrices>> {
  return pb().send<ResponseOf<typeof getProxyPrices>>("/api/v1/proxies/prices", { method: "GET", ...withSignal(signal) });
}

/** GET /api/v1/proxies/stock?type=...: the unit price and the places with AVAILABLE proxies. */
export async function loadStock(type: ProxyType, signal?: AbortSignal): Promise<Stock> {
  return pb().send<Stock>("/api/v1/proxies/stock", {
    method: "GET",
    query: { type },
    ...withSignal(signal),
  });
}

export type PurchaseResult = ResponseOf<typeof purchaseRoute>;

/** POST /api/v1/proxies/purchase; `key` is the attempt's Idempotency-Key (reused on retries). */
export async function purchaseProxies(input: ProxyPurchaseOutput, key: string): Promise<PurchaseResult> {
  const body: BodyOf<typeof purchaseRoute> = { type: input.type, country: input.country, quantity: input.quantity };
  if (input.state) body.state = input.state;
  if (input.state && input.city) body.city = input.city;
  return pb().send<PurchaseResult>("/api/v1/proxies/purchase", {
    method: "POST",
    body,
    headers: { "Idempotency-Key": key },
    requestKey: null,
  });
}
