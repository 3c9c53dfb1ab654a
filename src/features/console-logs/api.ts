// Audit Logs reads: GET /api/admin/audit-logs and /summary (console-insights.pb.js).
import { pb, type TypedPocketBase } from "@/lib/pocketbase";
import type { FirstDataContext } from "@/lib/server/first-data";

export const AUDIT_LOGS_PER_PAGE = 20;

export interface AuditEntry {
  id: string;
  action: string;
  target_type: string;
  target_id: string;
  details: unknown;
  created: string;
  admin_id: string;
  admin_email: string;
  admin_first_name: string;
  admin_last_name: string;
  /** What a sentence names the target by (a user's e-mail, a proxy's host:port, a plan's name, a ticket's subject, a setting's key); "" when unknown. */
  target_label: string;
  /** A person's name beside the label (a user's full name), else "". */
  target_name: string;
  /** The target (of a known kind) no longer exists. */
  target_deleted: boolean;
}

export interface AuditPage {
  items: AuditEntry[];
  page: number;
  perPage: number;
  totalItems: number;
  totalPages: number;
}

export interface AuditSummary {
  today: number;
  this_week: number;
  active_admins: number;
  /** The gateways' uptime over the last 7 days; null before any gateway reported. */
  uptime_percent: number | null;
  actions: string[];
}

export interface AuditCriteria {
  search: string;
  action: string;
}

export function fetchAuditPage(
  criteria: AuditCriteria,
  page: number,
  signal?: AbortSignal,
  client: TypedPocketBase = pb(),
): Promise<AuditPage> {
  return client.send<AuditPage>("/api/admin/audit-logs", {
    method: "GET",
    query: { search: criteria.search, action: criteria.action, page, perPage: AUDIT_LOGS_PER_PAGE },
    requestKey: null,
    ...(signal ? { signal } : {}),
  });
}

export function fetchAuditSummary(signal?: AbortSignal, client: TypedPocketBase = pb()): Promise<AuditSummary> {
  return client.send<AuditSummary>("/api/admin/audit-logs/summary", { method: "GET", requestKey: null, ...(signal ? { signal } : {}) });
}

/** The page's first data, read on the server with the admin's session (pages/console/logs.astro). */
export const auditLogsFirstData = {
  entries: ({ client, signal }: FirstDataContext): Promise<AuditPage> => fetchAuditPage({ search: "", action: "" }, 1, signal, client),
  summary: ({ client, signal }: FirstDataContext): Promise<AuditSummary> => fetchAuditSummary(signal, client),
};
