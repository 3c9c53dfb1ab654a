// The console's proxy routes (/api/admin/proxies..., pocketbase/pb_hooks/proxies.pb.js).
import { pb, type TypedPocketBase } from "@/lib/pocketbase";
import type { ProxyRecord, ProxyStatus } from "@/lib/pocketbase-types";
import type { MonthUsage } from "@/lib/month-usage";
import type { FirstDataContext } from "@/lib/server/first-data";
import type { ProxyType } from "@/lib/catalog";

export const PROXIES_PER_PAGE = 25;

/** Where a proxy's traffic leaves the gateway: from the gateway's machine, or through an upstream proxy. */
export type ProxyExit = "direct" | "upstream";

/**
 * A proxy as the console lists it (never a password), with its owner's e-mail. host and port
 * are the gateway's endpoint the customer connects to; exit, bind_address and upstream_* say
 * where its traffic leaves (the upstream's password never leaves the server: only whether one
 * is stored).
 */
export interface AdminProxy extends Pick<
  ProxyRecord,
  | "id"
  | "host"
  | "port"
  | "username"
  | "type"
  | "country"
  | "state"
  | "city"
  | "status"
  | "assigned_to_user_id"
  | "expires_at"
  | "auto_renew"
  | "created"
  | "updated"
  | "bandwidth_quota_bytes"
  | "max_connections"
> {
  owner_email: string;
  /** "" is read as "direct". */
  exit: ProxyExit | "";
  /** For direct: the local address of the gateway machine it sends from ("" = the OS default). */
  bind_address: string;
  upstream_host: string;
  upstream_port: number;
  upstream_username: string;
  upstream_has_password: boolean;
  /** When the gateway last failed to reach the upstream ("" or null while it works). */
  upstream_failed_at: string | null;
  upstream_error: string;
}

/** Traffic totals of a period (pb_hooks/lib/proxies/usage.js). */
export interface UsageTotals {
  bytes_up: number;
  bytes_down: number;
  bytes: number;
  connections: number;
  failed_connections: number;
}

/**
 * One proxy for the edit form, with the customer's plaintext password (never the
 * upstream's) and its usage: this month and the last 24 hours.
 */
export interface AdminProxyDetail extends AdminProxy {
  password: string;
  usage: { month: MonthUsage; last_24h: UsageTotals };
}

export interface InventoryCriteria {
  search: string;
  type: ProxyType | "";
  country: string;
  status: ProxyStatus | "";
}

export interface InventoryPage {
  items: AdminProxy[];
  page: number;
  perPage: number;
  totalItems: number;
  totalPages: number;
}

export interface ProxyStats {
  total: number;
  available: number;
  assigned: number;
  expired: number;
  maintenance: number;
  by_type: Record<string, number>;
  by_country: Record<string, number>;
}

export interface SkippedLine {
  line: number;
  text: string;
  reason: string;
}

export interface ImportResult {
  imported: number;
  skipped: SkippedLine[];
  message: string;
}

export interface GenerateResult {
  generated_count: number;
  message: string;
  ids: string[];
}

export function fetchInventory(
  criteria: InventoryCriteria,
  page: number,
  signal?: AbortSignal,
  client: TypedPocketBase = pb(),
): Promise<InventoryPage> {
  const query: Record<string, string | number> = { page, perPage: PROXIES_PER_PAGE };
  for (const key of ["search", "type", "country", "status"] as const) if (criteria[key]) query[key] = criteria[key];
  return client.send<InventoryPage>("/api/admin/proxies", { method: "GET", query, requestKey: null, ...(signal ? { signal } : {}) });
}

export function fetchStats(signal?: AbortSignal, client: TypedPocketBase = pb()): Promise<ProxyStats> {
  return client.send<ProxyStats>("/api/admin/proxies/stats", { method: "GET", requestKey: null, ...(signal ? { signal } : {}) });
}

/** The page's first data, read on the server with the admin's session (pages/console/proxies.astro). */
export const proxyManagementFirstData = {
  inventory: ({ client, signal }: FirstDataContext): Promise<InventoryPage> =>
    fetchInventory({ search: "", type: "", country: "", status: "" }, 1, signal, client),
  stats: ({ client, signal }: FirstDataContext): Promise<ProxyStats> => fetchStats(signal, client),
};

export function fetchProxy(id: string, signal?: AbortSignal): Promise<AdminProxyDetail> {
  return pb().send<AdminProxyDetail>(`/api/admin/proxies/${encodeURIComponent(id)}`, {
    method: "GET",
    requestKey: null,
    ...(signal ? { signal } : {}),
  });
}

/**
 * An edit: the customer's credentials, the status, the exit and the limits. host and port are the
 * gateway's and are not sent; upstream_password is sent only to replace the stored one.
 */
export interface ProxyEdit {
  username: string;
  password: string;
  status: ProxyStatus;
  exit: ProxyExit;
  bind_address?: string;
  upstream_host?: string;
  upstream_port?: number;
  upstream_username?: string;
  upstream_password?: string;
  /** Whole GB a UTC month; 0 = unlimited. */
  bandwidth_quota_gb: number;
  /** Connections at once; 0 = unlimited. */
  max_connections: number;
}

export function updateProxy(id: string, body: ProxyEdit): Promise<AdminProxyDetail> {
  return pb().send<AdminProxyDetail>(`/api/admin/proxies/${encodeURIComponent(id)}`, { method: "PATCH", body, requestKey: null });
}

export async function deleteProxy(id: string): Promise<void> {
  await pb().send(`/api/admin/proxies/${encodeURIComponent(id)}`, { method: "DELETE", requestKey: null });
}

export function generateProxies(body: {
  type: ProxyType;
  country: string;
  state: string;
  city: string;
  quantity: number;
}): Promise<GenerateResult> {
  return pb().send<GenerateResult>("/api/admin/proxies/generate", { method: "POST", body, requestKey: null });
}

/** An import: upstream lines, and the type and place of the whole batch (left out = the server's defaults). */
export interface ImportRequest {
  text: string;
  type?: ProxyType;
  country?: string;
  state?: string;
  city?: string;
}

export function importProxies(body: ImportRequest): Promise<ImportResult> {
  return pb().send<ImportResult>("/api/admin/proxies/import", { method: "POST", body, requestKey: null });
}
