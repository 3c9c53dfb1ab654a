// The My Proxies calls: the records API for reading (rules scope rows to the user) and
// the developer API's proxy routes (through the typed caller) for every change.
import { api, apiThrough } from "@/lib/api-client";
import { pb, readAllForExport, withSignal, type TypedPocketBase } from "@/lib/pocketbase";
import type { ProxyRecord } from "@/lib/pocketbase-types";
import type { ResponseOf } from "@/lib/api-contract/define";
import { getProxyPrices, listProxyCountries, renewProxies as renewRoute, rotateProxy, updateProxy } from "@/lib/api-contract/proxies";
import { newIdempotencyKey } from "@/lib/idempotency";
import type { FirstDataContext } from "@/lib/server/first-data";
import { hasCriteria, NO_CRITERIA, PROXIES_PER_PAGE, PROXY_SORT, proxyFilter, type ProxyCriteria } from "@/features/proxies/filters";
import type { PriceList } from "@/features/proxies/renewal";

export interface ProxyPage {
  items: ProxyRecord[];
  page: number;
  totalPages: number;
  /** Proxies matching the criteria (the x of 'x of y proxies'). */
  matching: number;
  /** All of the user's proxies (the y). */
  total: number;
}

/** One page of the user's proxies matching `criteria`, with both counts. */
export async function fetchProxyPage(
  userId: string,
  criteria: ProxyCriteria,
  page: number,
  signal?: AbortSignal,
  client: TypedPocketBase = pb(),
): Promise<ProxyPage> {
  const opts = withSignal(signal);
  const [list, all] = await Promise.all([
    client
      .collection("proxies")
      .getList(page, PROXIES_PER_PAGE, { ...opts, filter: proxyFilter(client, userId, criteria), sort: PROXY_SORT }),
    // Without criteria the list's own total is "all of mine"; else count them (one id row).
    hasCriteria(criteria)
      ? client.collection("proxies").getList(1, 1, { ...opts, filter: proxyFilter(client, userId), fields: "id" })
      : null,
  ]);
  return {
    items: list.items,
    page: list.page,
    totalPages: list.totalPages,
    matching: list.totalItems,
    total: all ? all.totalItems : list.totalItems,
  };
}

/** Every proxy of the user matching `criteria`, read in batches (for the exports). */
export function fetchAllProxies(userId: string, criteria: ProxyCriteria, signal?: AbortSignal): Promise<ProxyRecord[]> {
  const client = pb();
  return readAllForExport(client.collection("proxies"), proxyFilter(client, userId, criteria), PROXY_SORT, signal);
}

/** The distinct countries of my proxies (through `client`: on the server, the request's). */
export function fetchOwnCountries(signal?: AbortSignal, client: TypedPocketBase = pb()): Promise<ResponseOf<typeof listProxyCountries>> {
  return apiThrough(() => client).call(listProxyCountries, signal ? { signal } : {});
}

/** The page's first data, read on the server with the user's session (pages/dashboard/proxies.astro). */
export const proxiesFirstData = {
  proxies: ({ client, user, signal }: FirstDataContext): Promise<ProxyPage> => fetchProxyPage(user.id, NO_CRITERIA, 1, signal, client),
  countries: ({ client, signal }: FirstDataContext): Promise<string[]> => fetchOwnCountries(signal, client),
};

/** Today's unit price per 30 days of each type for sale. */
export function fetchPrices(signal?: AbortSignal): Promise<PriceList> {
  return api.call(getProxyPrices, signal ? { signal } : {});
}

export type RenewalResult = ResponseOf<typeof renewRoute>;
/** A proxy as the developer API answers it (the contract's Proxy). */
export type ApiProxy = ResponseOf<typeof rotateProxy>;

/** Renews the proxies; `key` is the attempt's Idempotency-Key (same for its retries). */
export function renewProxies(ids: readonly string[], key: string): Promise<RenewalResult> {
  return api.call(renewRoute, { body: { proxy_ids: [...ids] }, idempotencyKey: key });
}

/** Turns auto-renew on or off. */
export function updateAutoRenew(id: string, enabled: boolean): Promise<ResponseOf<typeof updateProxy>> {
  return api.call(updateProxy, { params: { id }, body: { auto_renew: enabled }, idempotencyKey: newIdempotencyKey() });
}

/** New credentials: the proxy with its new password. */
export function regenerateCredentials(id: string): Promise<ApiProxy> {
  return api.call(rotateProxy, { params: { id }, idempotencyKey: newIdempotencyKey() });
}
