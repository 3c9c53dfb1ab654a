// The console's proxy routes: the contract's inventory routes (@/lib/api-contract/admin/proxies:
// the list, stats, one proxy, editing, deleting, generating and importing), through the typed caller.
import { api, apiThrough } from "@/lib/api-client";
import {
  deleteInventoryProxy,
  generateProxies as generateRoute,
  getInventoryProxy,
  getInventoryStats,
  importProxies as importRoute,
  listInventory,
  updateInventoryProxy,
  type PROXY_EXITS,
} from "@/lib/api-contract/admin/proxies";
import { assignInventoryProxy, replaceInventoryProxy } from "@/lib/api-contract/admin/proxy-assign";
import { listUsers } from "@/lib/api-contract/admin/users";
import type { BodyOf, ResponseOf } from "@/lib/api-contract/define";
import { newIdempotencyKey } from "@/lib/idempotency";
import type { ProxyType } from "@/lib/catalog";
import { pb, type TypedPocketBase } from "@/lib/pocketbase";
import type { ProxyStatus } from "@/lib/pocketbase-types";
import type { FirstDataContext } from "@/lib/server/first-data";

export const PROXIES_PER_PAGE = 25;

/** Where a proxy's traffic leaves the gateway: from the gateway's machine, or through an upstream proxy. */
export type ProxyExit = (typeof PROXY_EXITS)[number];

export type InventoryPage = ResponseOf<typeof listInventory>;
/**
 * A proxy as the console lists it (never a password), with its owner's e-mail. host and port
 * are the gateway's endpoint; exit, bind_address and upstream_* say where its traffic leaves.
 */
export type AdminProxy = InventoryPage["items"][number];
/** One proxy for the edit form, with the customer's password (never the upstream's) and its usage. */
export type AdminProxyDetail = ResponseOf<typeof getInventoryProxy>;
export type ProxyStats = ResponseOf<typeof getInventoryStats>;
export type ImportResult = ResponseOf<typeof importRoute>;
export type SkippedLine = ImportResult["skipped"][number];
export type GenerateResult = ResponseOf<typeof generateRoute>;
/** An edit: host and port are the gateway's and are not sent; upstream_password only to replace the stored one. */
export type ProxyEdit = BodyOf<typeof updateInventoryProxy>;
/** An import: upstream lines, and the type and place of the whole batch (left out = the server's defaults). */
export type ImportRequest = BodyOf<typeof importRoute>;

export interface InventoryCriteria {
  search: string;
  type: ProxyType | "";
  country: string;
  /** A status, or FAILING: the proxies whose upstream the gateway marks failing (issue #28). */
  status: ProxyStatus | "FAILING" | "";
}

export function fetchInventory(
  criteria: InventoryCriteria,
  page: number,
  signal?: AbortSignal,
  client: TypedPocketBase = pb(),
): Promise<InventoryPage> {
  const { search, type, country, status } = criteria;
  return apiThrough(() => client).call(listInventory, {
    query: {
      search,
      country,
      page,
      perPage: PROXIES_PER_PAGE,
      ...(type ? { type } : {}),
      ...(status === "FAILING" ? { failing: "true" } : status ? { status } : {}),
    },
    ...(signal ? { signal } : {}),
  });
}

export function fetchStats(signal?: AbortSignal, client: TypedPocketBase = pb()): Promise<ProxyStats> {
  return apiThrough(() => client).call(getInventoryStats, signal ? { signal } : {});
}

/** The page's first data, read on the server with the admin's session (pages/console/proxies.astro). */
export const proxyManagementFirstData = {
  inventory: ({ client, signal }: FirstDataContext): Promise<InventoryPage> =>
    fetchInventory({ search: "", type: "", country: "", status: "" }, 1, signal, client),
  stats: ({ client, signal }: FirstDataContext): Promise<ProxyStats> => fetchStats(signal, client),
};

export function fetchProxy(id: string, signal?: AbortSignal): Promise<AdminProxyDetail> {
  return api.call(getInventoryProxy, { params: { id }, ...(signal ? { signal } : {}) });
}

export function updateProxy(id: string, body: ProxyEdit): Promise<AdminProxyDetail> {
  return api.call(updateInventoryProxy, { params: { id }, body });
}

export async function deleteProxy(id: string): Promise<void> {
  await api.call(deleteInventoryProxy, { params: { id } });
}

export function generateProxies(body: BodyOf<typeof generateRoute>): Promise<GenerateResult> {
  return api.call(generateRoute, { body });
}

export function importProxies(body: ImportRequest): Promise<ImportResult> {
  return api.call(importRoute, { body });
}

/** The customer with this e-mail (exactly, any case), or null. */
export async function findCustomer(email: string): Promise<{ id: string; email: string } | null> {
  const page = await api.call(listUsers, { query: { search: email, role: "users", perPage: 20 } });
  return page.items.find((u) => u.email.toLowerCase() === email.trim().toLowerCase()) ?? null;
}

/** Assigns an Available proxy to a customer with an order at `priceCents` (issue #28); one key per attempt. */
export function assignProxy(id: string, body: BodyOf<typeof assignInventoryProxy>, key = newIdempotencyKey()) {
  return api.call(assignInventoryProxy, { params: { id }, body, idempotencyKey: key });
}

/** Swaps a customer's proxy to another exit of its type and place (issue #28). */
export function swapProxyExit(id: string): Promise<AdminProxyDetail> {
  return api.call(replaceInventoryProxy, { params: { id } });
}
