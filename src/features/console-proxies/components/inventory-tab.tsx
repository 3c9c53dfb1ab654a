// Inventory tab (admin spec "Inventory tab"): search, type, country and status filters,
// the count, a table paged on the server, edit and delete per row.
import { useStore } from "@nanostores/react";
import { useSeededStore } from "@/stores/seed";
import { Pencil, SearchX, Server, Trash2 } from "lucide-react";
import { useState } from "react";
import { Alert, LoadError } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { Pager } from "@/components/ui/pager";
import { Select } from "@/components/ui/select";
import { Skeleton } from "@/components/ui/skeleton";
import { cn } from "@/lib/cn";
import { LocalDateTime } from "@/components/session/local-date-time";
import type { ProxyStatus } from "@/lib/pocketbase-types";
import { PROXY_TYPES, type ProxyType } from "@/lib/site";
import type { AdminProxy, InventoryCriteria } from "@/features/console-proxies/api";
import { countryLabel, placeLabel } from "@/features/console-proxies/locations";
import { PROXY_STATUSES, STATUS_LABELS, TYPE_LABELS } from "@/features/console-proxies/schemas";
import {
  $inventory,
  $inventoryQuery,
  $inventorySearchText,
  $proxyStats,
  address,
  clearInventoryFilters,
  goToInventoryPage,
  reloadInventory,
  setInventoryFilter,
  setInventorySearch,
} from "@/features/console-proxies/stores";
import { DeleteProxyDialog } from "@/features/console-proxies/components/delete-proxy-dialog";
import { EditProxyDialog } from "@/features/console-proxies/components/edit-proxy-dialog";

export const STATUS_TONES: Record<ProxyStatus, "success" | "info" | "danger" | "warning"> = {
  AVAILABLE: "success",
  ASSIGNED: "info",
  EXPIRED: "danger",
  MAINTENANCE: "warning",
};

const hasCriteria = (c: InventoryCriteria) => !!(c.search || c.type || c.country || c.status);

export function InventoryTab() {
  const [editing, setEditing] = useState<AdminProxy | null>(null);
  const [deleting, setDeleting] = useState<AdminProxy | null>(null);
  return (
    <div className="space-y-4">
      <h2 className="sr-only">Inventory</h2>
      <Filters />
      <ProxyTable onEdit={setEditing} onDelete={setDeleting} />
      <EditProxyDialog proxy={editing} onClose={() => setEditing(null)} />
      <DeleteProxyDialog proxy={deleting} onClose={() => setDeleting(null)} />
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
      <Field id="proxy-search" label="Search" className="sm:col-span-2 lg:col-span-1">
        <Input
          id="proxy-search"
          type="search"
          placeholder="Host, username, city, state or customer e-mail"
          value={text}
          onChange={(e) => setInventorySearch(e.target.value)}
          autoComplete="off"
        />
      </Field>
      <Field id="proxy-type-filter" label="Type">
        <Select
          id="proxy-type-filter"
          value={criteria.type}
          onChange={(e) => setInventoryFilter({ type: e.target.value as ProxyType | "" })}
        >
          <option value="">All Types</option>
          {PROXY_TYPES.map((type) => (
            <option key={type} value={type}>
              {TYPE_LABELS[type]}
            </option>
          ))}
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
          {PROXY_STATUSES.map((status) => (
            <option key={status} value={status}>
              {STATUS_LABELS[status]}
            </option>
          ))}
        </Select>
      </Field>
    </div>
  );
}

interface ProxyTableProps {
  onEdit: (proxy: AdminProxy) => void;
  onDelete: (proxy: AdminProxy) => void;
}

function ProxyTable({ onEdit, onDelete }: ProxyTableProps) {
  const list = useSeededStore($inventory);
  const loadingFirst = list.status === "loading" && list.items.length === 0;

  const count = (
    <p className="text-sm text-slate-600" aria-live="polite" data-testid="proxy-count">
      {loadingFirst ? "Loading proxies..." : list.totalItems === 1 ? "1 proxy" : `${list.totalItems} proxies`}
    </p>
  );

  if (list.status === "error" && list.items.length === 0) {
    return <LoadError message={list.error} onRetry={reloadInventory} />;
  }
  if (loadingFirst) {
    return (
      <div className="space-y-3">
        {count}
        <div className="space-y-2" aria-busy="true" aria-label="Loading proxies">
          {[0, 1, 2, 3, 4].map((i) => (
            <Skeleton key={i} className="h-14 rounded-lg" />
          ))}
        </div>
      </div>
    );
  }
  if (list.items.length === 0) {
    const filtered = hasCriteria(list.criteria);
    return (
      <div className="space-y-3">
        {count}
        <EmptyState
          icon={filtered ? SearchX : Server}
          title="No proxies found"
          text={filtered ? "Try adjusting your search or filter criteria" : "Generate or import proxies to fill the inventory"}
        >
          {filtered ? (
            <Button variant="secondary" size="sm" onClick={clearInventoryFilters}>
              Clear filters
            </Button>
          ) : null}
        </EmptyState>
      </div>
    );
  }

  return (
    <div className="space-y-3">
      {count}
      {list.status === "error" ? <Alert tone="error">{list.error}</Alert> : null}
      {/* Small screens: one card per proxy, actions in reach. */}
      <ul
        aria-label="Proxy inventory"
        aria-busy={list.status === "loading"}
        className={cn("space-y-2 sm:hidden", list.status === "loading" && "opacity-60")}
      >
        {list.items.map((proxy) => (
          <li key={proxy.id} className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm" data-testid="proxy-card">
            <div className="flex items-start justify-between gap-2">
              <p className="min-w-0 font-mono text-xs break-all text-slate-900">{address(proxy)}</p>
              <Badge tone={STATUS_TONES[proxy.status]}>{STATUS_LABELS[proxy.status]}</Badge>
            </div>
            <p className="mt-2 text-sm text-slate-900">
              {TYPE_LABELS[proxy.type]} · <span className="font-mono text-xs break-all text-slate-600">{proxy.username}</span>
            </p>
            <p className="text-sm text-slate-700">{placeLabel(proxy) || "—"}</p>
            <Owner proxy={proxy} />
            <RowActions proxy={proxy} onEdit={onEdit} onDelete={onDelete} />
          </li>
        ))}
      </ul>
      <div
        role="region"
        aria-label="Proxy inventory table"
        tabIndex={0}
        className="hidden overflow-x-auto rounded-xl border border-slate-200 bg-white shadow-sm focus:ring-2 focus:ring-primary/30 focus:outline-none sm:block"
      >
        <table
          className={cn("w-full min-w-[44rem] text-left text-sm", list.status === "loading" && "opacity-60")}
          aria-busy={list.status === "loading"}
        >
          <thead className="border-b border-slate-200 bg-slate-50 text-xs font-semibold tracking-wide text-slate-600 uppercase">
            <tr>
              <th scope="col" className="px-4 py-3">
                Proxy
              </th>
              <th scope="col" className="px-4 py-3">
                Type / Username
              </th>
              <th scope="col" className="px-4 py-3">
                Location
              </th>
              <th scope="col" className="px-4 py-3">
                Status
              </th>
              <th scope="col" className="px-4 py-3 text-right">
                Actions
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {list.items.map((proxy) => (
              <tr key={proxy.id} data-testid="proxy-row">
                <td className="px-4 py-3 font-mono text-xs break-all text-slate-900">{address(proxy)}</td>
                <td className="px-4 py-3">
                  <p className="font-medium text-slate-900">{TYPE_LABELS[proxy.type]}</p>
                  <p className="font-mono text-xs break-all text-slate-600">{proxy.username}</p>
                </td>
                <td className="px-4 py-3 text-slate-700">{placeLabel(proxy) || "—"}</td>
                <td className="px-4 py-3">
                  <Badge tone={STATUS_TONES[proxy.status]}>{STATUS_LABELS[proxy.status]}</Badge>
                  <Owner proxy={proxy} />
                </td>
                <td className="px-4 py-3">
                  <RowActions proxy={proxy} onEdit={onEdit} onDelete={onDelete} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {list.totalPages > 1 ? (
        <Pager page={list.page} hasNext={list.page < list.totalPages} onPage={goToInventoryPage} disabled={list.status === "loading"} />
      ) : null}
    </div>
  );
}

function Owner({ proxy }: { proxy: AdminProxy }) {
  return (
    <>
      {proxy.owner_email ? <p className="mt-1 text-xs break-all text-slate-600">{proxy.owner_email}</p> : null}
      {proxy.expires_at ? (
        <p className="text-xs text-slate-500">
          until <LocalDateTime value={proxy.expires_at} dateOnly />
        </p>
      ) : null}
    </>
  );
}

function RowActions({ proxy, onEdit, onDelete }: { proxy: AdminProxy } & ProxyTableProps) {
  return (
    <div className="mt-2 flex justify-end gap-1 sm:mt-0">
      <Button variant="ghost" size="sm" aria-label={`Edit ${address(proxy)}`} onClick={() => onEdit(proxy)}>
        <Pencil className="size-4" aria-hidden="true" />
      </Button>
      <Button
        variant="ghost"
        size="sm"
        className="text-red-700 hover:bg-red-50"
        aria-label={`Delete ${address(proxy)}`}
        onClick={() => onDelete(proxy)}
      >
        <Trash2 className="size-4" aria-hidden="true" />
      </Button>
    </div>
  );
}
