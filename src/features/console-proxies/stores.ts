// Proxy Management state (admin spec "Proxy Management"): the inventory query and the
// page it answers, the stats (cards and the country filter), and the page's one banner.
// A new query aborts the request it supersedes; every change refreshes list and stats.
import { atom } from "nanostores";
import { keepLoaded } from "@/lib/keep-loaded";
import { loadedList, pendingList, type PagedListState } from "@/lib/paged-list";
import { listQuery } from "@/stores/list-query";
import { seedOf, type StoreSeed } from "@/stores/seed";
import { ClientResponseError } from "pocketbase";
import { OFFLINE_MESSAGE } from "@/lib/messages";
import { plural } from "@/lib/plural";
import {
  assignProxy as assignRequest,
  findCustomer,
  swapProxyExit,
  type AdminProxyDetail,
  deleteProxy as deleteProxyRequest,
  fetchInventory,
  fetchStats,
  generateProxies as generateRequest,
  importProxies as importRequest,
  updateProxy as updateRequest,
  type AdminProxy,
  type GenerateResult,
  type ImportRequest,
  type ImportResult,
  type InventoryCriteria,
  type InventoryPage,
  type ProxyEdit,
  type ProxyStats,
} from "@/features/console-proxies/api";
import type { GenerateOutput } from "@/features/console-proxies/schemas";
import { endpoint } from "@/lib/endpoint";

export const SEARCH_DELAY_MS = 250;

export const NO_CRITERIA: InventoryCriteria = { search: "", type: "", country: "", status: "" };

export type InventoryState = PagedListState<AdminProxy, InventoryCriteria>;

export interface StatsState {
  status: "loading" | "ready" | "error";
  stats: ProxyStats | null;
  error: string;
}

export interface Banner {
  tone: "success" | "error";
  text: string;
}

const inventoryQuery = listQuery(NO_CRITERIA, { searchDelayMs: SEARCH_DELAY_MS });
export const $inventoryQuery = inventoryQuery.$query;
export const $inventorySearchText = inventoryQuery.$searchText;
export const $inventory = atom<InventoryState>(pendingList(NO_CRITERIA));
export const $proxyStats = atom<StatsState>({ status: "loading", stats: null, error: "" });
export const $banner = atom<Banner | null>(null);
/** The proxy the edit or the delete dialog is open for. */
export const $proxyDialog = atom<{ action: "edit" | "delete"; proxy: AdminProxy } | null>(null);

export function openProxyDialog(action: "edit" | "delete", proxy: AdminProxy): void {
  $proxyDialog.set({ action, proxy });
}

export function closeProxyDialog(): void {
  $proxyDialog.set(null);
}

const $inventoryReloads = atom(0);
const $statsReloads = atom(0);

keepLoaded($inventory, [$inventoryQuery, $inventoryReloads], async (signal) => {
  const { criteria, page } = $inventoryQuery.get();
  const result = await fetchInventory(criteria, page, signal);
  // A page beyond the end (after deletes): show the last page instead.
  if (result.items.length === 0 && page > 1 && result.totalPages > 0 && page > result.totalPages) {
    $inventoryQuery.set({ criteria, page: result.totalPages });
    return null;
  }
  return loadedList(result, criteria);
});

keepLoaded($proxyStats, [$statsReloads], async (signal) => ({ status: "ready", stats: await fetchStats(signal), error: "" }));

/** The stores' states for the first data the server read (null parts load in the browser). */
export function inventorySeeds(first: { inventory: InventoryPage | null; stats: ProxyStats | null } | null): StoreSeed[] {
  return [
    seedOf($inventory, first?.inventory ? loadedList(first.inventory, NO_CRITERIA) : null),
    seedOf($proxyStats, first?.stats ? { status: "ready", stats: first.stats, error: "" } : null),
  ];
}

export const setInventorySearch = inventoryQuery.setSearchText;
export const clearInventoryFilters = inventoryQuery.clearFilters;
export const goToInventoryPage = inventoryQuery.goToPage;

export function setInventoryFilter(change: Partial<Omit<InventoryCriteria, "search">>): void {
  inventoryQuery.setCriteria(change);
}

export function reloadInventory(): void {
  $inventoryReloads.set($inventoryReloads.get() + 1);
}

export function reloadStats(): void {
  $statsReloads.set($statsReloads.get() + 1);
}

/** After any change: the list (same query) and the stats load again. */
export function refreshProxies(): void {
  reloadInventory();
  reloadStats();
}

export function showBanner(banner: Banner | null): void {
  $banner.set(banner);
}

/**
 * The server's message for a failed change, else the spec's fallback ("Failed to update
 * proxy" ...) for anything without one; the offline text when the server is unreachable.
 */
export function failureMessage(err: unknown, fallback: string): string {
  if (err instanceof ClientResponseError) {
    if (err.status === 0) return OFFLINE_MESSAGE;
    const message: unknown = err.response?.["message"];
    if (typeof message === "string" && message) return message;
  }
  return fallback;
}

/** Saves the edit form; throws (for the form to show) when the server refuses. */
export async function saveProxy(id: string, edit: ProxyEdit): Promise<void> {
  const proxy = await updateRequest(id, edit);
  showBanner({ tone: "success", text: `Proxy ${proxy.username} (${endpoint(proxy)}) updated successfully` });
  refreshProxies();
}

/** The e-mail an admin typed names no customer. */
export class NoCustomerError extends Error {
  constructor(email: string) {
    super(`No customer with the e-mail ${email.trim()}.`);
  }
}

/** Assigns the proxy to the customer with `email` at `priceCents` (issue #28); throws with the server's message. */
export async function assignTo(proxy: AdminProxyDetail, email: string, priceCents: number): Promise<void> {
  const owner = await findCustomer(email);
  if (!owner) throw new NoCustomerError(email);
  await assignRequest(proxy.id, { user_id: owner.id, price_cents: priceCents });
  showBanner({ tone: "success", text: `Proxy ${proxy.username} (${endpoint(proxy)}) assigned to ${owner.email}` });
  refreshProxies();
}

/** Gives a customer's proxy another exit from stock (issue #28); throws with the server's message. */
export async function swapExit(proxy: AdminProxyDetail): Promise<void> {
  await swapProxyExit(proxy.id);
  showBanner({ tone: "success", text: `Proxy ${proxy.username} (${endpoint(proxy)}) has a new exit; its credentials are unchanged` });
  refreshProxies();
}

/** Deletes a proxy; throws (for the dialog to show) when the server refuses. */
export async function removeProxy(proxy: AdminProxy): Promise<void> {
  await deleteProxyRequest(proxy.id);
  showBanner({ tone: "success", text: `Proxy ${proxy.username} (${endpoint(proxy)}) deleted successfully` });
  refreshProxies();
}

export async function generate(values: GenerateOutput): Promise<GenerateResult> {
  const result = await generateRequest(values);
  showBanner({ tone: "success", text: result.message });
  refreshProxies();
  return result;
}

export async function importList(body: ImportRequest): Promise<ImportResult> {
  const result = await importRequest(body);
  showBanner({ tone: "success", text: `Successfully imported ${plural(result.imported, "proxy", "proxies")}` });
  refreshProxies();
  return result;
}
