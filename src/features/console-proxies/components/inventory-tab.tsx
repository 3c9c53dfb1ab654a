// Inventory tab (admin spec "Inventory tab"): search, type, country and status filters,
// the count, a table paged on the server, edit and delete per row.
import { useStore } from "@nanostores/react";
import { useSeededStore } from "@/stores/seed";
import { Server } from "lucide-react";
import { DataTable } from "@/components/ui/data-table";
import { FilteredEmptyState, type EmptyTexts } from "@/components/ui/empty-state";
import { Field } from "@/components/ui/field";
import { ListState, pagedListState } from "@/components/ui/list-state";
import { SearchField } from "@/components/ui/search-field";
import { Options } from "@/components/ui/options";
import { Select } from "@/components/ui/select";
import { PROXY_TYPE_LABELS, PROXY_TYPES, type ProxyType } from "@/lib/catalog";
import { cn } from "@/lib/cn";
import { plural } from "@/lib/plural";
import type { ProxyStatus } from "@/lib/pocketbase-types";
import type { InventoryCriteria } from "@/features/console-proxies/api";
import { EndpointText, ExitCell, Owner, PROXY_COLUMNS, RowActions, StatusBadge } from "@/features/console-proxies/columns";
import { countryLabel, placeLabel } from "@/features/console-proxies/locations";
import { PROXY_STATUSES, STATUS_LABELS } from "@/features/console-proxies/schemas";
import {
  $inventory,
  $inventoryQuery,
  $inventorySearchText,
  $proxyDialog,
  $proxyStats,
  clearInventoryFilters,
  closeProxyDialog,
  goToInventoryPage,
  reloadInventory,
  setInventoryFilter,
  setInventorySearch,
} from "@/features/console-proxies/stores";
import { DeleteProxyDialog } from "@/features/console-proxies/components/delete-proxy-dialog";
import { lazyComponent } from "@/lib/lazy-component";

// The edit form (react-hook-form, its schemas) loads when a proxy is first edited.
const EditProxyDialog = lazyComponent(() => import("@/features/console-proxies/components/edit-proxy-dialog"), "EditProxyDialog");

const hasCriteria = (c: InventoryCriteria) => !!(c.search || c.type || c.country || c.status);

export function InventoryTab() {
  const dialog = useStore($proxyDialog);
  return (
    <div className="space-y-4">
      <h2 className="sr-only">Inventory</h2>
      <Filters />
      <ProxyTable />
      {dialog?.action === "edit" ? <EditProxyDialog proxy={dialog.proxy} onClose={closeProxyDialog} /> : null}
      <DeleteProxyDialog proxy={dialog?.action === "delete" ? dialog.proxy : null} onClose={closeProxyDialog} />
    </div>
  );
}

function Filters() {
  const text = useStore($inventorySearchText);
  const { criteria } = useStore($inventoryQuery);
  const { stats } = useSeededStore($proxyStats);
  const countries = Object.entries(stats?.by_country ?? {}).sort(([a], [b]) => countryLabel(a).localeCompare(countryLabel(b)));
  // A country chosen before the stats changed stays offered.
  if (criteria.country && !countries.some(([code]) => code === criteria.country)) countries.push([criteria.country, 0]);

  return (
    <div role="search" aria-label="Filter proxies" className="grid gap-3 sm:grid-cols-2 lg:grid-cols-[minmax(0,1fr)_10rem_12rem_10rem]">
      <SearchField
        id="proxy-search"
        className="sm:col-span-2 lg:col-span-1"
        placeholder="Username, upstream host, city, state or customer e-mail"
        value={text}
        onSearch={setInventorySearch}
      />
      <Field id="proxy-type-filter" label="Type">
        <Select
          id="proxy-type-filter"
          value={criteria.type}
          onChange={(e) => setInventoryFilter({ type: e.target.value as ProxyType | "" })}
        >
          <option value="">All Types</option>
          <Options values={PROXY_TYPES} labels={PROXY_TYPE_LABELS} />
        </Select>
      </Field>
      <Field id="proxy-country-filter" label="Country">
        <Select id="proxy-country-filter" value={criteria.country} onChange={(e) => setInventoryFilter({ country: e.target.value })}>
          <option value="">All Countries</option>
          {countries.map(([code, n]) => (
            <option key={code} value={code}>
              {countryLabel(code)} · {n}
            </option>
          ))}
        </Select>
      </Field>
      <Field id="proxy-status-filter" label="Status">
        <Select
          id="proxy-status-filter"
          value={criteria.status}
          onChange={(e) => setInventoryFilter({ status: e.target.value as ProxyStatus | "" })}
        >
          <option value="">All Status</option>
          <Options values={PROXY_STATUSES} labels={STATUS_LABELS} />
        </Select>
      </Field>
    </div>
  );
}

const NO_PROXIES: EmptyTexts = {
  icon: Server,
  title: "No proxies found",
  filteredText: "Try adjusting your search or filter criteria",
  emptyText: "Generate or import proxies to fill the inventory",
};

function ProxyTable() {
  const list = useSeededStore($inventory);
  const state = pagedListState(list);
  const { loaded } = state;
  const busy = list.status === "loading";
  const filtered = hasCriteria(list.criteria);
  return (
    <div className="space-y-3">
      {loaded || list.status === "loading" ? (
        <p className="text-sm text-slate-600" aria-live="polite" data-testid="proxy-count">
          {!loaded ? "Loading proxies..." : plural(list.totalItems, "proxy", "proxies")}
        </p>
      ) : null}
      <ListState
        {...state}
        onRetry={reloadInventory}
        loadingLabel="Loading proxies"
        className="space-y-3"
        emptyState={<FilteredEmptyState texts={NO_PROXIES} filtered={filtered} onClear={clearInventoryFilters} />}
      >
        {/* Small screens: one card per proxy, actions in reach. */}
        <ul aria-label="Proxy inventory" aria-busy={busy} className={cn("space-y-2 sm:hidden", busy && "opacity-60")}>
          {list.items.map((proxy) => (
            <li key={proxy.id} className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm" data-testid="proxy-card">
              <div className="flex items-start justify-between gap-2">
                <p className="min-w-0 font-mono text-xs text-slate-900">
                  <EndpointText proxy={proxy} />
                </p>
                <StatusBadge status={proxy.status} />
              </div>
              <p className="mt-2 text-sm text-slate-900">
                {PROXY_TYPE_LABELS[proxy.type]} · <span className="font-mono text-xs break-all text-slate-600">{proxy.username}</span>
              </p>
              <p className="text-sm text-slate-700">{placeLabel(proxy) || "—"}</p>
              <ExitCell proxy={proxy} />
              <Owner proxy={proxy} />
              <RowActions proxy={proxy} />
            </li>
          ))}
        </ul>
        <DataTable
          columns={PROXY_COLUMNS}
          data={list.items}
          label="Proxy inventory table"
          className="min-w-[52rem]"
          frameClassName="hidden rounded-xl border border-slate-200 bg-white shadow-sm sm:block"
          busy={busy}
          rowTestId="proxy-row"
          paging={{ page: list.page, totalPages: list.totalPages, onPage: goToInventoryPage }}
        />
      </ListState>
    </div>
  );
}
