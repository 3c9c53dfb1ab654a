// A readable audit log (issue #15): the list route answers each entry's target as a person,
// proxy, plan, ticket or setting (resolved on the server, "deleted" when it is gone), and the
// events beside the console's changes are logged too: a staff reply, an admin's sign-in and
// a signed-in customer refused on /api/admin/* (deduplicated; anonymous callers are not logged).
import { randomUUID } from "node:crypto";
import type { AuditEntry, AuditPage } from "@/features/console-logs/api";
import type { RecordModel } from "pocketbase";
import { describe, expect, it } from "vitest";
import { adminGet, auditRows } from "../support/admin.ts";
import { createTestUser, signIn, statusOf } from "../support/pocketbase.ts";
import { credit, customer } from "../support/shop.ts";
import { useShop } from "../support/use-shop.ts";

const shop = useShop();
let seq = 0;
const tag = () => `${Date.now().toString(36)}${seq++}`;

/** The newest entry of `action` whose details or target match `search`. */
async function newest(action: string, search: string): Promise<AuditEntry> {
  const page = await adminGet<AuditPage>(shop.admin, "/api/admin/audit-logs", { action, search });
  const entry = page.items[0];
  if (!entry) throw new Error(`no ${action} entry for ${search}`);
  return entry;
}

describe("the audit log names its targets", () => {
  it.each<[string, () => Promise<{ action: string; search: string; label: string; name?: string }>]>([
    [
      "a user: e-mail and full name",
      async () => {
        const user = await createTestUser(shop.su, { first_name: "Jo", last_name: `Target${tag()}` });
        await credit(shop, user.id, 2500);
        return {
          action: "users.balance_credit",
          search: user.id,
          label: user.email,
          name: `Jo ${(await shop.su.collection("users").getOne(user.id))["last_name"]}`,
        };
      },
    ],
    [
      "a pricing plan: its name",
      async () => {
        const name = `Plan ${tag()}`;
        const plan = await shop.admin
          .collection("pricing_plans")
          .create({ name, type: "HTTP", price_cents: 500, features: ["x"], active: true });
        return { action: "pricing_plans.create", search: plan.id, label: name };
      },
    ],
    [
      "a settings row: its key",
      async () => {
        const row = await shop.su.collection("settings").getFirstListItem('key = "site_description"');
        await shop.admin.collection("settings").update(row.id, { value: `Readable ${tag()}` });
        return { action: "settings.update", search: row.id, label: "site_description" };
      },
    ],
    [
      "a proxy: its username (host:port is the gateway's, the same for every proxy of a protocol)",
      async () => {
        const username = `audit-${tag()}`;
        const proxy = await shop.su.collection("proxies").create({
          host: "gw.test",
          port: 8080,
          username,
          password: "Audit#Readable2026",
          type: "HTTP",
          country: "US",
          status: "AVAILABLE",
        });
        await shop.admin.send(`/api/admin/proxies/${proxy.id}`, { method: "PATCH", body: { status: "MAINTENANCE" } });
        return { action: "proxies.update", search: proxy.id, label: username };
      },
    ],
    [
      "a gateway token: its name",
      async () => {
        const name = `gw-${tag()}`;
        const { id } = await shop.admin.send<{ id: string }>("/api/admin/gateway-tokens", { method: "POST", body: { name } });
        return { action: "gateway_token.create", search: id, label: name };
      },
    ],
  ])("%s", async (_name, arrange) => {
    const { action, search, label, name } = await arrange();
    const entry = await newest(action, search);
    expect(entry).toMatchObject({ target_label: label, target_name: name ?? "", target_deleted: false });
  });

  it("finds a user's entries by the user's e-mail or name, as the page shows them", async () => {
    const last = `Findable${tag()}`;
    const user = await createTestUser(shop.su, { first_name: "Kim", last_name: last });
    await credit(shop, user.id, 1200);
    for (const search of [user.email.toUpperCase(), last, `Kim ${last}`]) {
      const page = await adminGet<AuditPage>(shop.admin, "/api/admin/audit-logs", { action: "users.balance_credit", search });
      expect(
        page.items.map((i) => i.target_id),
        search,
      ).toEqual([user.id]);
    }
  });

  it("marks a target that no longer exists as deleted", async () => {
    const plan = await shop.admin
      .collection("pricing_plans")
      .create({ name: `Gone ${tag()}`, type: "HTTP", price_cents: 500, features: ["x"], active: true });
    await shop.admin.collection("pricing_plans").delete(plan.id);
    for (const action of ["pricing_plans.create", "pricing_plans.delete"]) {
      expect(await newest(action, plan.id)).toMatchObject({ target_id: plan.id, target_label: "", target_deleted: true });
    }
  });
});

describe("more of the admin's actions are audited", () => {
  it("a staff reply on a ticket, with the ticket's subject as its target", async () => {
    const c = await customer(shop);
    const subject = `Audited reply ${tag()}`;
    const { ticket } = await c.pb.send<{ ticket: RecordModel }>("/api/v1/support/tickets", {
      method: "POST",
      body: { subject, message: "Please help me with this problem.", priority: "low" },
    });
    const adminId = shop.admin.authStore.record!.id;
    const reply = await shop.admin
      .collection("chat_messages")
      .create({ ticket_id: ticket.id, sender_id: adminId, message: "We are on it." });
    // The customer's own message is not an admin action.
    await c.pb.collection("chat_messages").create({ ticket_id: ticket.id, sender_id: c.id, message: "Thanks!" });
    const rows = await auditRows(shop.su, shop.su.filter("action = 'chat_messages.reply' && details.ticket_id = {:t}", { t: ticket.id }));
    expect(rows).toHaveLength(1);
    const entry = await newest("chat_messages.reply", reply.id);
    expect(entry).toMatchObject({
      admin_id: adminId,
      target_type: "chat_messages",
      target_id: reply.id,
      target_label: subject,
      target_deleted: false,
      details: { ticket_id: ticket.id, message: "We are on it." },
    });
  });

  it("an admin's sign-in with address and user agent; not a refresh, not a customer's sign-in", async () => {
    const admin = await createTestUser(shop.su, { is_admin: true, first_name: "Signin", last_name: `Admin${tag()}` });
    const pb = await signIn(shop.tpb, admin);
    await pb.collection("users").authRefresh();
    const buyer = await createTestUser(shop.su);
    await signIn(shop.tpb, buyer);
    const rows = await auditRows(
      shop.su,
      shop.su.filter("action = 'admin.sign_in' && (admin_id = {:a} || admin_id = {:b})", { a: admin.id, b: buyer.id }),
    );
    expect(rows).toHaveLength(1);
    const entry = await newest("admin.sign_in", admin.email);
    expect(entry).toMatchObject({
      admin_id: admin.id,
      admin_email: admin.email,
      target_type: "",
      target_id: "",
      target_label: "",
    });
    expect(entry.details).toMatchObject({ method: "password", ip: expect.stringMatching(/\d/), user_agent: expect.stringMatching(/./) });
  });

  it("a signed-in customer refused on an admin route, once per route in ten minutes; anonymous callers are not logged", async () => {
    const buyer = await customer(shop);
    const anonymous = shop.tpb.client();
    const before = (await auditRows(shop.su, "action = 'admin.refused'")).length;
    expect(await statusOf(() => anonymous.send("/api/admin/users", { method: "GET" }))).toBe(401);
    expect((await auditRows(shop.su, "action = 'admin.refused'")).length).toBe(before);

    for (let i = 0; i < 3; i++) {
      expect(await statusOf(() => buyer.pb.send("/api/admin/users", { method: "GET" }))).toBe(403);
    }
    expect(
      await statusOf(() =>
        buyer.pb.send(`/api/admin/users/${buyer.id}/balance`, {
          method: "POST",
          headers: { "Idempotency-Key": randomUUID() },
          body: { transaction_type: "CREDIT", amount_cents: 100, description: "self" },
        }),
      ),
    ).toBe(403);
    const rows = await auditRows(shop.su, shop.su.filter("action = 'admin.refused' && target_id = {:id}", { id: buyer.id }));
    expect(rows.map((r) => (r["details"] as { route: string }).route)).toEqual([
      "/api/admin/users",
      `/api/admin/users/${buyer.id}/balance`,
    ]);
    expect(rows.map((r) => r["admin_id"])).toEqual(["", ""]);
    const entry = await newest("admin.refused", buyer.id);
    expect(entry).toMatchObject({ target_type: "users", target_id: buyer.id, target_label: buyer.email, target_deleted: false });
    expect(entry.details).toMatchObject({ method: "POST", route: `/api/admin/users/${buyer.id}/balance`, ip: expect.stringMatching(/\d/) });
  });
});
