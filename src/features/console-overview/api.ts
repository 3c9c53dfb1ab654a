// The console Overview's reads: the contract's getOverview (GET /api/admin/overview) and
// getSystemAlerts (GET /api/admin/system-alerts), through the typed caller.
import { apiThrough } from "@/lib/api-client";
import { getOverview, getSystemAlerts } from "@/lib/api-contract/admin/insights";
import type { ResponseOf } from "@/lib/api-contract/define";
import { pb, type TypedPocketBase } from "@/lib/pocketbase";
import type { FirstDataContext } from "@/lib/server/first-data";

export type AdminOverview = ResponseOf<typeof getOverview>;
export type SystemAlerts = ResponseOf<typeof getSystemAlerts>;

/** The figures, read with `client`'s session (the browser's, or the admin's own on the server). */
export function fetchOverview(signal?: AbortSignal, client: TypedPocketBase = pb()): Promise<AdminOverview> {
  return apiThrough(() => client).call(getOverview, signal ? { signal } : {});
}

/** What System Alerts reads, with `client`'s session. */
export function fetchSystemAlerts(signal?: AbortSignal, client: TypedPocketBase = pb()): Promise<SystemAlerts> {
  return apiThrough(() => client).call(getSystemAlerts, signal ? { signal } : {});
}

/** The Overview's first data, read on the server with the admin's session (pages/console/index.astro). */
export const overviewFirstData = {
  overview: ({ client, signal }: FirstDataContext): Promise<AdminOverview> => fetchOverview(signal, client),
  alerts: ({ client, signal }: FirstDataContext): Promise<SystemAlerts> => fetchSystemAlerts(signal, client),
};
