// The console Overview's one read: GET /api/admin/overview (pocketbase/pb_hooks/console-users.pb.js).
import { pb, type TypedPocketBase } from "@/lib/pocketbase";
import type { TransactionType } from "@/lib/pocketbase-types";
import type { FirstDataContext } from "@/lib/server/first-data";

export interface RecentTransaction {
  id: string;
  user_id: string;
  user_email: string;
  type: TransactionType;
  amount_cents: number;
  description: string;
  created: string;
}

export interface AdminOverview {
  total_users: number;
  /**
   * Money received and kept: Stripe payments minus Stripe refunds and lost disputes (refunds
   * of proxy orders give credits back, not money).
   */
  total_revenue_cents: number;
  /** Test-provider payments: no money moved, never revenue. */
  test_payments_cents: number;
  active_proxies: number;
  recent_transactions: RecentTransaction[];
  /** The gateway today (UTC) so far: traffic and connections per proxy, and its connect figures. */
  gateway_today: {
    bytes_up: number;
    bytes_down: number;
    bytes: number;
    connections: number;
    failed_connections: number;
    connections_ok: number;
    connections_failed: number;
    /** ok / (ok + failed), one decimal; null without connections. */
    success_rate_percent: number | null;
  };
  /** Proxy traffic (bytes) this month so far against the same days of last month. */
  traffic_month: {
    current: number;
    previous: number;
    change_percent: number | null;
    /** "+15% vs the same days of last month", "No change" or "New". */
    caption: string;
  };
}

/** The figures, read with `client`'s session (the browser's, or the admin's own on the server). */
export function fetchOverview(signal?: AbortSignal, client: TypedPocketBase = pb()): Promise<AdminOverview> {
  return client.send<AdminOverview>("/api/admin/overview", { method: "GET", requestKey: null, ...(signal ? { signal } : {}) });
}

/** The Overview's first data, read on the server with the admin's session (pages/console/index.astro). */
export const overviewFirstData = {
  overview: ({ client, signal }: FirstDataContext): Promise<AdminOverview> => fetchOverview(signal, client),
};
