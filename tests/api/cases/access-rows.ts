// The access matrix's callers and the rows it makes for customer A or B (as the superuser,
// or through the routes that write them: a referral by sign-up, a payment and its
// commission through Stripe, an order by purchase).
import { randomUUID } from "node:crypto";
import type PocketBase from "pocketbase";
import type { RecordModel } from "pocketbase";
import type { TestPocketBase, TestUser } from "../../support/pocketbase.ts";
import { checkout, purchase } from "../../support/shop.ts";
import { payByStripe } from "../../support/stripe-mock.ts";

export type Who = "anon" | "A" | "B" | "admin";
export type Owner = "A" | "B";
export const WHO: Who[] = ["anon", "A", "B", "admin"];

export interface Context {
  tpb: TestPocketBase;
  su: PocketBase;
  /** A client signed in as `user` (one session per user). */
  signIn(user: TestUser): Promise<PocketBase>;
  users: Record<Owner | "admin", TestUser>;
  n: () => number;
}

export async function creditViaAdmin(ctx: Context, userId: string, cents: number): Promise<string> {
  const admin = await ctx.signIn(ctx.users.admin);
  const res = await admin.send<{ transaction: RecordModel }>(`/api/admin/users/${userId}/balance`, {
    method: "POST",
    body: { transaction_type: "CREDIT", amount_cents: cents, description: "matrix credit" },
    headers: { "Idempotency-Key": randomUUID() },
  });
  return res.transaction.id;
}

/** Signs a new customer up with `owner`'s affiliate code; returns the referral row's id. */
export async function referralFor(ctx: Context, owner: Owner): Promise<string> {
  const affiliate = await ctx.su.collection("affiliates").getFirstListItem(`user_id = "${ctx.users[owner].id}"`);
  const auth = await ctx.tpb.client().send<{ record: RecordModel }>("/api/shop/signup", {
    method: "POST",
    body: {
      first_name: "Referred",
      last_name: "Customer",
      email: `referred${ctx.n()}-${Date.now()}@test.local`,
      country: "Canada",
      ref: affiliate["code"],
    },
  });
  return (await ctx.su.collection("referrals").getFirstListItem(`referred_user_id = "${auth.record.id}"`)).id;
}

/** A credit purchase (a Stripe checkout, not paid yet) of `owner`; returns the payment id. */
export async function paymentFor(ctx: Context, owner: Owner): Promise<string> {
  const pb = await ctx.signIn(ctx.users[owner]);
  const res = await checkout(pb, "package-10", `matrix-${ctx.n()}`);
  return res.payment.id;
}

/** A proxy order of `owner` (stock made here, funded through the admin route); returns the order id. */
export async function orderFor(ctx: Context, owner: Owner): Promise<string> {
  const country = `M${ctx.n()}`;
  await ctx.su.collection("proxies").create({
    host: `order${ctx.n()}.test`,
    port: 1,
    username: `u${ctx.n()}`,
    password: "Order#Access2026",
    type: "HTTP",
    country,
    status: "AVAILABLE",
  });
  await creditViaAdmin(ctx, ctx.users[owner].id, 1000);
  const pb = await ctx.signIn(ctx.users[owner]);
  const res = await purchase(pb, { type: "HTTP", country, quantity: 1 }, `matrix-${ctx.n()}`);
  return res.order.id;
}

/**
 * A commission `owner` earns: a customer signs up with their code and buys credits with a
 * real (Stripe) payment: test payments earn none (security review #13, finding 2).
 */
export async function commissionFor(ctx: Context, owner: Owner): Promise<string> {
  const affiliate = await ctx.su.collection("affiliates").getFirstListItem(`user_id = "${ctx.users[owner].id}"`);
  const auth = await ctx.tpb.client().send<{ token: string; record: RecordModel }>("/api/shop/signup", {
    method: "POST",
    body: {
      first_name: "Paying",
      last_name: "Referral",
      email: `paying${ctx.n()}-${Date.now()}@test.local`,
      country: "Canada",
      ref: affiliate["code"],
    },
  });
  await ctx.su.collection("users").update(auth.record.id, { verified: true });
  const pb = ctx.tpb.client();
  pb.authStore.save(auth.token, auth.record);
  const res = await checkout(pb, "package-10", `matrix-${ctx.n()}`);
  await payByStripe(ctx.tpb.url, res.payment);
  return (await ctx.su.collection("commissions").getFirstListItem(`payment_id = "${res.payment.id}"`)).id;
}
