// GET /api/v1/affiliate: the signed-in user's affiliate figures; PUT /api/v1/affiliate/payout-method
// sets how they want to be paid (pocketbase/pb_hooks/lib/affiliate/affiliate.js).
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
  /** How the affiliate wants to be paid (PayPal e-mail, bank note: free text); "" none. */
  payout_method: string;
  program: AffiliateProgram;
  recent_referrals: RecentReferral[];
}

export async function loadAffiliate(signal?: AbortSignal): Promise<AffiliateSummary> {
  return pb().send<AffiliateSummary>("/api/v1/affiliate", withSignal(signal));
}

/** Saves the payout method ("" clears it); answers the figures as GET does. */
export async function savePayoutMethod(payoutMethod: string): Promise<AffiliateSummary> {
  return pb().send<AffiliateSummary>("/api/v1/affiliate/payout-method", {
    method: "PUT",
    body: { payout_method: payoutMethod },
    requestKey: null,
  });
}
