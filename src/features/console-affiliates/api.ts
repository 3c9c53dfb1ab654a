// Affiliate Management calls: the contract's affiliate routes (@/lib/api-contract/admin/affiliates:
// the affiliates, one affiliate's referrals, paying a referral), through the typed caller.
import { api, apiThrough } from "@/lib/api-client";
import { listAffiliateReferrals, listAffiliates, payReferral as payReferralRoute } from "@/lib/api-contract/admin/affiliates";
import type { ResponseOf } from "@/lib/api-contract/define";
import { pb } from "@/lib/pocketbase";
import type { FirstDataContext } from "@/lib/server/first-data";

export const AFFILIATES_PER_PAGE = 20;
export const REFERRALS_PER_PAGE = 20;

export type AffiliatePage = ResponseOf<typeof listAffiliates>;
export type AffiliateRow = AffiliatePage["items"][number];
export type AffiliateStats = AffiliatePage["stats"];
export type ReferralPage = ResponseOf<typeof listAffiliateReferrals>;
export type ReferralRow = ReferralPage["items"][number];
export type PayoutResult = ResponseOf<typeof payReferralRoute>;

export function fetchAffiliates(search: string, page: number, signal?: AbortSignal, client = pb()): Promise<AffiliatePage> {
  return apiThrough(() => client).call(listAffiliates, {
    query: { search, page, perPage: AFFILIATES_PER_PAGE },
    ...(signal ? { signal } : {}),
  });
}

/** The page's first data, read on the server with the admin's session (pages/console/affiliates.astro). */
export const affiliatesFirstData = {
  affiliates: ({ client, signal }: FirstDataContext): Promise<AffiliatePage> => fetchAffiliates("", 1, signal, client),
};

export function fetchReferrals(affiliateId: string, page: number, signal?: AbortSignal): Promise<ReferralPage> {
  return api.call(listAffiliateReferrals, {
    params: { id: affiliateId },
    query: { page, perPage: REFERRALS_PER_PAGE },
    ...(signal ? { signal } : {}),
  });
}

/** Pays a referral's pending commissions; `key` is the same for every retry of one attempt. */
export function payReferral(referralId: string, key: string): Promise<PayoutResult> {
  return api.call(payReferralRoute, { params: { id: referralId }, idempotencyKey: key });
}
