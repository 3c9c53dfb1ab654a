// The console Overview's one read: GET /api/admin/overview (pocketbase/pb_hooks/console-users.pb.js).
import { pb } from "@/lib/pocketbase";
import type { TransactionType } from "@/lib/pocketbase-types";

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
  /** Money received: paid payments (refunds of proxy orders give credits back, not money). */
  total_revenue_cents: number;
  active_proxies: number;
  recent_transactions: RecentTransaction[];
}

export function fetchOverview(signal?: AbortSignal): Promise<AdminOverview> {
  return pb().send<AdminOverview>("/api/admin/overview", { method: "GET", requestKey: null, ...(signal ? { signal } : {}) });
}
