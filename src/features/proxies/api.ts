// The My Proxies calls: the records API for reading (rules scope rows to the user) and
// the /api/v1/proxies routes for every change.
import { pb, readAllForExport, withSignal, type TypedPocketBase } from "@/lib/pocketbase";
import type { ProxyRecord } from "@/lib/pocketbase-types";
import type { ResponseOf } from "@/lib/api-contract/define";
import type { listProxyCountries, renewProxies as renewRoute, rotateProxy, updateProxy } from "@/lib/api-contract/proxies";
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

/** GET /api/v1/proxies/countries: the distinct countries of my proxies. */
export function fetchOwnCountries(signal?: AbortSignal, client: TypedPocketBase = pb()): Promise<ResponseOf<typeof listProxyCountries>> {
  return client.send<ResponseOf<typeof listProxyCountries>>("/api/v1/proxies/countries", withSignal(signal));
}

/** The page's first data, read on the server with the user's session (pages/dashboard/proxies.astro). */
export const proxiesFirstData = {
  proxies: ({ client, user, signal }: FirstDataContext): Promise<ProxyPage> => fetchProxyPage(user.id, NO_CRITERIA, 1, signal, client),
  countries: ({ client, signal }: FirstDataContext): Promise<string[]> => fetchOwnCountries(signal, client),
};

/** GET /api/v1/proxies/prices: today's unit price per 30 days of each type for sale. */
export function fetchPrices(signal?: AbortSignal): Promise<PriceList> {
  return pb().send<PriceList>("/api/v1/proxies/prices", withSignal(signal));
}

export type RenewalResult = ResponseOf<typeof renewRoute>;
/** A proxy as the developer API answers it (the contract's Proxy). */
export type ApiProxy = ResponseOf<typeof rotateProxy>;

/** POST /api/v1/proxies/renew; `key` is the attempt's Idempotency-Key (same for its retries). */
export function renewProxies(ids: readonly string[], key: string): Promise<RenewalResult> {
  return pb().send<RenewalResult>("/api/v1/proxies/renew", {
    method: "POST",
    headers: { "Idempotency-Key": key },
    body: { proxy_ids: ids },
    requestKey: null,
  });
}

/** PATCH /api/v1/proxies/{id} {auto_renew}. */
export function updateAutoRenew(id: string, enabled: boolean): Promise<ResponseOf<typeof updateProxy>> {
  return pb().send<ResponseOf<typeof updateProxy>>(`/api/v1/proxies/${encodeURIComponent(id)}`, {
    method: "PATCH",
    body: { auto_renew: enabled },
    headers: { "Idempotency-Key": newIdempotencyKey() },
    requestKey: null,
  });
}

/** POST /api/v1/proxies/{id}/rotate: the proxy with its new password. */
export function regenerateCredentials(id: string): Promise<ApiProxy> {
  return pb().send<ApiProxy>(`/api/v1/proxies/${encodeURIComponent(id)}/rotate`, {
    method: "POST",
    headers: { "Idempotency-Key": newIdempotencyKey() },
    requestKey: null,
  });
}
