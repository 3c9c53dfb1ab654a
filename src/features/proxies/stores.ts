// My Proxies state (spec 2.16): the query (search, type, country, page), the page of
// proxies it answers, the country filter's options, the selection and exports (the
// renewal dialog: renewal-store.ts). Loads start with the first subscriber; a new query aborts the request
// it supersedes. The first page and the countries may come from the server (seeded, see
// stores/seed.ts): no first load then.
import { atom, onMount } from "nanostores";
import { errorMessage, isAbort } from "@/lib/api-error";
import type { ProxyRecord, ProxyType } from "@/lib/pocketbase-types";
import { $auth } from "@/stores/auth";
import { followUserLoads, listQuery } from "@/stores/list-query";
import { seedOf, type StoreSeed } from "@/stores/seed";
import {
  fetchAllProxies,
  fetchOwnCountries,
  fetchProxyPage,
  regenerateCredentials,
  updateAutoRenew,
  type ApiProxy,
  type ProxyPage,
} from "@/features/proxies/api";
import type { ProxyExportFormat } from "@/features/proxies/export-formats";
import { NO_CRITERIA } from "@/features/proxies/filters";
import { isRenewable } from "@/features/proxies/format";

export interface ProxyListState {
  status: "loading" | "ready" | "error";
  items: ProxyRecord[];
  page: number;
  totalPages: number;
  matching: number;
  total: number;
  error: string;
}

export interface Notice {
  tone: "success" | "error";
  text: string;
}

const query = listQuery(NO_CRITERIA);
export const $proxyQuery = query.$query;
/** What the search box shows (the query's search follows it after SEARCH_DELAY_MS). */
export const $searchText = query.$searchText;
export const { setSearchText, clearFilters, goToPage } = query;
export const $proxyList = atom<ProxyListState>({ status: "loading", items: [], page: 1, totalPages: 0, matching: 0, total: 0, error: "" });
export const $countries = atom<string[]>([]);
export const $selected = atom<ReadonlyMap<string, ProxyRecord>>(new Map());
export const $notice = atom<Notice | null>(null);
export const $exporting = atom<ProxyExportFormat | null>(null);
/** Bumped by Refresh: every loader reloads. */
const $reloads = atom(0);

onMount($proxyList, () =>
  query.followPages(
    $proxyList,
    fetchProxyPage,
    (result, criteria) => {
      // The last page went away (proxies returned to stock meanwhile): show the new last one.
      if (result.items.length === 0 && result.page > 1 && result.totalPages > 0) {
        $proxyQuery.set({ criteria, page: result.totalPages });
        return null;
      }
      return { status: "ready", error: "", ...result };
    },
    [$reloads],
  ),
);

/** The stores' states for the first data the server read (null parts load in the browser). */
export function proxiesSeeds(first: { proxies: ProxyPage | null; countries: string[] | null } | null): StoreSeed[] {
  return [
    seedOf($proxyList, first?.proxies ? { status: "ready", error: "", ...first.proxies } : null),
    seedOf($countries, first?.countries ?? null),
  ];
}

onMount($countries, () =>
  followUserLoads(
    [$reloads],
    (_userId, signal) => {
      fetchOwnCountries(signal).then(
        (countries) => {
          if (!signal.aborted) $countries.set(countries);
        },
        (err: unknown) => {
          // The filter keeps the countries it had; the list shows its own errors.
          if (!isAbort(err)) console.error("Loading the countries of your proxies failed", err);
        },
      );
    },
    $countries,
  ),
);

// ---- the query

export function setTypeFilter(type: ProxyType | ""): void {
  query.setCriteria({ type });
}

export function setCountryFilter(country: string): void {
  query.setCriteria({ country });
}

/** Refresh: reloads the page, the counts and the countries. */
export function refreshProxies(): void {
  $notice.set(null);
  $reloads.set($reloads.get() + 1);
}

/** Puts changed proxies (an answer of the API) into the page and the selection. */
export function replaceProxies(changed: readonly ApiProxy[]): void {
  const byId = new Map(changed.map((r) => [r.id, r]));
  /** The record shown, with what the developer API answered for it. */
  const merged = (p: ProxyRecord): ProxyRecord => {
    const fresh = byId.get(p.id);
    return fresh ? { ...p, ...fresh, expires_at: fresh.expires_at ?? "" } : p;
  };
  const list = $proxyList.get();
  $proxyList.set({ ...list, items: list.items.map(merged) });
  const selected = $selected.get();
  if (changed.some((r) => selected.has(r.id))) {
    $selected.set(new Map([...selected].map(([id, p]) => [id, merged(p)])));
  }
}

// ---- selection

export function toggleSelected(proxy: ProxyRecord, on: boolean): void {
  const next = new Map($selected.get());
  if (on && isRenewable(proxy)) next.set(proxy.id, proxy);
  else next.delete(proxy.id);
  $selected.set(next);
}

/** Selects (or unselects) every renewable proxy of the page shown. */
export function selectPage(on: boolean): void {
  const next = new Map($selected.get());
  for (const proxy of $proxyList.get().items) {
    if (on && isRenewable(proxy)) next.set(proxy.id, proxy);
    else next.delete(proxy.id);
  }
  $selected.set(next);
}

export function clearSelection(): void {
  $selected.set(new Map());
}

// ---- card actions

/** PATCH auto_renew; the card shows the answer (or the error thrown). */
export async function setAutoRenew(proxy: ProxyRecord, enabled: boolean): Promise<void> {
  replaceProxies([await updateAutoRenew(proxy.id, enabled)]);
}

/** New credentials for the proxy; returns it with its new password. */
export async function regenerate(proxy: ProxyRecord): Promise<ProxyRecord> {
  const updated = await regenerateCredentials(proxy.id);
  replaceProxies([updated]);
  return { ...proxy, ...updated, expires_at: updated.expires_at ?? "" };
}

// ---- exports

/** Downloads every proxy matching the current filters (read in batches) as `format`. */
export async function exportProxies(format: ProxyExportFormat): Promise<void> {
  const userId = $auth.get().user?.id ?? "";
  if (!userId || $exporting.get()) return;
  $exporting.set(format);
  $notice.set(null);
  try {
    // The CSV writer (papaparse) loads on the first export, not with the page.
    const [proxies, { proxyExport }, { downloadText }] = await Promise.all([
      fetchAllProxies(userId, $proxyQuery.get().criteria),
      import("@/features/proxies/export"),
      import("@/lib/csv"),
    ]);
    const file = proxyExport(format, proxies);
    downloadText(file.fileName, file.content, file.mime);
  } catch (err) {
    $notice.set({ tone: "error", text: errorMessage(err) });
  } finally {
    $exporting.set(null);
  }
}
