// GET /api/v1/affiliate: the signed-in user's affiliate figures (pocketbase/pb_hooks/lib/affiliate/affiliate.js).
import { pb, withSignal } from "@/lib/pocketbase";

export interface AffiliateProgram {
  commission_percent: number;
  cookie_days: number;
  minimum_payout_cents: number;
  payout_schedule: string;
}

export interface RecentReferral {
  id: string;
  created: string;
  /** "Ada L." */
  name: string;
  /** Masked: "a***@example.com". */
  email: string;
  commission_cents: number;
  status: "paid" | "pending";
}

export interface AffiliateSummary {
  code: string;
  total_referrals: number;
  total_earnings_cents: number;
  pending_earnings_cents: number;
  paid_earnings_cents: number;
  this_month_earnings_cents: number;
  program: AffiliateProgram;
  recent_referrals: RecentReferral[];
}

export async function loadAffiliate(signal?: AbortSignal): Promise<AffiliateSummary> {
  return pb().send<AffiliateSummary>("/api/v1/affiliate", withSignal(signal));
}
