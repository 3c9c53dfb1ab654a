// The signed-in user's affiliate figures (getAffiliate) and how they want to be paid
// (setAffiliatePayoutMethod), through the typed caller (pocketbase/pb_hooks/lib/affiliate/affiliate.js).
import { api } from "@/lib/api-client";
import type { ResponseOf } from "@/lib/api-contract/define";
import { getAffiliate, setAffiliatePayoutMethod } from "@/lib/api-contract/affiliate";

/** The signed-in user's affiliate figures (the contract's AffiliateSummary). */
export type AffiliateSummary = ResponseOf<typeof getAffiliate>;
export type AffiliateProgram = AffiliateSummary["program"];
/** One of the newest referrals: "Ada L.", a masked e-mail ("a***@example.com"), the commission, paid or pending. */
export type RecentReferral = AffiliateSummary["recent_referrals"][number];

export async function loadAffiliate(signal?: AbortSignal): Promise<AffiliateSummary> {
  return api.call(getAffiliate, signal ? { signal } : {});
}

/** Saves the payout method ("" clears it); answers the figures as GET does. */
export async function savePayoutMethod(payoutMethod: string): Promise<ResponseOf<typeof setAffiliatePayoutMethod>> {
  return api.call(setAffiliatePayoutMethod, { body: { payout_method: payoutMethod } });
}
