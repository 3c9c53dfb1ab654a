// The inventory's table (wider screens; phones get one card per proxy) and the parts the
// cards share with it. host:port is the gateway's endpoint (the same for many proxies), so a
// row's actions are named by its username, unique in the shop.
import { createColumnHelper } from "@tanstack/react-table";
import { Pencil, Trash2 } from "lucide-react";
import { LocalDateTime } from "@/components/session/local-date-time";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { PROXY_TYPE_LABELS } from "@/lib/catalog";
import type { ProxyStatus } from "@/lib/pocketbase-types";
import type { AdminProxy } from "@/features/console-proxies/api";
import { placeLabel } from "@/features/console-proxies/locations";
import { STATUS_LABELS } from "@/features/console-proxies/schemas";
import { openProxyDialog } from "@/features/console-proxies/stores";
import { UpstreamFailure } from "@/features/console-proxies/components/upstream-failure";
import { endpoint } from "@/lib/endpoint";

export const STATUS_TONES: Record<ProxyStatus, "success" | "info" | "danger" | "warning"> = {
  AVAILABLE: "success",
  ASSIGNED: "info",
  EXPIRED: "danger",
  MAINTENANCE: "warning",
};

const column = createColumnHelper<AdminProxy>();

export const PROXY_COLUMNS = [
  column.display({
    id: "proxy",
    header: "Proxy",
    meta: { cellClassName: "font-mono text-xs text-slate-900" },
    cell: ({ row }) => <EndpointText proxy={row.original} />,
  }),
  column.display({
    id: "type",
    header: "Type / Username",
    cell: ({ row: { original: proxy } }) => (
      <>
        <p className="font-medium text-slate-900">{PROXY_TYPE_LABELS[proxy.type]}</p>
        <p className="font-mono text-xs break-all text-slate-600">{proxy.username}</p>
      </>
    ),
  }),
  column.display({
    id: "exit",
    header: "Exit",
    cell: ({ row }) => <ExitCell proxy={row.original} />,
  }),
  column.display({
    id: "location",
    header: "Location",
    meta: { cellClassName: "text-slate-700" },
    cell: ({ row }) => placeLabel(row.original) || "—",
  }),
  column.accessor("status", {
    header: "Status",
    cell: ({ row: { original: proxy } }) => (
      <>
        <StatusBadge status={proxy.status} />
        <Owner proxy={proxy} />
      </>
    ),
  }),
  column.display({
    id: "actions",
    header: "Actions",
    meta: { className: "text-right" },
    cell: ({ row }) => <RowActions proxy={row.original} />,
  }),
];

/**
 * host:port that may wrap inside a long host but never inside the port (issue #28: the
 * column broke "localhost:31 / 28"): the ":port" part is kept whole.
 */
export function EndpointText({ proxy }: { proxy: { host: string; port: number } }) {
  const text = endpoint(proxy);
  const port = `:${proxy.port}`;
  return (
    <span data-testid="proxy-endpoint">
      <span className="break-all">{text.slice(0, -port.length)}</span>
      <span className="whitespace-nowrap">{port}</span>
    </span>
  );
}

/** Where a proxy's traffic leaves: "Direct", "Direct from 203.0.113.10" or "Upstream host:port". */
export function exitLabel(proxy: Pick<AdminProxy, "exit" | "bind_address" | "upstream_host" | "upstream_port">): string {
  if (proxy.exit === "upstream") return `Upstream ${endpoint({ host: proxy.upstream_host, port: proxy.upstream_port })}`;
  return proxy.bind_address ? `Direct from ${proxy.bind_address}` : "Direct";
}

/** The exit, and the mark of an upstream the gateway could not reach. */
export function ExitCell({ proxy }: { proxy: AdminProxy }) {
  return (
    <div data-testid="proxy-exit">
      <p className="font-mono text-xs break-all text-slate-700">{exitLabel(proxy)}</p>
      <UpstreamFailure proxy={proxy} />
    </div>
  );
}

export function StatusBadge({ status }: { status: ProxyStatus }) {
  return <Badge tone={STATUS_TONES[status]}>{STATUS_LABELS[status]}</Badge>;
}

export function Owner({ proxy }: { proxy: AdminProxy }) {
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

export function RowActions({ proxy }: { proxy: AdminProxy }) {
  return (
    <div className="mt-2 flex justify-end gap-1 sm:mt-0">
      <Button variant="ghost" size="sm" aria-label={`Edit proxy ${proxy.username}`} onClick={() => openProxyDialog("edit", proxy)}>
        <Pencil className="size-4" aria-hidden="true" />
      </Button>
      <Button
        variant="ghost"
        size="sm"
        className="text-red-700 hover:bg-red-50"
        aria-label={`Delete proxy ${proxy.username}`}
        onClick={() => openProxyDialog("delete", proxy)}
      >
        <Trash2 className="size-4" aria-hidden="true" />
      </Button>
    </div>
  );
}
