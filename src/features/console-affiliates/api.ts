// Affiliate Management calls: GET /api/admin/affiliates, GET /api/admin/affiliates/{id}/referrals,
// POST /api/admin/referrals/{id}/pay (console-insights.pb.js).
import { pb, type TypedPocketBase } from "@/lib/pocketbase";
import type { FirstDataContext } from "@/lib/server/first-data";

export const AFFILIATES_PER_PAGE = 20;
export const REFERRALS_PER_PAGE = 20;

export interface AffiliateRow {
  id: string;
  user_id: string;
  user_email: string;
  user_first_name: string;
  user_last_name: string;
  code: string;
  total_earnings_cents: number;
  /** Below zero: clawbacks of paid commissions (refunded or charged-back payments), netted against the next payouts. */
  pending_earnings_cents: number;
  paid_earnings_cents: number;
  /** Referrals whose user verified their e-mail, counted from the referrals. */
  total_referrals: number;
  /** How the affiliate wants to be paid (PayPal e-mail, bank note: free text they entered); "" none. */
  payout_method: string;
}

export interface AffiliateStats {
  total_affiliates: number;
  commission_paid_cents: number;
  pending_payouts_cents: number;
  total_referrals: number;
}

export interface AffiliatePage {
  items: AffiliateRow[];
  page: number;
  totalItems: number;
  totalPages: number;
  stats: AffiliateStats;
}

export interface ReferralRow {
  id: string;
  affiliate_id: string;
  referred_user_id: string;
  user_email: string;
  user_first_name: string;
  user_last_name: string;
  user_verified: boolean;
  commission_cents: number;
  /** Still to pay, net of reversals; below zero: a clawback of a paid commission, netted against the next payout. */
  pending_cents: number;
  /** Commission that (legacy) test-provider payments earned: no money moved, never owed or paid out. */
  test_commission_cents: number;
  status: string;
  created: string;
  paid_at: string;
  /** Reasons to check the referral before paying it: "same_signup_address", "same_payment_card". */
  flags?: string[];
}

export interface ReferralPage {
  affiliate: AffiliateRow;
  items: ReferralRow[];
  page: number;
  totalItems: number;
  totalPages: number;
}

export interface PayoutResult {
  payout: { id: string; amount_cents: number };
  referral: ReferralRow;
  affiliate: AffiliateRow;
}

export function fetchAffiliates(
  search: string,
  page: number,
  signal?: AbortSignal,
  client: TypedPocketBase = pb(),
): Promise<AffiliatePage> {
  return client.send<AffiliatePage>("/api/admin/affiliates", {
    method: "GET",
    query: { search, page, perPage: AFFILIATES_PER_PAGE },
    requestKey: null,
    ...(signal ? { signal } : {}),
  });
}

/** The page's first data, read on the server with the admin's session (pages/console/affiliates.astro). */
export const affiliatesFirstData = {
  affiliates: ({ client, signal }: FirstDataContext): Promise<AffiliatePage> => fetchAffiliates("", 1, signal, client),
};

export function fetchReferrals(affiliateId: string, page: number, signal?: AbortSignal): Promise<ReferralPage> {
  return pb().send<ReferralPage>(`/api/admin/affiliates/${encodeURIComponent(affiliateId)}/referrals`, {
    method: "GET",
    query: { page, perPage: REFERRALS_PER_PAGE },
    requestKey: null,
    ...(signal ? { signal } : {}),
  });
}

/** Pays a referral's pending commissions; `key` is the same for every retry of one attempt. */
export function payReferral(referralId: string, key: string): Promise<PayoutResult> {
  return pb().send<PayoutResult>(`/api/admin/referrals/${encodeURIComponent(referralId)}/pay`, {
    method: "POST",
    headers: { "Idempotency-Key": key },
    requestKey: null,
  });
}
