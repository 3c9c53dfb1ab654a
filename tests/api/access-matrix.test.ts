import { randomUUID } from "node:crypto";
// Every collection x (list, view, create, update, delete) x (anonymous, customer A,
// customer B, admin), asserted against a real PocketBase: status codes, which rows are
// seen, and that a refused write left the database unchanged.
import type PocketBase from "pocketbase";
import type { RecordModel } from "pocketbase";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestUser, signIn, startTestPocketBase, statusOf, type TestPocketBase, type TestUser } from "../support/pocketbase.ts";
import { expectEveryBalanceMatchesItsLedger, setProxyColumns } from "../support/shop.ts";
import { payByStripe, startStripeMock, stripeEnv, type StripeMock } from "../support/stripe-mock.ts";

type Who = "anon" | "A" | "B" | "admin";
type Owner = "A" | "B";
const WHO: Who[] = ["anon", "A", "B", "admin"];

interface Context {
  su: PocketBase;
  users: Record<Owner | "admin", TestUser>;
  n: () => number;
}

interface CollectionSpec {
  name: string;
  /** Creates (as superuser) or finds a row that belongs to `owner`; returns its id. */
  make(ctx: Context, owner: Owner): Promise<string>;
  /** The body `who` sends when trying to create a row. Must contain a unique `marker` value. */
  createBody(ctx: Context, who: Who, marker: string): Promise<Record<string, unknown>>;
  /** Filter that finds rows created with `marker`. */
  markerFilter(marker: string): string;
  updateBody(marker: string): Record<string, unknown>;
  /** Which of the rows of A and B each caller sees in a list. */
  list: Record<Who, Owner[]>;
  /** Expected status of view/update/delete of A's row and of create, per caller. */
  view: Record<Who, number>;
  create: Record<Who, number>;
  update: Record<Who, number>;
  delete: Record<Who, number>;
}

const ALL = (status: number): Record<Who, number> => ({ anon: status, A: status, B: status, admin: status });

async function creditViaAdmin(ctx: Context, userId: string, cents: number): Promise<string> {
  const admin = await signInCached(ctx.users.admin);
  const res = await admin.send<{ transaction: RecordModel }>(`/api/admin/users/${userId}/balance`, {
    method: "POST",
    body: { transaction_type: "CREDIT", amount_cents: cents, description: "matrix credit" },
    headers: { "Idempotency-Key": randomUUID() },
  });
  return res.transaction.id;
}

/** Signs a new customer up with `owner`'s affiliate code; returns the referral row's id. */
async function referralFor(ctx: Context, owner: Owner): Promise<string> {
  const affiliate = await ctx.su.collection("affiliates").getFirstListItem(`user_id = "${ctx.users[owner].id}"`);
  const auth = await tpb.client().send<{ record: RecordModel }>("/api/shop/signup", {
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
async function paymentFor(ctx: Context, owner: Owner): Promise<string> {
  const pb = await signInCached(ctx.users[owner]);
  const res = await pb.send<{ payment: RecordModel }>("/api/v1/credits/checkout", {
    method: "POST",
    headers: { "Idempotency-Key": `matrix-${ctx.n()}` },
    body: { package_id: "package-10" },
  });
  return res.payment.id;
}

/** A proxy order of `owner` (stock made here, funded through the admin route); returns the order id. */
async function orderFor(ctx: Context, owner: Owner): Promise<string> {
  const country = `M${ctx.n()}`;
  await ctx.su
    .collection("proxies")
    .create({ host: `order${ctx.n()}.test`, port: 1, username: "u", password: "p", type: "HTTP", country, status: "AVAILABLE" });
  await creditViaAdmin(ctx, ctx.users[owner].id, 1000);
  const pb = await signInCached(ctx.users[owner]);
  const res = await pb.send<{ order: RecordModel }>("/api/v1/proxies/purchase", {
    method: "POST",
    headers: { "Idempotency-Key": `matrix-${ctx.n()}` },
    body: { type: "HTTP", country, quantity: 1 },
  });
  return res.order.id;
}

/**
 * A commission `owner` earns: a customer signs up with their code and buys credits with a
 * real (Stripe) payment: test payments earn none (security review #13, finding 2).
 */
async function commissionFor(ctx: Context, owner: Owner): Promise<string> {
  const affiliate = await ctx.su.collection("affiliates").getFirstListItem(`user_id = "${ctx.users[owner].id}"`);
  const auth = await tpb.client().send<{ token: string; record: RecordModel }>("/api/shop/signup", {
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
  const pb = tpb.client();
  pb.authStore.save(auth.token, auth.record);
  const res = await pb.send<{ payment: RecordModel }>("/api/v1/credits/checkout", {
    method: "POST",
    headers: { "Idempotency-Key": `matrix-${ctx.n()}` },
    body: { package_id: "package-10" },
  });
  await payByStripe(tpb.url, res.payment);
  return (await ctx.su.collection("commissions").getFirstListItem(`payment_id = "${res.payment.id}"`)).id;
}

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

const SPECS: CollectionSpec[] = [
  {
    name: "users",
    make: async (ctx, owner) => ctx.users[owner].id,
    createBody: async (_ctx, _who, marker) => ({
      email: `${marker}@test.local`,
      password: "Passw0rd#Matrix1",
      passwordConfirm: "Passw0rd#Matrix1",
      first_name: marker,
    }),
    markerFilter: (m) => `first_name = "${m}"`,
    updateBody: (m) => ({ first_name: m }),
    list: { anon: [], A: ["A"], B: ["B"], admin: ["A", "B"] },
    view: { anon: 404, A: 200, B: 404, admin: 200 },
    create: ALL(403),
    // Admins manage users through /api/admin routes, not by editing records.
    update: { anon: 404, A: 200, B: 404, admin: 404 },
    delete: ALL(403),
  },
  {
    name: "settings",
    make: async (ctx) => (await ctx.su.collection("settings").create({ key: `matrix_${ctx.n()}`, value: "x" })).id,
    createBody: async (_ctx, _who, marker) => ({ key: `matrix_${marker}`, value: marker }),
    markerFilter: (m) => `value = "${m}"`,
    updateBody: (m) => ({ value: m }),
    list: { anon: ["A", "B"], A: ["A", "B"], B: ["A", "B"], admin: ["A", "B"] },
    view: ALL(200),
    create: { anon: 400, A: 400, B: 400, admin: 200 },
    update: { anon: 404, A: 404, B: 404, admin: 200 },
    delete: { anon: 404, A: 404, B: 404, admin: 204 },
  },
  {
    name: "pricing_plans",
    // A's row is an active plan, B's an inactive one.
    make: async (ctx, owner) =>
      (
        await ctx.su
          .collection("pricing_plans")
          .create({ name: `Plan ${ctx.n()}`, type: "HTTP", price_cents: 100, features: ["x"], popular: false, active: owner === "A" })
      ).id,
    createBody: async (_ctx, _who, marker) => ({ name: marker, type: "HTTP", price_cents: 100, features: ["x"], active: true }),
    markerFilter: (m) => `name = "${m}"`,
    updateBody: (m) => ({ name: m }),
    list: { anon: ["A"], A: ["A"], B: ["A"], admin: ["A", "B"] },
    view: ALL(200),
    create: { anon: 400, A: 400, B: 400, admin: 200 },
    update: { anon: 404, A: 404, B: 404, admin: 200 },
    delete: { anon: 404, A: 404, B: 404, admin: 204 },
  },
  {
    name: "balances",
    make: async (ctx, owner) => (await ctx.su.collection("balances").getFirstListItem(`user_id = "${ctx.users[owner].id}"`)).id,
    createBody: async (ctx, who, marker) => ({
      user_id: ctx.users[who === "anon" ? "A" : who].id,
      balance_cents: Number(marker.replace(/\D/g, "")),
    }),
    markerFilter: (m) => `balance_cents = ${Number(m.replace(/\D/g, ""))}`,
    updateBody: () => ({ balance_cents: 999_999 }),
    list: { anon: [], A: ["A"], B: ["B"], admin: ["A", "B"] },
    view: { anon: 404, A: 200, B: 404, admin: 200 },
    create: ALL(403),
    update: ALL(403),
    delete: ALL(403),
  },
  {
    name: "transactions",
    make: async (ctx, owner) => creditViaAdmin(ctx, ctx.users[owner].id, 100),
    createBody: async (ctx, who, marker) => ({
      user_id: ctx.users[who === "anon" ? "A" : who].id,
      type: "CREDIT",
      amount_cents: 100_000,
      balance_after_cents: 100_000,
      description: marker,
    }),
    markerFilter: (m) => `description = "${m}"`,
    updateBody: () => ({ amount_cents: 999_999 }),
    list: { anon: [], A: ["A"], B: ["B"], admin: ["A", "B"] },
    view: { anon: 404, A: 200, B: 404, admin: 200 },
    create: ALL(403),
    update: ALL(403),
    delete: ALL(403),
  },
  {
    name: "proxies",
    // Owner, status and expiry are the server's (finding 6): stock is made Available, then
    // assigned in data.db; the API create is of stock too.
    make: async (ctx, owner) => {
      const { id } = await ctx.su.collection("proxies").create({
        host: `p${ctx.n()}.test`,
        port: 8080,
        username: "u",
        password: "secret",
        type: "HTTP",
        country: "US",
        status: "AVAILABLE",
      });
      setProxyColumns(tpb, [id], { status: "ASSIGNED", assigned_to_user_id: ctx.users[owner].id, expires_at: "2099-01-01 00:00:00.000Z" });
      return id;
    },
    createBody: async (_ctx, _who, marker) => ({
      host: `${marker}.test`,
      port: 8080,
      username: "u",
      password: "p",
      type: "HTTP",
      country: "US",
      status: "AVAILABLE",
    }),
    markerFilter: (m) => `host = "${m}.test"`,
    updateBody: (m) => ({ city: m }),
    list: { anon: [], A: ["A"], B: ["B"], admin: ["A", "B"] },
    view: { anon: 404, A: 200, B: 404, admin: 200 },
    create: { anon: 400, A: 400, B: 400, admin: 200 },
    update: { anon: 404, A: 404, B: 404, admin: 200 },
    delete: { anon: 404, A: 404, B: 404, admin: 204 },
  },
  {
    name: "support_tickets",
    make: async (ctx, owner) =>
      (
        await ctx.su
          .collection("support_tickets")
          .create({ user_id: ctx.users[owner].id, subject: `Ticket ${ctx.n()}`, priority: "medium", status: "open" })
      ).id,
    createBody: async (ctx, who, marker) => ({
      user_id: who === "anon" ? ctx.users.A.id : ctx.users[who].id,
      subject: marker,
      priority: "high",
      status: "open",
    }),
    markerFilter: (m) => `subject = "${m}"`,
    updateBody: (m) => ({ subject: m, status: "pending" }),
    list: { anon: [], A: ["A"], B: ["B"], admin: ["A", "B"] },
    view: { anon: 404, A: 200, B: 404, admin: 200 },
    create: { anon: 400, A: 200, B: 200, admin: 200 },
    update: { anon: 404, A: 404, B: 404, admin: 200 },
    delete: ALL(403),
  },
  {
    name: "chat_messages",
    make: async (ctx, owner) => {
      const ticket = await ctx.su
        .collection("support_tickets")
        .create({ user_id: ctx.users[owner].id, subject: `Chat ${ctx.n()}`, priority: "low", status: "open" });
      return (await ctx.su.collection("chat_messages").create({ ticket_id: ticket.id, sender_id: ctx.users[owner].id, message: "hello" }))
        .id;
    },
    // Everybody tries to write on A's open ticket.
    createBody: async (ctx, who, marker) => {
      const ticket = await ctx.su
        .collection("support_tickets")
        .create({ user_id: ctx.users.A.id, subject: `Chat ${ctx.n()}`, priority: "low", status: "open" });
      return {
        ticket_id: ticket.id,
        sender_id: who === "anon" ? ctx.users.A.id : ctx.users[who].id,
        message: marker,
        is_admin_message: who === "admin",
      };
    },
    markerFilter: (m) => `message = "${m}"`,
    updateBody: (m) => ({ message: m }),
    list: { anon: [], A: ["A"], B: ["B"], admin: ["A", "B"] },
    view: { anon: 404, A: 200, B: 404, admin: 200 },
    create: { anon: 400, A: 200, B: 400, admin: 200 },
    update: ALL(403),
    delete: ALL(403),
  },
  {
    name: "affiliates",
    make: async (ctx, owner) => (await ctx.su.collection("affiliates").getFirstListItem(`user_id = "${ctx.users[owner].id}"`)).id,
    createBody: async (ctx, who, marker) => ({
      user_id: ctx.users[who === "anon" ? "A" : who].id,
      code: marker.toUpperCase().replace(/[^A-Z0-9]/g, ""),
    }),
    markerFilter: (m) => `code = "${m.toUpperCase().replace(/[^A-Z0-9]/g, "")}"`,
    updateBody: () => ({ total_earnings_cents: 999_999, pending_earnings_cents: 999_999 }),
    list: { anon: [], A: ["A"], B: ["B"], admin: ["A", "B"] },
    view: { anon: 404, A: 200, B: 404, admin: 200 },
    create: ALL(403),
    update: ALL(403),
    delete: ALL(403),
  },
  {
    name: "referrals",
    // Referrals only come from a sign-up with the owner's code (the API refuses writes).
    make: async (ctx, owner) => referralFor(ctx, owner),
    createBody: async (ctx, who, marker) => {
      const affiliate = await ctx.su.collection("affiliates").getFirstListItem(`user_id = "${ctx.users[who === "anon" ? "A" : who].id}"`);
      const referred = await createTestUser(ctx.su, { first_name: marker });
      return { affiliate_id: affiliate.id, referred_user_id: referred.id, commission_cents: 100_000, status: "paid" };
    },
    markerFilter: (m) => `referred_user_id.first_name = "${m}"`,
    updateBody: () => ({ commission_cents: 999_999, status: "paid" }),
    list: { anon: [], A: ["A"], B: ["B"], admin: ["A", "B"] },
    view: { anon: 404, A: 200, B: 404, admin: 200 },
    create: ALL(403),
    update: ALL(403),
    delete: ALL(403),
  },
  {
    name: "payments",
    make: (ctx, owner) => paymentFor(ctx, owner),
    createBody: async (ctx, who, marker) => ({
      user_id: ctx.users[who === "anon" ? "A" : who].id,
      package_id: marker,
      amount_cents: 1,
      currency: "usd",
      credits_cents: 100_000,
      provider: "test",
      status: "paid",
    }),
    markerFilter: (m) => `package_id = "${m}"`,
    updateBody: () => ({ status: "failed", credits_cents: 999_999 }),
    list: { anon: [], A: ["A"], B: ["B"], admin: ["A", "B"] },
    view: { anon: 404, A: 200, B: 404, admin: 200 },
    create: ALL(403),
    update: ALL(403),
    delete: ALL(403),
  },
  {
    name: "proxy_orders",
    make: (ctx, owner) => orderFor(ctx, owner),
    createBody: async (ctx, who, marker) => ({
      user_id: ctx.users[who === "anon" ? "A" : who].id,
      kind: "purchase",
      country: marker,
      quantity: 1,
      total_cents: 1,
      status: "completed",
    }),
    markerFilter: (m) => `country = "${m}"`,
    updateBody: () => ({ status: "refunded", total_cents: 1 }),
    list: { anon: [], A: ["A"], B: ["B"], admin: ["A", "B"] },
    view: { anon: 404, A: 200, B: 404, admin: 200 },
    create: ALL(403),
    update: ALL(403),
    delete: ALL(403),
  },
  {
    name: "commissions",
    make: (ctx, owner) => commissionFor(ctx, owner),
    createBody: async (ctx, who, marker) => {
      const affiliate = await ctx.su.collection("affiliates").getFirstListItem(`user_id = "${ctx.users[who === "anon" ? "A" : who].id}"`);
      return { affiliate_id: affiliate.id, referral_id: marker, payment_id: marker, amount_cents: 100_000, status: "pending" };
    },
    markerFilter: (m) => `amount_cents = 100000 && referral_id = "${m}"`,
    updateBody: () => ({ amount_cents: 999_999, status: "paid" }),
    list: { anon: [], A: ["A"], B: ["B"], admin: ["A", "B"] },
    view: { anon: 404, A: 200, B: 404, admin: 200 },
    create: ALL(403),
    update: ALL(403),
    delete: ALL(403),
  },
  {
    name: "audit_logs",
    // An admin's settings change writes the row.
    make: async (ctx) => {
      const admin = await signInCached(ctx.users.admin);
      const setting = await admin.collection("settings").create({ key: `audit_${ctx.n()}`, value: "v" });
      return (await ctx.su.collection("audit_logs").getFirstListItem(`target_id = "${setting.id}"`)).id;
    },
    createBody: async (ctx, who, marker) => ({
      admin_id: ctx.users[who === "anon" ? "A" : who].id,
      action: marker,
      target_type: "x",
      target_id: "y",
      details: {},
    }),
    markerFilter: (m) => `action = "${m}"`,
    updateBody: (m) => ({ action: m }),
    list: { anon: [], A: [], B: [], admin: ["A", "B"] },
    view: { anon: 404, A: 404, B: 404, admin: 200 },
    create: ALL(403),
    update: ALL(403),
    delete: ALL(403),
  },
  {
    name: "contact_messages",
    make: async (ctx) =>
      (
        await ctx.su.collection("contact_messages").create({
          name: "Sam Sender",
          email: "sam@example.com",
          subject: `Hello ${ctx.n()}`,
          message: "I would like to know more about your plans.",
          type: "general",
        })
      ).id,
    createBody: async (_ctx, _who, marker) => ({
      name: "Sam Sender",
      email: "sam@example.com",
      subject: marker,
      message: "I would like to know more about your plans.",
      type: "billing",
    }),
    markerFilter: (m) => `subject = "${m}"`,
    updateBody: (m) => ({ subject: m }),
    list: { anon: [], A: [], B: [], admin: ["A", "B"] },
    view: { anon: 404, A: 404, B: 404, admin: 200 },
    create: ALL(200),
    update: { anon: 404, A: 404, B: 404, admin: 200 },
    delete: { anon: 404, A: 404, B: 404, admin: 204 },
  },
];

let ctx: Context;
let counter = 0;

beforeAll(async () => {
  // Payments go through Stripe (stripe-mock): only real payments earn commissions.
  stripe = await startStripeMock();
  tpb = await startTestPocketBase(stripeEnv(stripe));
  const su = await tpb.superuser();
  ctx = {
    su,
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
    .create({ host: "free.test", port: 1, username: "u", password: "p", type: "HTTP", country: "US", status: "AVAILABLE" });
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
