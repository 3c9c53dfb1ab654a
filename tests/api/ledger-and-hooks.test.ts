import { randomUUID } from "node:crypto";
// Server logic: the ledger keeps balance = sum of transactions, new users get their
// balance and affiliate rows, admin writes land in the audit log, and settings/plan
// changes are announced on the public_content realtime topic.
import { EventSource } from "eventsource";
import type PocketBase from "pocketbase";
import type { RecordModel } from "pocketbase";
import { describe, expect, it } from "vitest";
import { createTestUser, errorOf, signIn, fieldErrorsOf } from "../support/pocketbase.ts";
import { adminSend } from "../support/admin.ts";
import { ledgerOf, proxyFields } from "../support/shop.ts";
import { useShop } from "../support/use-shop.ts";

(globalThis as { EventSource?: unknown }).EventSource ??= EventSource;

const shop = useShop();
const adminId = () => shop.admin.authStore.record!.id;

function changeBalance(pb: PocketBase, userId: string, transaction_type: string, amount_cents: number, description = "test entry") {
  return pb.send<{ balance_cents: number; transaction: RecordModel }>(`/api/admin/users/${userId}/balance`, {
    method: "POST",
    body: { transaction_type, amount_cents, description },
    headers: { "Idempotency-Key": randomUUID() },
  });
}

describe("new users", () => {
  it("get a zero balance and an affiliate code from their id, whoever creates them", async () => {
    const user = await createTestUser(shop.su);
    const balance = await shop.su.collection("balances").getFirstListItem(`user_id = "${user.id}"`);
    expect(balance["balance_cents"]).toBe(0);
    const affiliate = await shop.su.collection("affiliates").getFirstListItem(`user_id = "${user.id}"`);
    expect(affiliate).toMatchObject({
      code: user.id.slice(0, 8).toUpperCase(),
      total_referrals: 0,
      total_earnings_cents: 0,
      pending_earnings_cents: 0,
    });
  });

  it("is all or nothing: a user whose affiliate code is taken is not created", async () => {
    // Take the code a user with this id would get, then create that user.
    const id = "takencode123456";
    const other = await createTestUser(shop.su);
    const otherAffiliate = await shop.su.collection("affiliates").getFirstListItem(`user_id = "${other.id}"`);
    await shop.su.collection("affiliates").update(otherAffiliate.id, { code: "TAKENCOD" });
    const err = await errorOf(() =>
      shop.su.collection("users").create({ id, email: "taken@test.local", password: "Passw0rd#123", passwordConfirm: "Passw0rd#123" }),
    );
    expect(err.status).toBe(400);
    expect(await shop.su.collection("users").getFullList({ filter: `id = "${id}"` })).toHaveLength(0);
    expect(await shop.su.collection("balances").getFullList({ filter: `user_id = "${id}"` })).toHaveLength(0);
  });
});

describe("ledger", () => {
  it("keeps the balance equal to the sum of the user's transactions", async () => {
    const user = await createTestUser(shop.su);
    await changeBalance(shop.admin, user.id, "CREDIT", 5000);
    await changeBalance(shop.admin, user.id, "DEBIT", 1250);
    const last = await changeBalance(shop.admin, user.id, "CREDIT", 1);
    expect(last.balance_cents).toBe(3751);
    const { balance, sum, rows } = await ledgerOf(shop, user.id);
    expect(balance).toBe(3751);
    expect(sum).toBe(3751);
    expect(rows.map((r) => [r["type"], r["amount_cents"], r["balance_after_cents"]])).toEqual([
      ["CREDIT", 5000, 5000],
      ["DEBIT", -1250, 3750],
      ["CREDIT", 1, 3751],
    ]);
  });

  it("refuses to go below zero with a clear error and changes nothing", async () => {
    const user = await createTestUser(shop.su);
    await changeBalance(shop.admin, user.id, "CREDIT", 1000);
    const err = await errorOf(() => changeBalance(shop.admin, user.id, "DEBIT", 1001));
    expect(err.status).toBe(400);
    expect(err.message).toMatch(/Insufficient balance: this needs \$10\.01 but the balance is \$10\.00/);
    const { balance, rows } = await ledgerOf(shop, user.id);
    expect(balance).toBe(1000);
    expect(rows).toHaveLength(1);
  });

  it.each([
    ["zero", "CREDIT", 0],
    ["negative", "CREDIT", -100],
    ["fractional", "CREDIT", 10.5],
    ["an unknown type", "REFUND_ALL", 100],
  ])("rejects a %s amount or type", async (_label, type, cents) => {
    const user = await createTestUser(shop.su);
    expect((await errorOf(() => changeBalance(shop.admin, user.id, type, cents))).status).toBe(400);
    expect((await ledgerOf(shop, user.id)).rows).toHaveLength(0);
  });

  it("caps one adjustment at $1,000,000 with a clear message", async () => {
    const user = await createTestUser(shop.su);
    for (const type of ["CREDIT", "DEBIT"]) {
      const err = await errorOf(() => changeBalance(shop.admin, user.id, type, 100_000_001));
      expect(err.status).toBe(400);
      expect(err.message).toBe("Amount must be at most $1,000,000.00 per adjustment.");
      expect(fieldErrorsOf(err)["amount_cents"]["code"]).toBe("validation_max_amount");
    }
    expect((await errorOf(() => changeBalance(shop.admin, user.id, "CREDIT", Number.MAX_SAFE_INTEGER))).status).toBe(400);
    expect((await ledgerOf(shop, user.id)).rows).toHaveLength(0);
    // Exactly the cap is accepted, and a debit still cannot go below zero.
    expect((await changeBalance(shop.admin, user.id, "CREDIT", 100_000_000)).balance_cents).toBe(100_000_000);
    await changeBalance(shop.admin, user.id, "CREDIT", 1);
    expect((await changeBalance(shop.admin, user.id, "DEBIT", 100_000_000)).balance_cents).toBe(1);
    expect((await errorOf(() => changeBalance(shop.admin, user.id, "DEBIT", 2))).message).toMatch(/Insufficient balance/);
    const { balance, sum } = await ledgerOf(shop, user.id);
    expect([balance, sum]).toEqual([1, 1]);
  });

  it("is for admins only", async () => {
    const customer = await createTestUser(shop.su);
    const asCustomer = await signIn(shop.tpb, customer);
    expect((await errorOf(() => changeBalance(asCustomer, customer.id, "CREDIT", 100_000))).status).toBe(403);
    expect((await errorOf(() => changeBalance(shop.tpb.client(), customer.id, "CREDIT", 100_000))).status).toBe(401);
    expect((await ledgerOf(shop, customer.id)).rows).toHaveLength(0);
  });

  it("stays consistent under concurrent debits", async () => {
    const user = await createTestUser(shop.su);
    await changeBalance(shop.admin, user.id, "CREDIT", 1000);
    const results = await Promise.allSettled(Array.from({ length: 8 }, () => changeBalance(shop.admin, user.id, "DEBIT", 300)));
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(3);
    const { balance, sum } = await ledgerOf(shop, user.id);
    expect(balance).toBe(100);
    expect(sum).toBe(100);
  });

  it("writes the balance change to the audit log", async () => {
    const user = await createTestUser(shop.su);
    const { transaction } = await changeBalance(shop.admin, user.id, "CREDIT", 700, "Goodwill credit");
    const log = await shop.su.collection("audit_logs").getFirstListItem(`target_id = "${user.id}"`);
    expect(log).toMatchObject({ admin_id: adminId(), action: "users.balance_credit", target_type: "users" });
    expect(log["details"]).toMatchObject({ amount_cents: 700, description: "Goodwill credit", transaction_id: transaction.id });
  });
});

describe("audit log", () => {
  it("records an admin's create, update and delete with the changes", async () => {
    const plan = await shop.admin
      .collection("pricing_plans")
      .create({ name: "Audit Plan", type: "SOCKS5", price_cents: 900, features: ["a"], active: true });
    await shop.admin.collection("pricing_plans").update(plan.id, { price_cents: 950 });
    await shop.admin.collection("pricing_plans").delete(plan.id);
    const logs = await shop.su.collection("audit_logs").getFullList({ filter: `target_id = "${plan.id}"`, sort: "created" });
    expect(logs.map((l) => l["action"])).toEqual(["pricing_plans.create", "pricing_plans.update", "pricing_plans.delete"]);
    expect(logs.every((l) => l["admin_id"] === adminId() && l["target_type"] === "pricing_plans")).toBe(true);
    expect(logs[0]!["details"]).toMatchObject({ record: { name: "Audit Plan", price_cents: 900 } });
    expect(logs[1]!["details"]).toEqual({ changes: { price_cents: { from: 900, to: 950 } } });
  });

  it("keeps proxy passwords out of the log", async () => {
    const proxy = await shop.admin
      .collection("proxies")
      .create(proxyFields({ host: "audit.test", port: 9000, username: "audit-u", password: "s3cret-pass-audit" }));
    await shop.admin.collection("proxies").update(proxy.id, { password: "n3w-secret-audit" });
    const logs = await shop.su.collection("audit_logs").getFullList({ filter: `target_id = "${proxy.id}"` });
    expect(logs).toHaveLength(2);
    expect(JSON.stringify(logs)).not.toMatch(/s3cret-pass-audit|n3w-secret-audit/);
  });

  it("logs ticket status changes and contact message edits, and nothing for failed or non-admin writes", async () => {
    const customer = await createTestUser(shop.su);
    const asCustomer = await signIn(shop.tpb, customer);
    const ticket = await asCustomer
      .collection("support_tickets")
      .create({ user_id: customer.id, subject: "Please help", priority: "urgent", status: "open" });
    await shop.admin.collection("support_tickets").update(ticket.id, { status: "closed" });
    const contact = await shop.tpb
      .client()
      .collection("contact_messages")
      .create({ name: "Jo Doe", email: "jo@example.com", subject: "Question", message: "How do I pay with crypto?", type: "billing" });
    await shop.admin.collection("contact_messages").delete(contact.id);
    await errorOf(() => shop.admin.collection("settings").create({ key: "Not A Valid Key", value: "x" }));

    const actions = (
      await shop.su
        .collection("audit_logs")
        .getFullList({ filter: `target_id = "${ticket.id}" || target_id = "${contact.id}" || action = "settings.create"` })
    ).map((l) => [l["action"], l["target_id"]]);
    expect(actions).toEqual(
      expect.arrayContaining([
        ["support_tickets.update", ticket.id],
        ["contact_messages.delete", contact.id],
      ]),
    );
    expect(actions).toHaveLength(2);
  });

  it("is not written for superuser changes (the dashboard)", async () => {
    const setting = await shop.su.collection("settings").create({ key: "superuser_only", value: "1" });
    expect(await shop.su.collection("audit_logs").getFullList({ filter: `target_id = "${setting.id}"` })).toHaveLength(0);
  });
});

describe("pricing plans", () => {
  it("keep features a list of non-empty texts", async () => {
    const base = { name: "Features Plan", type: "HTTP", price_cents: 100, active: false };
    for (const features of ["not a list", [1, 2], ["ok", " "]]) {
      expect((await errorOf(() => shop.admin.collection("pricing_plans").create({ ...base, features }))).status).toBe(400);
    }
    const plan = await shop.admin.collection("pricing_plans").create({ ...base, features: [" Fast "] });
    expect(plan["features"]).toEqual(["Fast"]);
    // A plan needs at least one feature (admin spec 5: "Features are required").
    const bare = await errorOf(() => shop.admin.collection("pricing_plans").create(base));
    expect(bare.status).toBe(400);
    expect(fieldErrorsOf(bare)["features"]["message"]).toMatch(/^Features are required/);
  });
});

describe("public_content topic", () => {
  it("announces settings and plan changes to subscribers", async () => {
    const listener = shop.tpb.client();
    const messages: unknown[] = [];
    await listener.realtime.subscribe("public_content", (data) => messages.push(data));
    try {
      const siteName = await shop.su.collection("settings").getFirstListItem('key = "site_name"');
      await shop.admin.collection("settings").update(siteName.id, { value: "Renamed Shop" });
      await expect.poll(() => messages, { timeout: 5000 }).toContainEqual({ collection: "settings", action: "update", id: siteName.id });

      const plan = await shop.su
        .collection("pricing_plans")
        .create({ name: "Announced", type: "HTTP", price_cents: 5, features: ["Announced"], active: true });
      await expect.poll(() => messages, { timeout: 5000 }).toContainEqual({ collection: "pricing_plans", action: "create", id: plan.id });
    } finally {
      await listener.realtime.unsubscribe();
    }
  });

  it("announces a changed count of countries in stock, which GET /api/shop/stock-summary answers to anyone", async () => {
    const stockSummary = () => shop.tpb.client().send<{ countries: number }>("/api/shop/stock-summary", {});
    // The minute job, started now instead of waited for (PocketBase's own cron route, superusers
    // only; it starts the job and answers without waiting for it).
    const runJob = () => shop.su.send("/api/crons/stock_summary", { method: "POST" });
    const listener = shop.tpb.client();
    const messages: unknown[] = [];
    await listener.realtime.subscribe("public_content", (data) => messages.push(data));
    try {
      const before = (await stockSummary()).countries;
      await adminSend(shop.admin, "/api/admin/proxies/generate", { type: "HTTP", country: "IS", quantity: 1 });
      expect((await stockSummary()).countries).toBe(before + 1);
      await runJob();
      await expect.poll(() => messages, { timeout: 5000 }).toContainEqual({ collection: "proxies", action: "stock" });

      // Unchanged: the job announces nothing (a settings change announced after it shows it ran by then).
      messages.length = 0;
      await adminSend(shop.admin, "/api/admin/proxies/generate", { type: "HTTP", country: "IS", quantity: 1 });
      await runJob();
      const siteName = await shop.su.collection("settings").getFirstListItem('key = "site_name"');
      await shop.admin.collection("settings").update(siteName.id, { value: siteName["value"] });
      await expect.poll(() => messages, { timeout: 5000 }).toContainEqual({ collection: "settings", action: "update", id: siteName.id });
      expect(messages).not.toContainEqual({ collection: "proxies", action: "stock" });
    } finally {
      await listener.realtime.unsubscribe();
    }
  });
});
