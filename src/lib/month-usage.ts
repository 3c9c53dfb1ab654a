// A proxy's UTC calendar month so far, as the server answers it (pb_hooks/lib/proxies/usage.js):
// the customer's cards (GET /api/v1/proxies/usage-summary) and the console's proxy detail read it.

export interface MonthUsage {
  /** Up and down together. */
  bytes: number;
  /** 0 = no quota. */
  quota_bytes: number;
  /** 0 = no cap. */
  max_connections: number;
  quota_reached: boolean;
  /** "2026-12-01": when the quota starts again (UTC). */
  renews_on: string;
}
