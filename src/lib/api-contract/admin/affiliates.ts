// Affiliate Management (pb_hooks/affiliate.pb.js, money.pb.js): the affiliates with their
// earnings, one affiliate's referrals, and paying a referral's pending commission.
import * as v from "valibot";
import { route } from "../define";
import { Count, DbDate, Int, pageEntries, pagingQuery, person, searchQuery } from "./common";

const TAG = "Affiliates";
const ADMIN = "/api/admin" as const;

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

export const listAffiliates = route({
  id: "listAffiliates",
  method: "GET",
  path: "/affiliates",
  base: ADMIN,
  tag: TAG,
  summary: "Affiliates with a counted referral or earnings, and the program's totals",
  scope: "admin",
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
  errors: [400],
});

export const listAffiliateReferrals = route({
  id: "listAffiliateReferrals",
  method: "GET",
  path: "/affiliates/{id}/referrals",
  base: ADMIN,
  tag: TAG,
  summary: "One affiliate's referrals",
  scope: "admin",
  params: { id: "The affiliate's id." },
  query: v.object(pagingQuery),
  response: v.object({ affiliate: AffiliateRow, ...pageEntries(ReferralRow) }),
  errors: [404],
});

export const payReferral = route({
  id: "payReferral",
  method: "POST",
  path: "/referrals/{id}/pay",
  base: ADMIN,
  tag: TAG,
  summary: "Pay a referral's pending commission",
  description:
    "Marks its pending commissions paid and records the payout (audited referrals.pay); refused below the minimum payout, with nothing pending (400), or when already paid (409).",
  scope: "admin",
  params: { id: "The referral's id." },
  idempotency: "required",
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
  errors: [400, 403, 404, 409, 422],
});

export const affiliateRoutes = [listAffiliates, listAffiliateReferrals, payReferral];
