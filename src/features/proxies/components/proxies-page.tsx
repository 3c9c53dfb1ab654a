import { useStore } from "@nanostores/react";
import { Download, RefreshCw, SearchX, Server } from "lucide-react";
import { FilterSelect } from "@/components/form/filter-fields";
import { SearchField } from "@/components/ui/search-field";
import { AuthGate } from "@/components/session/auth-gate";
import { SeededPage } from "@/components/session/seeded-page";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { Pager } from "@/components/ui/pager";
import { ListState, pagedListState } from "@/components/ui/list-state";
import { lazyComponent } from "@/lib/lazy-component";
import type { UserRecord } from "@/lib/pocketbase-types";
import { useSeededStore } from "@/stores/seed";
import type { FirstDataProps } from "@/lib/server/first-data";
import type { proxiesFirstData } from "@/features/proxies/api";
import { EXPORT_FORMATS, type ProxyExportFormat } from "@/features/proxies/export-formats";
import { PROXY_TYPE_OPTIONS } from "@/features/proxies/filters";
import { countryLabel, isRenewable } from "@/features/proxies/format";
import { proxyCount } from "@/features/proxies/renewal";
import { ProxyCard } from "@/features/proxies/components/proxy-card";
import { IpAllowlistNote } from "@/features/proxies/components/ip-allowlist-note";
import {
  $countries,
  $exporting,
  $notice,
  $proxyList,
  $proxyQuery,
  $searchText,
  $selected,
  clearFilters,
  clearSelection,
  exportProxies,
  goToPage,
  proxiesSeeds,
  refreshProxies,
  selectPage,
  setCountryFilter,
  setSearchText,
  setTypeFilter,
} from "@/features/proxies/stores";
import { $renewal, renewSelection } from "@/features/proxies/renewal-store";

/** /dashboard/proxies (spec 2.16): the customer's proxies, searchable, exportable, renewable. */
export function ProxiesPage(props: FirstDataProps<typeof proxiesFirstData>) {
  return <SeededPage Gate={AuthGate} {...props} seeds={proxiesSeeds} Page={MyProxies} />;
}

const count = (n: number) => n.toLocaleString("en-US");

// Headless UI's dialog loads when a renewal starts, not with the page.
const RenewDialog = lazyComponent(() => import("@/features/proxies/components/renew-dialog"), "RenewDialog");

function MyProxies({ user }: { user: UserRecord }) {
  const list = useSeededStore($proxyList);
  const notice = useStore($notice);
  const renewing = useStore($renewal).open;
  const firstLoad = list.status === "loading" && list.items.length === 0 && list.total === 0;

  return (
    <div className="mx-auto max-w-6xl space-y-6">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-2xl font-bold text-slate-900">My Proxies</h1>
          <p className="text-sm text-slate-600" aria-live="polite" data-testid="proxy-count">
            {firstLoad ? "Loading your proxies..." : `${count(list.matching)} of ${proxyCount(list.total)}`}
          </p>
        </div>
        <Button variant="secondary" onClick={refreshProxies} disabled={list.status === "loading"}>
          <RefreshCw className={list.status === "loading" ? "size-4 animate-spin" : "size-4"} aria-hidden="true" />
          Refresh
        </Button>
      </div>

      <IpAllowlistNote />
      <Filters />
      <Exports disabled={list.matching === 0} />

      <div aria-live="polite" className="empty:hidden">
        {notice ? <Alert tone={notice.tone}>{notice.text}</Alert> : null}
        {list.status === "error" && list.items.length > 0 ? <Alert tone="error">{list.error}</Alert> : null}
      </div>

      <ProxyList />
      {renewing ? <RenewDialog user={user} /> : null}
    </div>
  );
}

function Filters() {
  const searchText = useStore($searchText);
  const { criteria } = useStore($proxyQuery);
  const countries = useSeededStore($countries);
  const options = criteria.country && !countries.includes(criteria.country) ? [...countries, criteria.country] : countries;
  return (
    <div role="search" aria-label="Filter proxies" className="grid gap-3 sm:grid-cols-[minmax(0,1fr)_10rem_12rem]">
      <SearchField id="proxy-search" placeholder="Host, username, country, state or city" value={searchText} onSearch={setSearchText} />
      <FilterSelect
        id="proxy-type"
        label="Type"
        value={criteria.type}
        anyLabel="All types"
        options={PROXY_TYPE_OPTIONS}
        onChange={setTypeFilter}
      />
      <FilterSelect
        id="proxy-country"
        label="Country"
        value={criteria.country}
        anyLabel="All countries"
        options={options.map((code) => ({ value: code, label: countryLabel(code) }))}
        onChange={setCountryFilter}
      />
    </div>
  );
}

function Exports({ disabled }: { disabled: boolean }) {
  const exporting = useStore($exporting);
  return (
    <div className="flex flex-wrap gap-2" role="group" aria-label="Export the proxies matching the filters">
      {(Object.keys(EXPORT_FORMATS) as ProxyExportFormat[]).map((format) => (
        <Button
          key={format}
          variant="secondary"
          size="sm"
          disabled={disabled || (exporting !== null && exporting !== format)}
          pending={exporting === format}
          pendingText="Exporting..."
          onClick={() => void exportProxies(format)}
        >
          <Download className="size-4" aria-hidden="true" />
          {EXPORT_FORMATS[format].label}
        </Button>
      ))}
    </div>
  );
}

function ProxyList() {
  const list = useSeededStore($proxyList);
  const selected = useStore($selected);

  const renewableOnPage = list.items.filter(isRenewable);
  const pageSelected = renewableOnPage.length > 0 && renewableOnPage.every((p) => selected.has(p.id));
  return (
    <ListState
      {...pagedListState(list)}
      empty={list.total === 0 || list.matching === 0}
      onRetry={refreshProxies}
      loadingLabel="Loading proxies"
      skeletonRows={3}
      skeletonClassName="h-72 rounded-xl"
      emptyState={
        list.total === 0 ? (
          <EmptyState icon={Server} title="No proxies yet" text="Purchase your first proxy to get started">
            <a
              href="/dashboard/buy-proxies"
              className="inline-flex h-10 items-center rounded-md bg-primary px-4 text-sm font-medium text-primary-foreground hover:brightness-110"
            >
              Buy Proxies
            </a>
          </EmptyState>
        ) : (
          <EmptyState icon={SearchX} title="No matching proxies" text="Try adjusting your search or filter criteria">
            <Button variant="secondary" size="sm" onClick={clearFilters}>
              Clear filters
            </Button>
          </EmptyState>
        )
      }
    >
      <div className="flex flex-wrap items-center gap-3 text-sm">
        <label className="inline-flex items-center gap-2 text-slate-700">
          <input
            type="checkbox"
            className="size-4 accent-primary"
            checked={pageSelected}
            disabled={renewableOnPage.length === 0}
            onChange={(e) => selectPage(e.target.checked)}
          />
          Select all on this page
        </label>
        {selected.size > 0 ? (
          <>
            <span className="font-medium text-slate-900" aria-live="polite">
              {proxyCount(selected.size)} selected
            </span>
            <Button size="sm" onClick={renewSelection}>
              Renew selected
            </Button>
            <Button size="sm" variant="ghost" onClick={clearSelection}>
              Clear selection
            </Button>
          </>
        ) : null}
      </div>
      <div
        className={
          list.status === "loading" ? "grid gap-4 opacity-60 md:grid-cols-2 2xl:grid-cols-3" : "grid gap-4 md:grid-cols-2 2xl:grid-cols-3"
        }
        aria-busy={list.status === "loading"}
      >
        {list.items.map((proxy) => (
          <ProxyCard key={proxy.id} proxy={proxy} selected={selected.has(proxy.id)} />
        ))}
      </div>
      {list.totalPages > 1 ? (
        <div className="space-y-1">
          <Pager page={list.page} hasNext={list.page < list.totalPages} onPage={goToPage} disabled={list.status === "loading"} />
          <p className="text-center text-xs text-slate-500">{count(list.totalPages)} pages in all</p>
        </div>
      ) : null}
    </ListState>
  );
}
