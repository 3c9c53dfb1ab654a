// The console's Overview and User Management routes against a real PocketBase: who may call
// them, the figures and lists they answer, the admin flag, balance adjustments behind an
// Idempotency-Key, and order refunds (the 7-day money-back promise). Every change leaves
// exactly one audit row; every refusal changes nothing; every test ends with each balance
// equal to the sum of its ledger.
import { randomUUID } from "node:crypto";
import type { AdminUser, UserDetail, UserPage } from "@/features/console-users/api";
import type PocketBase from "pocketbase";
import { describe, expect, it } from "vitest";
import { adminGet, adminSend, withDemoMode } from "../support/admin.ts";
import { createTestUser, errorOf, signIn, statusOf, fieldErrorsOf } from "../support/pocketbase.ts";
import { customer, ledgerOf, post } from "../support/shop.ts";
import { useShop } from "../support/use-shop.ts";
import { adjust, auditRowsOfTarget, buyer, refund } from "./cases/console-users-kit.ts";
import { userMoneyCases } from "./cases/user-money.ts";

const shop = useShop();
const adminId = () => shop.admin.authStore.record!.id;

describe("who may call the console routes", () => {
  it("answers anonymous callers 401 and customers 403, and changes nothing for them", async () => {
    const { user, order } = await buyer(shop, 1);
    const target = await customer(shop, 500);
    const anonymous = shop.tpb.client();
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
    expect(await auditRowsOfTarget(shop, target.id)).toHaveLength(1); // the funding credit only
    expect(await auditRowsOfTarget(shop, order.id)).toHaveLength(0);
  });

  it("lets admins read in demo mode but refuses every change, changing nothing", async () => {
    const { order } = await buyer(shop, 1);
    const target = await customer(shop);
    await withDemoMode(shop.su, async () => {
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
    expect(await auditRowsOfTarget(shop, target.id)).toHaveLength(0);
    expect(await auditRowsOfTarget(shop, order.id)).toHaveLength(0);
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
    const { user } = await buyer(shop, 2);
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
    const all = await adminGet<UserPage>(shop.admin, "/api/admin/users", { search });
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
      suspended: false,
      deleted: false,
      created: expect.any(String),
    });

    const admins = await adminGet<UserPage>(shop.admin, "/api/admin/users", { search, role: "admins" });
    expect(admins.items.map((u) => u.id)).toEqual([made[1]!.id]);
    expect(admins.counts).toEqual({ all: 3, admins: 1, users: 2 });
    expect(admins.totalItems).toBe(1);
    const users = await adminGet<UserPage>(shop.admin, "/api/admin/users", { search, role: "users", perPage: 1, page: 2 });
    expect(users).toMatchObject({ page: 2, perPage: 1, totalItems: 2, totalPages: 2 });
    expect(users.items.map((u) => u.id)).toEqual([made[0]!.id]);

    // First name, last name and e-mail each match on their own, in any case.
    expect((await adminGet<UserPage>(shop.admin, "/api/admin/users", { search: `q${tag}STONE` })).items.map((u) => u.id)).toEqual([
      made[0]!.id,
    ]);
    expect((await adminGet<UserPage>(shop.admin, "/api/admin/users", { search: `pa${tag}LA` })).items.map((u) => u.id)).toEqual([
      made[1]!.id,
    ]);
    expect((await adminGet<UserPage>(shop.admin, "/api/admin/users", { search: `list-${tag}-omar@` })).items.map((u) => u.id)).toEqual([
      made[2]!.id,
    ]);
    // % and _ are plain characters, not wildcards.
    expect((await adminGet<UserPage>(shop.admin, "/api/admin/users", { search: `${tag}%` })).totalItems).toBe(0);
    expect((await adminGet<UserPage>(shop.admin, "/api/admin/users", { search: "_____________________" })).totalItems).toBe(0);
  });

  it("answers the whole shop without a search, and refuses an unknown role", async () => {
    const list = await adminGet<UserPage>(shop.admin, "/api/admin/users", { perPage: 5 });
    const total = await shop.su.collection("users").getList(1, 1);
    const admins = await shop.su.collection("users").getList(1, 1, { filter: "is_admin = true" });
    expect(list.counts).toEqual({ all: total.totalItems, admins: admins.totalItems, users: total.totalItems - admins.totalItems });
    expect(list.items.length).toBe(Math.min(5, total.totalItems));
    expect(list.perPage).toBe(5);
    const err = await errorOf(() => adminGet(shop.admin, "/api/admin/users", { role: "owners" }));
    expect(err.status).toBe(400);
    expect(fieldErrorsOf(err)["role"]["message"]).toBe("Role must be all, admins or users.");
  });
});

describe("GET /api/admin/users/{id}", () => {
  it("shows profile, balance, ledger, proxies without passwords, tickets and refundable orders", async () => {
    const { user, order, proxies } = await buyer(shop, 2, 5000);
    await post(user.pb, "/api/v1/support/tickets", { subject: "Slow proxies", message: "They are slow since Monday.", priority: "high" });
    const detail = await adminGet<UserDetail>(shop.admin, `/api/admin/users/${user.id}`);
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
        "username",
      ]);
    }
    // The drawer titles each proxy by place and username (issue #28), as the customer's card does.
    expect(detail.proxies.map((p) => p["username"]).sort()).toEqual(proxies.map((p) => p["username"]).sort());
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
    const granted = await adminSend<AdminUser>(shop.admin, `/api/admin/users/${target.id}/admin`, {
      is_admin: true,
      confirm_email: target.email,
    });
    expect(granted).toMatchObject({ id: target.id, email: target.email, is_admin: true });
    expect((await shop.su.collection("users").getOne(target.id))["is_admin"]).toBe(true);
    // The same flag again changes nothing and logs nothing.
    await adminSend(shop.admin, `/api/admin/users/${target.id}/admin`, { is_admin: true });
    const revoked = await adminSend<AdminUser>(shop.admin, `/api/admin/users/${target.id}/admin`, { is_admin: false });
    expect(revoked.is_admin).toBe(false);
    const logs = await auditRowsOfTarget(shop, target.id);
    expect(logs.map((l) => [l["action"], l["admin_id"], l["target_type"]])).toEqual([
      ["users.admin_grant", adminId(), "users"],
      ["users.admin_revoke", adminId(), "users"],
    ]);
    expect(logs[0]!["details"]).toEqual({ email: target.email, is_admin: { from: false, to: true } });
    expect(logs[1]!["details"]).toEqual({ email: target.email, is_admin: { from: true, to: false } });
  });

  it("never changes the caller's own flag, and refuses bad input and unknown users", async () => {
    const own = await errorOf(() => adminSend(shop.admin, `/api/admin/users/${adminId()}/admin`, { is_admin: false }));
    expect(own.status).toBe(400);
    expect(own.message).toBe("You cannot change your own admin status.");
    expect((await shop.su.collection("users").getOne(adminId()))["is_admin"]).toBe(true);
    const target = await customer(shop);
    for (const body of [{}, { is_admin: "true" }, { is_admin: 1 }]) {
      const err = await errorOf(() => adminSend(shop.admin, `/api/admin/users/${target.id}/admin`, body));
      expect(err.status).toBe(400);
      expect(fieldErrorsOf(err)["is_admin"]["message"]).toBe("Admin status (is_admin) must be true or false.");
    }
    expect((await errorOf(() => adminSend(shop.admin, "/api/admin/users/nosuchuser0000/admin", { is_admin: true }))).status).toBe(404);
    expect(await auditRowsOfTarget(shop, adminId())).toHaveLength(0);
    expect(await auditRowsOfTarget(shop, target.id)).toHaveLength(0);
  });

  it("keeps an admin when two admins remove each other at once", async () => {
    const a = await createTestUser(shop.su, { is_admin: true });
    const b = await createTestUser(shop.su, { is_admin: true });
    const [asA, asB] = [await signIn(shop.tpb, a), await signIn(shop.tpb, b)];
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
    expect((await auditRowsOfTarget(shop, a.id)).length + (await auditRowsOfTarget(shop, b.id)).length).toBe(1);
  });
});

userMoneyCases(shop);
