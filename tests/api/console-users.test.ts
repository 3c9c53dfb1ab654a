// The console's Overview and User Management routes against a real PocketBase: who may call
// them, the figures and lists they answer, the admin flag, balance adjustments behind an
// Idempotency-Key, and order refunds (the 7-day money-back promise). Every change leaves
// exactly one audit row; every refusal changes nothing; every test ends with each balance
// equal to the sum of its ledger.
import { execFileSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import path from "node:path";
import type PocketBase from "pocketbase";
import type { RecordModel } from "pocketbase";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { adminGet, adminSend } from "../support/admin.ts";
import { createTestUser, errorOf, signIn, startTestPocketBase, statusOf, type TestPocketBase } from "../support/pocketbase.ts";
import {
  addStock,
  customer,
  expectEveryBalanceMatchesItsLedger,
  ledgerOf,
  post,
  purchase,
  setProxyColumns,
  shopClients,
  type Shop,
} from "../support/shop.ts";

let tpb: TestPocketBase;
let shop: Shop;
let adminId: string;

beforeAll(async () => {
  tpb = await startTestPocketBase();
  shop = await shopClients(tpb);
  adminId = shop.admin.authStore.record!.id;
});

afterAll(async () => {
  await tpb?.stop();
});

afterEach(async () => {
  await expectEveryBalanceMatchesItsLedger(shop.su);
});

const DAY = 86_400_000;
const parse = (date: unknown) => Date.parse(String(date).replace(" ", "T"));

interface UserItem {
  id: string;
  email: string;
  first_name: string;
  last_name: string;
  country: string;
  balance_cents: number;
  is_admin: boolean;
  verified: boolean;
  created: string;
}
interface UserList {
  items: UserItem[];
  page: number;
  perPage: number;
  totalItems: number;
  totalPages: number;
  counts: { all: number; admins: number; users: number };
}
interface OrderItem {
  id: string;
  kind: string;
  quantity: number;
  total_cents: number;
  status: string;
  refundable: boolean;
  within_promise: boolean;
  refundable_reason: string;
}
interface Detail {
  user: UserItem;
  balance_cents: number;
  transactions: { type: string; amount_cents: number; description: string }[];
  proxies: Record<string, unknown>[];
  tickets: { id: string; subject: string; status: string; priority: string }[];
  orders: OrderItem[];
  totals: { transactions: number; proxies: number; tickets: number; orders: number; payments: number };
}
interface RefundAnswer {
  order: { id: string; status: string; refunded_at: string };
  transaction: { type: string; amount_cents: number; reference: string };
  balance_cents: number;
  released: number;
  shortened: number;
}

/** POST with an Idempotency-Key, answering the body and the replay header. */
async function keyed<T>(
  pb: PocketBase,
  url: string,
  body: unknown,
  key: string = randomUUID(),
): Promise<{ body: T; replayed: string | null }> {
  let replayed: string | null = null;
  const res = await pb.send<T>(url, {
    method: "POST",
    body: body as Record<string, unknown>,
    headers: { "Idempotency-Key": key },
    fetch: async (input: RequestInfo | URL, init?: RequestInit) => {
      const response = await fetch(input, init);
      replayed = response.headers.get("Idempotent-Replayed");
      return response;
    },
  });
  return { body: res, replayed };
}

const adjust = (pb: PocketBase, userId: string, body: Record<string, unknown>, key?: string) =>
  keyed<{ balance_cents: number; transaction: RecordModel }>(pb, `/api/admin/users/${userId}/balance`, body, key);
const refund = (pb: PocketBase, orderId: string, body: Record<string, unknown>, key?: string) =>
  keyed<RefundAnswer>(pb, `/api/admin/orders/${orderId}/refund`, body, key);

async function auditRows(targetId: string): Promise<RecordModel[]> {
  return shop.su.collection("audit_logs").getFullList({ filter: shop.su.filter("target_id = {:id}", { id: targetId }), sort: "created" });
}

async function withDemoMode(run: () => Promise<void>): Promise<void> {
  const row = await shop.su.collection("settings").getFirstListItem('key = "demo_mode"');
  await shop.su.collection("settings").update(row.id, { value: "true" });
  try {
    await run();
  } finally {
    await shop.su.collection("settings").update(row.id, { value: "false" });
  }
}

/** A customer who bought `count` proxies of a fresh country (purchase route); the order and its proxies. */
async function buyer(count = 2, cents = 10_000, type = "RESIDENTIAL") {
  const country = `R${randomUUID().slice(0, 6)}`;
  await addStock(shop, { type, country, count });
  const user = await customer(shop, cents);
  const res = await purchase(user.pb, { type, country, quantity: count });
  return { user, order: res.order, proxies: res.proxies };
}

/** Moves an order's creation time back (the API refuses every write to orders; tests write the file). */
function backdateOrder(orderId: string, days: number): void {
  const created = new Date(Date.now() - days * DAY).toISOString().replace("T", " ");
  execFileSync("python3", [
    "-c",
    "import sqlite3,sys; c=sqlite3.connect(sys.argv[1], timeout=10); c.execute('UPDATE proxy_orders SET created=? WHERE id=?', (sys.argv[2], sys.argv[3])); c.commit()",
    path.join(tpb.dataDir, "data.db"),
    created,
    orderId,
  ]);
}

describe("who may call the console routes", () => {
  it("answers anonymous callers 401 and customers 403, and changes nothing for them", async () => {
    const { user, order } = await buyer(1);
    const target = await customer(shop, 500);
    const anonymous = tpb.client();
    const calls: [string, (pb: PocketBase) => Promise<unknown>][] = [
      ["overview", (pb) => adminGet(pb, "/api/admin/overview")],
      ["users", (pb) => adminGet(pb, "/api/admin/users")],
      ["user detail", (pb) => adminGet(pb, `/api/admin/users/${target.id}`)],
      ["admin flag", (pb) => adminSend(pb, `/api/admin/users/${target.id}/admin`, { is_admin: true })],
      ["balance", (pb) => adjust(pb, target.id, { transaction_type: "CREDIT", amount_cents: 100, description: "x" })],
      ["refund", (pb) => refund(pb, order.id, { reason: "Not working" })],
    ];
    for (const [name, call] of calls) {
      expect(await statusOf(() => call(anonymous)), `${name} anonymous`).toBe(401);
      expect(await statusOf(() => call(user.pb)), `${name} customer`).toBe(403);
    }
    expect((await shop.su.collection("users").getOne(target.id))["is_admin"]).toBe(false);
    expect((await ledgerOf(shop, target.id)).rows).toHaveLength(1);
    expect((await shop.su.collection("proxy_orders").getOne(order.id))["status"]).toBe("completed");
    expect(await auditRows(target.id)).toHaveLength(1); // the funding credit only
    expect(await auditRows(order.id)).toHaveLength(0);
  });

  it("lets admins read in demo mode but refuses every change, changing nothing", async () => {
    const { order } = await buyer(1);
    const target = await customer(shop);
    await withDemoMode(async () => {
      expect(await statusOf(() => adminGet(shop.admin, "/api/admin/overview"))).toBe(200);
      expect(await statusOf(() => adminGet(shop.admin, "/api/admin/users"))).toBe(200);
      expect(await statusOf(() => adminGet(shop.admin, `/api/admin/users/${target.id}`))).toBe(200);
      for (const call of [
        () => adminSend(shop.admin, `/api/admin/users/${target.id}/admin`, { is_admin: true }),
        () => adjust(shop.admin, target.id, { transaction_type: "CREDIT", amount_cents: 100, description: "demo" }),
        () => refund(shop.admin, order.id, { reason: "demo refund" }),
      ]) {
        const err = await errorOf(call);
        expect(err.status).toBe(403);
        expect(err.message).toBe("Demo mode is on: the console is read-only and changes are not saved.");
      }
    });
    expect((await shop.su.collection("users").getOne(target.id))["is_admin"]).toBe(false);
    expect((await ledgerOf(shop, target.id)).rows).toHaveLength(0);
    expect((await shop.su.collection("proxy_orders").getOne(order.id))["status"]).toBe("completed");
    expect(await auditRows(target.id)).toHaveLength(0);
    expect(await auditRows(order.id)).toHaveLength(0);
  });
});

describe("GET /api/admin/overview", () => {
  it("counts users, money received and active proxies, and lists the newest ledger rows with e-mails", async () => {
    type Overview = {
      total_users: number;
      total_revenue_cents: number;
      test_payments_cents: number;
      active_proxies: number;
      recent_transactions: { user_email: string; type: string; amount_cents: number; description: string }[];
    };
    const before = await adminGet<Overview>(shop.admin, "/api/admin/overview");
    const { user } = await buyer(2);
    // A paid $10 package through the test provider: test money, counted apart from revenue
    // (security review #13, finding 2; Stripe revenue: security-payments.test.ts).
    await post(user.pb, "/api/v1/credits/checkout", { package_id: "package-10" });
    await adjust(shop.admin, user.id, { transaction_type: "CREDIT", amount_cents: 321, description: "Goodwill (not revenue)" });
    const after = await adminGet<Overview>(shop.admin, "/api/admin/overview");
    expect(after.total_users - before.total_users).toBe(1);
    expect(after.total_revenue_cents - before.total_revenue_cents).toBe(0);
    expect(after.test_payments_cents - before.test_payments_cents).toBe(1000);
    expect(after.active_proxies - before.active_proxies).toBe(2);
    expect(after.recent_transactions.length).toBeGreaterThanOrEqual(4);
    expect(after.recent_transactions.length).toBeLessThanOrEqual(10);
    expect(after.recent_transactions[0]).toMatchObject({
      user_email: user.email,
      type: "CREDIT",
      amount_cents: 321,
      description: "Goodwill (not revenue)",
    });
  });
});

describe("GET /api/admin/users", () => {
  it("searches e-mail, first and last name in any case, filters by role, counts and pages", async () => {
    const tag = randomUUID().slice(0, 8);
    const made = [];
    for (const [first, last, admin] of [
      ["Zelda", `Q${tag}stone`, false],
      [`Pa${tag}la`, "Brown", true],
      ["Omar", "Ng", false],
    ] as const) {
      made.push(
        await createTestUser(shop.su, {
          first_name: first,
          last_name: last,
          is_admin: admin,
          email: `list-${tag}-${first.toLowerCase()}@api.test`,
        }),
      );
    }
    const search = tag.toUpperCase();
    const all = await adminGet<UserList>(shop.admin, "/api/admin/users", { search });
    expect(all.counts).toEqual({ all: 3, admins: 1, users: 2 });
    expect(all.totalItems).toBe(3);
    // Newest first.
    expect(all.items.map((u) => u.id)).toEqual([made[2]!.id, made[1]!.id, made[0]!.id]);
    expect(all.items[0]).toEqual({
      id: made[2]!.id,
      email: made[2]!.email,
      first_name: "Omar",
      last_name: "Ng",
      country: "Canada",
      balance_cents: 0,
      is_admin: false,
      verified: true,
      created: expect.any(String),
    });

    const admins = await adminGet<UserList>(shop.admin, "/api/admin/users", { search, role: "admins" });
    expect(admins.items.map((u) => u.id)).toEqual([made[1]!.id]);
    expect(admins.counts).toEqual({ all: 3, admins: 1, users: 2 });
    expect(admins.totalItems).toBe(1);
    const users = await adminGet<UserList>(shop.admin, "/api/admin/users", { search, role: "users", perPage: 1, page: 2 });
    expect(users).toMatchObject({ page: 2, perPage: 1, totalItems: 2, totalPages: 2 });
    expect(users.items.map((u) => u.id)).toEqual([made[0]!.id]);

    // First name, last name and e-mail each match on their own, in any case.
    expect((await adminGet<UserList>(shop.admin, "/api/admin/users", { search: `q${tag}STONE` })).items.map((u) => u.id)).toEqual([
      made[0]!.id,
    ]);
    expect((await adminGet<UserList>(shop.admin, "/api/admin/users", { search: `pa${tag}LA` })).items.map((u) => u.id)).toEqual([
      made[1]!.id,
    ]);
    expect((await adminGet<UserList>(shop.admin, "/api/admin/users", { search: `list-${tag}-omar@` })).items.map((u) => u.id)).toEqual([
      made[2]!.id,
    ]);
    // % and _ are plain characters, not wildcards.
    expect((await adminGet<UserList>(shop.admin, "/api/admin/users", { search: `${tag}%` })).totalItems).toBe(0);
    expect((await adminGet<UserList>(shop.admin, "/api/admin/users", { search: "_____________________" })).totalItems).toBe(0);
  });

  it("answers the whole shop without a search, and refuses an unknown role", async () => {
    const list = await adminGet<UserList>(shop.admin, "/api/admin/users", { perPage: 5 });
    const total = await shop.su.collection("users").getList(1, 1);
    const admins = await shop.su.collection("users").getList(1, 1, { filter: "is_admin = true" });
    expect(list.counts).toEqual({ all: total.totalItems, admins: admins.totalItems, users: total.totalItems - admins.totalItems });
    expect(list.items.length).toBe(Math.min(5, total.totalItems));
    expect(list.perPage).toBe(5);
    const err = await errorOf(() => adminGet(shop.admin, "/api/admin/users", { role: "owners" }));
    expect(err.status).toBe(400);
    expect(err.response["data"]["role"]["message"]).toBe("Role must be all, admins or users.");
  });
});

describe("GET /api/admin/users/{id}", () => {
  it("shows profile, balance, ledger, proxies without passwords, tickets and refundable orders", async () => {
    const { user, order, proxies } = await buyer(2, 5000);
    await post(user.pb, "/api/v1/support/tickets", { subject: "Slow proxies", message: "They are slow since Monday.", priority: "high" });
    const detail = await adminGet<Detail>(shop.admin, `/api/admin/users/${user.id}`);
    expect(detail.user).toMatchObject({ id: user.id, email: user.email, is_admin: false });
    expect(detail.balance_cents).toBe(5000 - 900);
    expect(detail.transactions.map((t) => t.type)).toEqual(["PROXY_PURCHASE", "CREDIT"]);
    expect(detail.proxies.map((p) => p["id"]).sort()).toEqual(proxies.map((p) => p.id).sort());
    for (const proxy of detail.proxies) {
      expect(Object.keys(proxy).sort()).toEqual([
        "auto_renew",
        "city",
        "country",
        "expires_at",
        "host",
        "id",
        "port",
        "state",
        "status",
        "type",
      ]);
    }
    expect(JSON.stringify(detail)).not.toContain(String(proxies[0]!["password"]));
    expect(detail.tickets).toEqual([expect.objectContaining({ subject: "Slow proxies", status: "open", priority: "high" })]);
    expect(detail.orders).toEqual([
      expect.objectContaining({
        id: order.id,
        kind: "purchase",
        quantity: 2,
        total_cents: 900,
        status: "completed",
        refundable: true,
        within_promise: true,
      }),
    ]);
    expect(detail.orders[0]!.refundable_reason).toMatch(/^Within the 7-day money-back promise/);
    expect(detail.totals).toEqual({ transactions: 2, proxies: 2, tickets: 1, orders: 1, payments: 0 });
    expect((await errorOf(() => adminGet(shop.admin, "/api/admin/users/nosuchuser0000"))).status).toBe(404);
  });
});

describe("POST /api/admin/users/{id}/admin", () => {
  it("grants and removes admin rights with one audit row each", async () => {
    const target = await customer(shop);
    const granted = await adminSend<UserItem>(shop.admin, `/api/admin/users/${target.id}/admin`, { is_admin: true });
    expect(granted).toMatchObject({ id: target.id, email: target.email, is_admin: true });
    expect((await shop.su.collection("users").getOne(target.id))["is_admin"]).toBe(true);
    // The same flag again changes nothing and logs nothing.
    await adminSend(shop.admin, `/api/admin/users/${target.id}/admin`, { is_admin: true });
    const revoked = await adminSend<UserItem>(shop.admin, `/api/admin/users/${target.id}/admin`, { is_admin: false });
    expect(revoked.is_admin).toBe(false);
    const logs = await auditRows(target.id);
    expect(logs.map((l) => [l["action"], l["admin_id"], l["target_type"]])).toEqual([
      ["users.admin_grant", adminId, "users"],
      ["users.admin_revoke", adminId, "users"],
    ]);
    expect(logs[0]!["details"]).toEqual({ email: target.email, is_admin: { from: false, to: true } });
    expect(logs[1]!["details"]).toEqual({ email: target.email, is_admin: { from: true, to: false } });
  });

  it("never changes the caller's own flag, and refuses bad input and unknown users", async () => {
    const own = await errorOf(() => adminSend(shop.admin, `/api/admin/users/${adminId}/admin`, { is_admin: false }));
    expect(own.status).toBe(400);
    expect(own.message).toBe("You cannot change your own admin status.");
    expect((await shop.su.collection("users").getOne(adminId))["is_admin"]).toBe(true);
    const target = await customer(shop);
    for (const body of [{}, { is_admin: "true" }, { is_admin: 1 }]) {
      const err = await errorOf(() => adminSend(shop.admin, `/api/admin/users/${target.id}/admin`, body));
      expect(err.status).toBe(400);
      expect(err.response["data"]["is_admin"]["message"]).toBe("Admin status (is_admin) must be true or false.");
    }
    expect((await errorOf(() => adminSend(shop.admin, "/api/admin/users/nosuchuser0000/admin", { is_admin: true }))).status).toBe(404);
    expect(await auditRows(adminId)).toHaveLength(0);
    expect(await auditRows(target.id)).toHaveLength(0);
  });

  it("keeps an admin when two admins remove each other at once", async () => {
    const a = await createTestUser(shop.su, { is_admin: true });
    const b = await createTestUser(shop.su, { is_admin: true });
    const [asA, asB] = [await signIn(tpb, a), await signIn(tpb, b)];
    const results = await Promise.allSettled([
      adminSend(asA, `/api/admin/users/${b.id}/admin`, { is_admin: false }),
      adminSend(asB, `/api/admin/users/${a.id}/admin`, { is_admin: false }),
    ]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const flags = [
      (await shop.su.collection("users").getOne(a.id))["is_admin"],
      (await shop.su.collection("users").getOne(b.id))["is_admin"],
    ];
    expect(flags.sort()).toEqual([false, true]);
    expect((await auditRows(a.id)).length + (await auditRows(b.id)).length).toBe(1);
  });
});

describe("POST /api/admin/users/{id}/balance", () => {
  it("needs an Idempotency-Key, replays the same request and refuses the key for another one", async () => {
    const target = await customer(shop);
    const missing = await errorOf(() =>
      shop.admin.send(`/api/admin/users/${target.id}/balance`, {
        method: "POST",
        body: { transaction_type: "CREDIT", amount_cents: 100, description: "no key" },
      }),
    );
    expect(missing.status).toBe(400);
    expect(missing.message).toMatch(/Idempotency-Key header is required/);

    const key = randomUUID();
    const body = { transaction_type: "CREDIT", amount_cents: 2500, description: "Goodwill credit" };
    const first = await adjust(shop.admin, target.id, body, key);
    expect(first.replayed).toBe("false");
    expect(first.body.balance_cents).toBe(2500);
    await adjust(shop.admin, target.id, { transaction_type: "CREDIT", amount_cents: 100, description: "later" });
    const again = await adjust(shop.admin, target.id, body, key);
    expect(again.replayed).toBe("true");
    expect(again.body.balance_cents).toBe(2500); // as right after the first
    expect(again.body.transaction.id).toBe(first.body.transaction.id);

    for (const other of [
      [target.id, { ...body, amount_cents: 2501 }],
      [target.id, { ...body, transaction_type: "DEBIT" }],
      [target.id, { ...body, description: "Something else" }],
      [(await customer(shop)).id, body],
    ] as const) {
      const err = await errorOf(() => adjust(shop.admin, other[0], other[1], key));
      expect(err.status).toBe(422);
      expect(err.response["data"]["idempotency_key"]["code"]).toBe("idempotency_key_reused");
    }
    const { balance, rows } = await ledgerOf(shop, target.id);
    expect(balance).toBe(2600);
    expect(rows).toHaveLength(2);
    expect(await auditRows(target.id)).toHaveLength(2);
  });

  it("writes one audit row with the amounts, and names the field of bad input", async () => {
    const target = await customer(shop, 1000);
    const res = await adjust(shop.admin, target.id, { transaction_type: "DEBIT", amount_cents: 400, description: "  Chargeback  " });
    expect(res.body.balance_cents).toBe(600);
    const logs = await auditRows(target.id);
    expect(logs).toHaveLength(2);
    expect(logs[1]).toMatchObject({ action: "users.balance_debit", admin_id: adminId, target_type: "users" });
    expect(logs[1]!["details"]).toEqual({
      amount_cents: 400,
      description: "Chargeback",
      balance_before_cents: 1000,
      balance_after_cents: 600,
      transaction_id: res.body.transaction.id,
    });
    for (const [body, field, message] of [
      [{ transaction_type: "GIFT", amount_cents: 1, description: "x" }, "transaction_type", "Transaction type must be CREDIT or DEBIT."],
      [
        { transaction_type: "CREDIT", amount_cents: 1.5, description: "x" },
        "amount_cents",
        "Amount must be a positive whole number of cents (amount_cents).",
      ],
      [
        { transaction_type: "CREDIT", amount_cents: "100", description: "x" },
        "amount_cents",
        "Amount must be a positive whole number of cents (amount_cents).",
      ],
      [{ transaction_type: "CREDIT", amount_cents: 100, description: "   " }, "description", "A description is required."],
    ] as const) {
      const err = await errorOf(() => adjust(shop.admin, target.id, body));
      expect(err.status).toBe(400);
      expect(err.response["data"][field]["message"]).toBe(message);
    }
    const short = await errorOf(() =>
      adjust(shop.admin, target.id, { transaction_type: "DEBIT", amount_cents: 601, description: "too much" }),
    );
    expect(short.message).toMatch(/^Insufficient balance/);
    expect(
      (await errorOf(() => adjust(shop.admin, "nosuchuser0000", { transaction_type: "CREDIT", amount_cents: 1, description: "x" }))).status,
    ).toBe(404);
    expect((await ledgerOf(shop, target.id)).balance).toBe(600);
    expect(await auditRows(target.id)).toHaveLength(2);
  });
});

describe("POST /api/admin/orders/{id}/refund", () => {
  async function proxyNow(id: string) {
    return shop.su.collection("proxies").getOne(id);
  }

  it("credits the order back, puts the customer's proxies back in stock with new passwords, once", async () => {
    const { user, order, proxies } = await buyer(3, 2000);
    // One proxy went to someone else meanwhile (re-sold): the refund must leave it alone.
    const other = await customer(shop);
    setProxyColumns(shop.tpb, [proxies[2]!.id], { assigned_to_user_id: other.id });

    const key = randomUUID();
    const res = await refund(shop.admin, order.id, { reason: "Proxies were blocked" }, key);
    expect(res.replayed).toBe("false");
    expect(res.body).toMatchObject({
      order: { id: order.id, status: "refunded" },
      transaction: { type: "REFUND", amount_cents: 1350, reference: `refund:${order.id}` },
      balance_cents: 2000,
      released: 2,
      shortened: 0,
    });
    expect(parse(res.body.order.refunded_at)).toBeGreaterThan(Date.now() - 60_000);

    const { balance, rows } = await ledgerOf(shop, user.id);
    expect(balance).toBe(2000);
    expect(rows.map((r) => [r["type"], r["amount_cents"]])).toEqual([
      ["CREDIT", 2000],
      ["PROXY_PURCHASE", -1350],
      ["REFUND", 1350],
    ]);
    for (const proxy of proxies.slice(0, 2)) {
      const now = await proxyNow(proxy.id);
      expect(now).toMatchObject({ status: "AVAILABLE", assigned_to_user_id: "", expires_at: "", auto_renew: false });
      expect(now["password"]).not.toBe(proxy["password"]);
    }
    const resold = await proxyNow(proxies[2]!.id);
    expect(resold).toMatchObject({ status: "ASSIGNED", assigned_to_user_id: other.id, password: proxies[2]!["password"] });
    expect((await user.pb.collection("proxies").getList(1, 10)).totalItems).toBe(0);

    const logs = await auditRows(order.id);
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatchObject({ action: "proxy_orders.refund", admin_id: adminId, target_type: "proxy_orders" });
    expect(logs[0]!["details"]).toMatchObject({
      user_id: user.id,
      kind: "purchase",
      amount_cents: 1350,
      reason: "Proxies were blocked",
      within_promise: true,
      proxies_released: expect.arrayContaining([proxies[0]!.id, proxies[1]!.id]),
      proxies_shortened: [],
    });

    // The same key again: the first answer, nothing moves. Another key: refused.
    const replay = await refund(shop.admin, order.id, { reason: "Proxies were blocked" }, key);
    expect(replay.replayed).toBe("true");
    expect(replay.body).toMatchObject({ order: { status: "refunded" }, balance_cents: 2000, released: 2 });
    const twice = await errorOf(() => refund(shop.admin, order.id, { reason: "Proxies were blocked" }));
    expect(twice.status).toBe(409);
    expect(twice.message).toMatch(/^This order was already refunded/);
    const otherBody = await errorOf(() => refund(shop.admin, order.id, { reason: "Another reason" }, key));
    expect(otherBody.status).toBe(422);
    expect((await ledgerOf(shop, user.id)).rows).toHaveLength(3);
    expect(await auditRows(order.id)).toHaveLength(1);
  });

  it("takes a refunded renewal's 30 days back off the proxies and stops their auto-renewal", async () => {
    const { user, proxies } = await buyer(2, 5000);
    const ids = proxies.map((p) => p.id);
    for (const id of ids) await user.pb.send(`/api/v1/proxies/${id}`, { method: "PATCH", body: { auto_renew: true } });
    const before = await Promise.all(ids.map(proxyNow));
    const renewal = await post(user.pb, "/api/v1/proxies/renew", { proxy_ids: ids });
    // A purchase a later renewal extended cannot be refunded before that renewal.
    const detail = await adminGet<Detail>(shop.admin, `/api/admin/users/${user.id}`);
    const purchaseOrder = detail.orders.find((o) => o.kind === "purchase")!;
    expect(purchaseOrder.refundable).toBe(false);
    const blocked = await errorOf(() => refund(shop.admin, purchaseOrder.id, { reason: "Too slow" }));
    expect(blocked.status).toBe(409);
    expect(blocked.message).toMatch(/refund that renewal first/);

    const res = await refund(shop.admin, renewal.order.id, { reason: "Renewed by mistake" });
    expect(res.body).toMatchObject({ released: 0, shortened: 2, balance_cents: 5000 - 900 });
    for (const [i, id] of ids.entries()) {
      const now = await proxyNow(id);
      expect(now).toMatchObject({ status: "ASSIGNED", assigned_to_user_id: user.id, auto_renew: false });
      expect(Math.abs(parse(now["expires_at"]) - parse(before[i]!["expires_at"]))).toBeLessThan(1000);
    }
    // Now the purchase can be refunded too.
    const purchaseRefund = await refund(shop.admin, purchaseOrder.id, { reason: "Too slow" });
    expect(purchaseRefund.body).toMatchObject({ released: 2, balance_cents: 5000 });
    expect((await ledgerOf(shop, user.id)).rows.filter((r) => r["type"] === "REFUND")).toHaveLength(2);
  });

  it("refunds an order older than 7 days only when a late refund is confirmed", async () => {
    const { user, order } = await buyer(1, 1000);
    backdateOrder(order.id, 8);
    const detail = await adminGet<Detail>(shop.admin, `/api/admin/users/${user.id}`);
    expect(detail.orders[0]).toMatchObject({ refundable: true, within_promise: false });
    expect(detail.orders[0]!.refundable_reason).toMatch(/^Older than 7 days \(8 days\)/);

    const late = await errorOf(() => refund(shop.admin, order.id, { reason: "Customer complaint" }));
    expect(late.status).toBe(409);
    expect(late.message).toBe("This order is 8 days old, past the 7-day money-back promise. Confirm a late refund to refund it anyway.");
    expect((await ledgerOf(shop, user.id)).balance).toBe(550);

    const res = await refund(shop.admin, order.id, { reason: "Customer complaint", allow_late: true });
    expect(res.body.balance_cents).toBe(1000);
    expect((await auditRows(order.id))[0]!["details"]).toMatchObject({ within_promise: false });
  });

  it("names the field of bad input, and knows no unknown order", async () => {
    const { user, order } = await buyer(1, 1000);
    for (const [body, field, message] of [
      [{}, "reason", "A reason for the refund is required."],
      [{ reason: "  " }, "reason", "A reason for the refund is required."],
      [{ reason: "ok" }, "reason", "The reason must be at least 3 characters."],
      [{ reason: "x".repeat(501) }, "reason", "The reason must be at most 500 characters."],
      [{ reason: "Broken", allow_late: "yes" }, "allow_late", "Late refund confirmation (allow_late) must be true or false."],
    ] as const) {
      const err = await errorOf(() => refund(shop.admin, order.id, body));
      expect(err.status).toBe(400);
      expect(err.response["data"][field]["message"]).toBe(message);
    }
    const missingKey = await errorOf(() =>
      shop.admin.send(`/api/admin/orders/${order.id}/refund`, { method: "POST", body: { reason: "Broken" } }),
    );
    expect(missingKey.status).toBe(400);
    expect((await errorOf(() => refund(shop.admin, "nosuchorder0000", { reason: "Broken" }))).status).toBe(404);
    expect((await shop.su.collection("proxy_orders").getOne(order.id))["status"]).toBe("completed");
    expect((await ledgerOf(shop, user.id)).balance).toBe(550);
    expect(await auditRows(order.id)).toHaveLength(0);
  });
});
