// GET /api/v1/affiliate: the signed-in user's affiliate figures; PUT /api/v1/affiliate/payout-method
// sets how they want to be paid (pocketbase/pb_hooks/lib/affiliate/affiliate.js).
import type { BodyOf, ResponseOf } from "@/lib/api-contract/define";
import type { getAffiliate, setAffiliatePayoutMethod } from "@/lib/api-contract/affiliate";
import { pb, withSignal } from "@/lib/pocketbase";

/** The signed-in user's affiliate figures (the contract's AffiliateSummary). */
export type AffiliateSummary = ResponseOf<typeof getAffiliate>;
export type AffiliateProgram = AffiliateSummary["program"];
/** One of the newest referrals: "Ada L.", a masked e-mail ("a***@example.com"), the commission, paid or pending. */
export type RecentReferral = AffiliateSummary["recent_referrals"][number];

export async function loadAffiliate(signal?: AbortSignal): Promise<AffiliateSummary> {
  return pb().send<AffiliateSummary>("/api/v1/affiliate", withSignal(signal));
}

/** Saves the payout method ("" clears it); answers the figures as GET does. */
export async function savePayoutMethod(payoutMethod: string): Promise<ResponseOf<typeof setAffiliatePayoutMethod>> {
  return pb().send<ResponseOf<typeof setAffiliatePayoutMethod>>("/api/v1/affiliate/payout-method", {
    method: "PUT",
    body: { payout_method: payoutMethod } satisfies BodyOf<typeof setAffiliatePayoutMethod>,
    requestKey: null,
  });
}
