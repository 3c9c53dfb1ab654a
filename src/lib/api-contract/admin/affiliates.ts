// Affiliate Management (pb_hooks/affiliate.pb.js, money.pb.js): the affiliates with their
// earnings, one affiliate's referrals, and paying a referral's pending commission.
import * as v from "valibot";
import { routeList, routesOf } from "../define";
import { Count, DbDate, Int, PagingQuery, pageEntries, pagingQuery, person, searchQuery } from "./common";

export const AffiliateRow = v.object({
  id: v.string(),
  user_id: v.string(),
  ...person("user"),
  code: v.string(),
  total_earnings_cents: Int,
  pending_earnings_cents: v.pipe(
    Int,
    v.description("Below zero: clawbacks of paid commissions (refunded or charged-back payments), netted against the next payouts."),
  ),
  paid_earnings_cents: Int,
  total_referrals: v.pipe(Count, v.description("Referrals whose user verified their e-mail.")),
  payout_method: v.pipe(v.string(), v.description('How the affiliate wants to be paid (free text they entered); "" none.')),
});

export const ReferralRow = v.object({
  id: v.string(),
  affiliate_id: v.string(),
  referred_user_id: v.string(),
  ...person("user"),
  user_verified: v.boolean(),
  commission_cents: Int,
  pending_cents: v.pipe(Int, v.description("Still to pay, net of reversals; below zero: a clawback netted against the next payout.")),
  test_commission_cents: v.pipe(Int, v.description("Commission that test-provider payments earned: never owed or paid out.")),
  status: v.string(),
  created: DbDate,
  paid_at: DbDate,
  flags: v.optional(
    v.pipe(
      v.array(v.picklist(["same_signup_address", "same_payment_card"])),
      v.description("Reasons to check the referral before paying it."),
    ),
  ),
});

const affiliates = routesOf({
  base: "/api/admin",
  tag: "Affiliates",
  scope: "admin",
  idempotency: "required",
  params: { id: "The affiliate's id." },
});

export const listAffiliates = affiliates.get("/affiliates", {
  summary: "Affiliates with a counted referral or earnings, and the program's totals",
  query: v.object({ search: searchQuery, ...pagingQuery }),
  response: v.object({
    ...pageEntries(AffiliateRow),
    stats: v.object({
      total_affiliates: Count,
      commission_paid_cents: Int,
      pending_payouts_cents: Int,
      total_referrals: Count,
    }),
  }),
});

export const listAffiliateReferrals = affiliates.get("/affiliates/{id}/referrals", {
  summary: "One affiliate's referrals",
  query: PagingQuery,
  response: v.object({ affiliate: AffiliateRow, ...pageEntries(ReferralRow) }),
});

export const payReferral = affiliates.post("/referrals/{id}/pay", {
  summary: "Pay a referral's pending commission",
  description:
    "Marks its pending commissions paid and records the payout (audited referrals.pay); refused below the minimum payout, with nothing pending (400), or when already paid (409).",
  params: { id: "The referral's id." },
  response: v.object({
    payout: v.object({
      id: v.string(),
      referral_id: v.string(),
      affiliate_id: v.string(),
      admin_id: v.string(),
      amount_cents: Int,
      commission_ids: v.array(v.string()),
      created: DbDate,
    }),
    referral: ReferralRow,
    affiliate: AffiliateRow,
  }),
  errors: [409],
});

export const affiliateRoutes = routeList({ listAffiliates, listAffiliateReferrals, payReferral });
