// The affiliate programme: your referral code, what it earned, and how you want it paid
// (pb_hooks/lib/affiliate/affiliate.js).
import * as v from "valibot";
import { routeList, routesOf } from "./define";
import { Cents, Count, Id } from "./schemas";

/** The longest payout method (catalog.json affiliate.payout_method_max). */
export const MAX_PAYOUT_METHOD = 500;

export const AffiliateSummary = v.pipe(
  v.object({
    code: v.pipe(v.string(), v.description("Your referral code: customers who sign up with it are your referrals.")),
    total_referrals: v.pipe(Count, v.description("Referred customers who verified their e-mail address.")),
    payout_method: v.pipe(v.string(), v.description('How you want commissions paid (free text); "" when not set.')),
    total_earnings_cents: Cents,
    pending_earnings_cents: v.pipe(Cents, v.description("Earned, not paid out yet.")),
    paid_earnings_cents: Cents,
    this_month_earnings_cents: v.pipe(Cents, v.description("Earned this UTC month, net of reversals.")),
    program: v.object({
      commission_percent: Count,
      cookie_days: Count,
      minimum_payout_cents: Cents,
      payout_schedule: v.string(),
    }),
    recent_referrals: v.pipe(
      v.array(
        v.object({
          id: Id,
          created: v.pipe(v.string(), v.description('When they signed up, UTC as the shop stores it ("2026-11-27 12:40:27.007Z").')),
          name: v.pipe(v.string(), v.description('First name and last initial ("Jane D.").')),
          email: v.pipe(v.string(), v.description('Masked ("j***@example.com").')),
          commission_cents: Cents,
          status: v.picklist(["pending", "paid"]),
        }),
      ),
      v.description("The five newest referrals that count (verified)."),
    ),
  }),
  v.title("AffiliateSummary"),
  v.examples([
    {
      code: "JANE2026",
      total_referrals: 3,
      payout_method: "PayPal: jane@example.com",
      total_earnings_cents: 4500,
      pending_earnings_cents: 1500,
      paid_earnings_cents: 3000,
      this_month_earnings_cents: 500,
      program: { commission_percent: 10, cookie_days: 30, minimum_payout_cents: 5000, payout_schedule: "Monthly" },
      recent_referrals: [
        {
          id: "r4t8y2u6i1o5p9a",
          created: "2026-11-27 12:40:27.007Z",
          name: "Sam K.",
          email: "s***@example.com",
          commission_cents: 500,
          status: "pending",
        },
      ],
    },
  ]),
);

const affiliate = routesOf({ tag: "Affiliate", scope: "read" });

export const getAffiliate = affiliate.get("/affiliate", {
  summary: "Your affiliate figures",
  description: "Your code, referrals, earnings, payout method and the programme's terms.",
  response: AffiliateSummary,
});

export const setAffiliatePayoutMethod = affiliate.put("/affiliate/payout-method", {
  summary: "Set how your commissions are paid",
  description:
    "Free text (a PayPal address, bank details) that shop staff read when they pay you; trimmed, line breaks kept, other control characters refused. An account setting: a signed-in session only, never an API key.",
  scope: "session",
  body: v.pipe(
    v.object({
      payout_method: v.pipe(
        v.string("Payout method must be text"),
        v.maxLength(MAX_PAYOUT_METHOD, `Payout method must be at most ${MAX_PAYOUT_METHOD} characters`),
        v.description('"" clears it.'),
      ),
    }),
    v.examples([{ payout_method: "PayPal: payouts@example.com" }]),
  ),
  response: AffiliateSummary,
  errors: [403],
});

export const affiliateRoutes = routeList({ getAffiliate, setAffiliatePayoutMethod });
