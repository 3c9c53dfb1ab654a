// The access matrix's rows for money: balances, the ledger, payments, orders and affiliates.
import { createTestUser } from "../../support/pocketbase.ts";
import { commissionFor, creditViaAdmin, orderFor, paymentFor, referralFor } from "./access-rows.ts";
import { claimedId, OWN_ROWS, SERVER_WRITES, type CollectionSpec } from "./access-spec-kit.ts";

export const balancesSpec: CollectionSpec = {
  name: "balances",
  make: async (ctx, owner) => (await ctx.su.collection("balances").getFirstListItem(`user_id = "${ctx.users[owner].id}"`)).id,
  createBody: async (ctx, who, marker) => ({
    user_id: claimedId(ctx, who),
    balance_cents: Number(marker.replace(/\D/g, "")),
  }),
  markerFilter: (m) => `balance_cents = ${Number(m.replace(/\D/g, ""))}`,
  updateBody: () => ({ balance_cents: 999_999 }),
  ...OWN_ROWS,
  ...SERVER_WRITES,
};

export const transactionsSpec: CollectionSpec = {
  name: "transactions",
  make: async (ctx, owner) => creditViaAdmin(ctx, ctx.users[owner].id, 100),
  createBody: async (ctx, who, marker) => ({
    user_id: claimedId(ctx, who),
    type: "CREDIT",
    amount_cents: 100_000,
    balance_after_cents: 100_000,
    description: marker,
  }),
  markerFilter: (m) => `description = "${m}"`,
  updateBody: () => ({ amount_cents: 999_999 }),
  ...OWN_ROWS,
  ...SERVER_WRITES,
};

export const affiliatesSpec: CollectionSpec = {
  name: "affiliates",
  make: async (ctx, owner) => (await ctx.su.collection("affiliates").getFirstListItem(`user_id = "${ctx.users[owner].id}"`)).id,
  createBody: async (ctx, who, marker) => ({
    user_id: claimedId(ctx, who),
    code: marker.toUpperCase().replace(/[^A-Z0-9]/g, ""),
  }),
  markerFilter: (m) => `code = "${m.toUpperCase().replace(/[^A-Z0-9]/g, "")}"`,
  updateBody: () => ({ total_earnings_cents: 999_999, pending_earnings_cents: 999_999 }),
  ...OWN_ROWS,
  ...SERVER_WRITES,
};

export const referralsSpec: CollectionSpec = {
  name: "referrals",
  // Referrals only come from a sign-up with the owner's code (the API refuses writes).
  make: async (ctx, owner) => referralFor(ctx, owner),
  createBody: async (ctx, who, marker) => {
    const affiliate = await ctx.su.collection("affiliates").getFirstListItem(`user_id = "${claimedId(ctx, who)}"`);
    const referred = await createTestUser(ctx.su, { first_name: marker });
    return { affiliate_id: affiliate.id, referred_user_id: referred.id, commission_cents: 100_000, status: "paid" };
  },
  markerFilter: (m) => `referred_user_id.first_name = "${m}"`,
  updateBody: () => ({ commission_cents: 999_999, status: "paid" }),
  ...OWN_ROWS,
  ...SERVER_WRITES,
};

export const paymentsSpec: CollectionSpec = {
  name: "payments",
  make: (ctx, owner) => paymentFor(ctx, owner),
  createBody: async (ctx, who, marker) => ({
    user_id: claimedId(ctx, who),
    package_id: marker,
    amount_cents: 1,
    currency: "usd",
    credits_cents: 100_000,
    provider: "test",
    status: "paid",
  }),
  markerFilter: (m) => `package_id = "${m}"`,
  updateBody: () => ({ status: "failed", credits_cents: 999_999 }),
  ...OWN_ROWS,
  ...SERVER_WRITES,
};

export const proxyOrdersSpec: CollectionSpec = {
  name: "proxy_orders",
  make: (ctx, owner) => orderFor(ctx, owner),
  createBody: async (ctx, who, marker) => ({
    user_id: claimedId(ctx, who),
    kind: "purchase",
    country: marker,
    quantity: 1,
    total_cents: 1,
    status: "completed",
  }),
  markerFilter: (m) => `country = "${m}"`,
  updateBody: () => ({ status: "refunded", total_cents: 1 }),
  ...OWN_ROWS,
  ...SERVER_WRITES,
};

export const commissionsSpec: CollectionSpec = {
  name: "commissions",
  make: (ctx, owner) => commissionFor(ctx, owner),
  createBody: async (ctx, who, marker) => {
    const affiliate = await ctx.su.collection("affiliates").getFirstListItem(`user_id = "${claimedId(ctx, who)}"`);
    return { affiliate_id: affiliate.id, referral_id: marker, payment_id: marker, amount_cents: 100_000, status: "pending" };
  },
  markerFilter: (m) => `amount_cents = 100000 && referral_id = "${m}"`,
  updateBody: () => ({ amount_cents: 999_999, status: "paid" }),
  ...OWN_ROWS,
  ...SERVER_WRITES,
};
