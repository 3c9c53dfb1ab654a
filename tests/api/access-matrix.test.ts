// Every collection x (list, view, create, update, delete) x (anonymous, customer A,
// customer B, admin), asserted against a real PocketBase: status codes, which rows are
// seen, and that a refused write left the database unchanged.
import type PocketBase from "pocketbase";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestUser, signIn, startTestPocketBase, statusOf, type TestPocketBase, type TestUser } from "../support/pocketbase.ts";
import { expectEveryBalanceMatchesItsLedger, proxyFields } from "../support/shop.ts";
import { startStripeMock, stripeEnv, type StripeMock } from "../support/stripe-mock.ts";
import {
  commissionFor,
  creditViaAdmin,
  orderFor,
  paymentFor,
  referralFor,
  WHO,
  type Context,
  type Owner,
  type Who,
} from "./cases/access-rows.ts";
import { SPECS } from "./cases/access-specs.ts";

let stripe: StripeMock;
let tpb: TestPocketBase;
const sessions = new Map<string, PocketBase>();
async function signInCached(user: TestUser): Promise<PocketBase> {
  let pb = sessions.get(user.email);
  if (!pb) {
    pb = await signIn(tpb, user);
    sessions.set(user.email, pb);
  }
  return pb;
}

let ctx: Context;
let counter = 0;

beforeAll(async () => {
  // Payments go through Stripe (stripe-mock): only real payments earn commissions.
  stripe = await startStripeMock();
  tpb = await startTestPocketBase(stripeEnv(stripe));
  const su = await tpb.superuser();
  ctx = {
    tpb,
    su,
    signIn: signInCached,
    users: {
      A: await createTestUser(su, { first_name: "Alice" }),
      B: await createTestUser(su, { first_name: "Bob" }),
      admin: await createTestUser(su, { first_name: "Ada", is_admin: true }),
    },
    n: () => ++counter,
  };
});

afterAll(async () => {
  // Whatever the cells above allowed or refused, every balance still equals its ledger.
  if (ctx) await expectEveryBalanceMatchesItsLedger(ctx.su);
  await tpb?.stop();
  await stripe?.stop();
});

async function clientFor(who: Who): Promise<PocketBase> {
  return who === "anon" ? tpb.client() : signInCached(ctx.users[who]);
}

describe.each(SPECS)("$name", (spec) => {
  const rows: Partial<Record<Owner, string>> = {};
  const row = async (owner: Owner): Promise<string> => (rows[owner] ??= await spec.make(ctx, owner));

  it.each(WHO)("list as %s", async (who) => {
    const ids = { A: await row("A"), B: await row("B") };
    const pb = await clientFor(who);
    const seen = (await pb.collection(spec.name).getFullList({ batch: 500 })).map((r) => r.id);
    for (const owner of ["A", "B"] as const) {
      expect(seen.includes(ids[owner]), `${who} sees ${owner}'s ${spec.name} row`).toBe(spec.list[who].includes(owner));
    }
  });

  it.each(WHO)("view as %s", async (who) => {
    const id = await row("A");
    const pb = await clientFor(who);
    expect(await statusOf(() => pb.collection(spec.name).getOne(id))).toBe(spec.view[who]);
  });

  it.each(WHO)("create as %s", async (who) => {
    const marker = `mx${ctx.n()}create${who}`;
    const body = await spec.createBody(ctx, who, marker);
    const pb = await clientFor(who);
    const status = await statusOf(() => pb.collection(spec.name).create(body));
    expect(status).toBe(spec.create[who]);
    const stored = await ctx.su.collection(spec.name).getFullList({ filter: spec.markerFilter(marker) });
    expect(stored.length, "rows created").toBe(status === 200 ? 1 : 0);
  });

  it.each(WHO)("update A's row as %s", async (who) => {
    const id = await row("A");
    const before = await ctx.su.collection(spec.name).getOne(id);
    const marker = `mx${ctx.n()}update${who}`;
    const pb = await clientFor(who);
    const status = await statusOf(() => pb.collection(spec.name).update(id, spec.updateBody(marker)));
    expect(status).toBe(spec.update[who]);
    const after = await ctx.su.collection(spec.name).getOne(id);
    if (status === 200) {
      expect(after).toMatchObject(spec.updateBody(marker));
    } else {
      expect(after).toEqual(before);
    }
  });

  it.each(WHO)("delete as %s", async (who) => {
    // Deletions that succeed get a fresh row, so later cells still have A's row.
    const id = spec.delete[who] === 204 ? await spec.make(ctx, "A") : await row("A");
    const pb = await clientFor(who);
    const status = await statusOf(() => pb.collection(spec.name).delete(id));
    expect(status === 200 ? 204 : status).toBe(spec.delete[who]);
    const exists = await statusOf(() => ctx.su.collection(spec.name).getOne(id));
    expect(exists, "row still there").toBe(spec.delete[who] === 204 ? 404 : 200);
  });
});

it("an order keeps its Idempotency-Key for its owner, and the request hash to the server", async () => {
  const id = await orderFor(ctx, "A");
  const order = await (await signInCached(ctx.users.A)).collection("proxy_orders").getOne(id);
  expect(order["idempotency_key"]).toMatch(/^matrix-/);
  expect(order).not.toHaveProperty("request_hash");
  expect(await ctx.su.collection("proxy_orders").getOne(id)).toHaveProperty("request_hash");
});

it("unassigned inventory is invisible to anonymous visitors and customers", async () => {
  const free = await ctx.su
    .collection("proxies")
    .create(proxyFields({ host: "free.test", port: 1, username: "free-u", password: "Free#Matrix2026" }));
  for (const who of ["anon", "A", "B"] as const) {
    const pb = await clientFor(who);
    expect((await pb.collection("proxies").getFullList()).map((p) => p.id)).not.toContain(free.id);
    expect(await statusOf(() => pb.collection("proxies").getOne(free.id))).toBe(404);
  }
});

// Superusers bypass collection rules, so the money collections refuse them in request
// hooks (pb_hooks/money.pb.js): balance = sum of ledger, and referral counts and
// earnings come from the server alone. Affiliates keep one superuser edit: the code.
describe("superuser writes to money collections", () => {
  type Action = "create" | "update" | "delete";
  /** The user's own balances or affiliates row (one each per user). */
  const rowOf = async (name: string, owner: Owner) =>
    (await ctx.su.collection(name).getFirstListItem(`user_id = "${ctx.users[owner].id}"`)).id;
  const rows: [string, Action, Record<string, unknown>, (owner: Owner) => Promise<string>][] = [
    // Creates get a fresh user as user_id / referred_user_id (the `find` is unused).
    ["balances", "create", { balance_cents: 999_999 }, async () => ""],
    ["balances", "update", { balance_cents: 999_999 }, (o) => rowOf("balances", o)],
    ["balances", "update", { "balance_cents+": 1 }, (o) => rowOf("balances", o)],
    ["balances", "delete", {}, (o) => rowOf("balances", o)],
    [
      "transactions",
      "create",
      { type: "CREDIT", amount_cents: 999_999, balance_after_cents: 999_999, description: "su forged" },
      async () => "",
    ],
    ["transactions", "update", { amount_cents: 999_999 }, (o) => creditViaAdmin(ctx, ctx.users[o].id, 100)],
    ["transactions", "delete", {}, (o) => creditViaAdmin(ctx, ctx.users[o].id, 100)],
    ["affiliates", "create", { code: "SUFORGED", total_referrals: 50 }, async () => ""],
    ["affiliates", "update", { total_referrals: 999 }, (o) => rowOf("affiliates", o)],
    ["affiliates", "update", { total_earnings_cents: 999_999 }, (o) => rowOf("affiliates", o)],
    ["affiliates", "update", { pending_earnings_cents: 999_999, code: "SUPAYOUT" }, (o) => rowOf("affiliates", o)],
    ["affiliates", "update", { user_id: "someoneelse0001" }, (o) => rowOf("affiliates", o)],
    ["affiliates", "delete", {}, (o) => rowOf("affiliates", o)],
    ["referrals", "create", { commission_cents: 999_999, status: "paid" }, async () => ""],
    ["referrals", "update", { commission_cents: 999_999 }, (o) => referralFor(ctx, o)],
    ["referrals", "update", { status: "paid" }, (o) => referralFor(ctx, o)],
    ["referrals", "delete", {}, (o) => referralFor(ctx, o)],
    ["payments", "update", { status: "pending", credits_cents: 999_999 }, (o) => paymentFor(ctx, o)],
    ["payments", "delete", {}, (o) => paymentFor(ctx, o)],
    ["proxy_orders", "update", { status: "refunded" }, (o) => orderFor(ctx, o)],
    ["proxy_orders", "delete", {}, (o) => orderFor(ctx, o)],
    ["commissions", "update", { amount_cents: 999_999, status: "paid" }, (o) => commissionFor(ctx, o)],
    ["commissions", "delete", {}, (o) => commissionFor(ctx, o)],
  ];

  it.each(rows)("%s %s %j is refused (403) and changes nothing", async (name, action, body, find) => {
    const su = ctx.su;
    if (action === "create") {
      const full = { ...body } as Record<string, unknown>;
      // A fresh user (it brings its own balance and affiliate rows, counted below).
      const target = await createTestUser(su);
      if (name === "referrals") {
        full["affiliate_id"] = (await su.collection("affiliates").getFirstListItem(`user_id = "${ctx.users.A.id}"`)).id;
        full["referred_user_id"] = target.id;
      } else {
        full["user_id"] = target.id;
      }
      const count = async () => (await su.collection(name).getList(1, 1)).totalItems;
      const before = await count();
      expect(await statusOf(() => su.collection(name).create(full))).toBe(403);
      expect(await count()).toBe(before);
      return;
    }
    const id = await find("A");
    const stored = await su.collection(name).getOne(id);
    const status = await statusOf(() => (action === "update" ? su.collection(name).update(id, body) : su.collection(name).delete(id)));
    expect(status).toBe(403);
    expect(await su.collection(name).getOne(id)).toEqual(stored);
  });

  it("an affiliate's code stays editable by a superuser", async () => {
    const affiliate = await ctx.su.collection("affiliates").getFirstListItem(`user_id = "${ctx.users.B.id}"`);
    const updated = await ctx.su.collection("affiliates").update(affiliate.id, { code: "SUEDITED" });
    expect(updated).toMatchObject({
      code: "SUEDITED",
      total_referrals: affiliate["total_referrals"],
      total_earnings_cents: affiliate["total_earnings_cents"],
    });
    await ctx.su.collection("affiliates").update(affiliate.id, { code: affiliate["code"] });
  });
});
