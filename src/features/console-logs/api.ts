// Audit Logs reads: the contract's listAuditLogs and getAuditSummary (GET /api/admin/audit-logs
// and /summary), through the typed caller.
import { apiThrough } from "@/lib/api-client";
import { getAuditSummary, listAuditLogs } from "@/lib/api-contract/admin/insights";
import type { ResponseOf } from "@/lib/api-contract/define";
import { pb } from "@/lib/pocketbase";
import type { FirstDataContext } from "@/lib/server/first-data";

export const AUDIT_LOGS_PER_PAGE = 20;

export type AuditPage = ResponseOf<typeof listAuditLogs>;
export type AuditEntry = AuditPage["items"][number];
export type AuditSummary = ResponseOf<typeof getAuditSummary>;

export interface AuditCriteria {
  search: string;
  action: string;
}

export function fetchAuditPage(criteria: AuditCriteria, page: number, signal?: AbortSignal, client = pb()): Promise<AuditPage> {
  return apiThrough(() => client).call(listAuditLogs, {
    query: { search: criteria.search, action: criteria.action, page, perPage: AUDIT_LOGS_PER_PAGE },
    ...(signal ? { signal } : {}),
  });
}

export function fetchAuditSummary(signal?: AbortSignal, client = pb()): Promise<AuditSummary> {
  return apiThrough(() => client).call(getAuditSummary, signal ? { signal } : {});
}

/** The page's first data, read on the server with the admin's session (pages/console/logs.astro). */
export const auditLogsFirstData = {
  entries: ({ client, signal }: FirstDataContext): Promise<AuditPage> => fetchAuditPage({ search: "", action: "" }, 1, signal, client),
  summary: ({ client, signal }: FirstDataContext): Promise<AuditSummary> => fetchAuditSummary(signal, client),
};
