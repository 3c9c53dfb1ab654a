// The console's pricing plan rules and contact inbox, run in console-support.test.ts's shop:
// what the server enforces and the one audit row per admin change.
import { describe, expect, it } from "vitest";
import { withDemoMode } from "../../support/admin.ts";
import { errorOf, statusOf, fieldErrorsOf } from "../../support/pocketbase.ts";
import { customer } from "../../support/shop.ts";
import type { ShopFixture } from "../../support/use-shop.ts";
import type { ConsoleSupportKit } from "./console-support-kit.ts";

export function pricingPlanCases(shop: ShopFixture, { adminId, tag, auditRows }: ConsoleSupportKit): void {
  describe("pricing plans", () => {
    const valid = { name: "Console Plan", type: "HTTP", price_cents: 250, features: ["Fast", "Private"], popular: false, active: false };

    it.each([
      ["blank name", { name: "   " }, "name", "Name is required"],
      ["price 0", { price_cents: 0 }, "price_cents", "Price must be greater than 0"],
      ["negative price", { price_cents: -5 }, "price_cents", "Price must be greater than 0"],
      ["empty features", { features: [] }, "features", "Features are required"],
      ["blank feature", { features: ["ok", " "] }, "features", "Features must be a list of non-empty texts."],
    ])("refuses a %s with 400 naming the field", async (_name, change, field, message) => {
      const name = `Rule ${tag()}`;
      const err = await errorOf(() => shop.admin.collection("pricing_plans").create({ ...valid, name, ...change }));
      expect(err.status).toBe(400);
      expect(fieldErrorsOf(err)).toMatchObject({
        [field]: { message: expect.stringMatching(new RegExp(`^${message.replace(".", "\\.")}\\.?$`)) },
      });
      expect(await shop.su.collection("pricing_plans").getFullList({ filter: shop.su.filter("name = {:name}", { name }) })).toHaveLength(0);
    });

    it("refuses an update breaking a rule and keeps the plan", async () => {
      const plan = await shop.admin.collection("pricing_plans").create({ ...valid, name: `Keep ${tag()}` });
      const err = await errorOf(() => shop.admin.collection("pricing_plans").update(plan.id, { name: "", price_cents: 0, features: [] }));
      expect(err.status).toBe(400);
      expect(Object.keys(fieldErrorsOf(err) as object).sort()).toEqual(["features", "name", "price_cents"]);
      expect(await shop.su.collection("pricing_plans").getOne(plan.id)).toMatchObject({ name: plan["name"], price_cents: 250 });
      expect((await auditRows(plan.id)).map((r) => r["action"])).toEqual(["pricing_plans.create"]);
    });

    it("create, update and delete leave one audit row each; customers and anonymous are refused", async () => {
      const c = await customer(shop);
      const name = `Audited ${tag()}`;
      expect(await statusOf(() => c.pb.collection("pricing_plans").create({ ...valid, name }))).toBe(400);
      expect(
        await statusOf(() =>
          shop.tpb
            .client()
            .collection("pricing_plans")
            .create({ ...valid, name }),
        ),
      ).toBe(400);
      expect(await shop.su.collection("pricing_plans").getFullList({ filter: shop.su.filter("name = {:name}", { name }) })).toHaveLength(0);

      const plan = await shop.admin.collection("pricing_plans").create({ ...valid, name: ` ${name} `, features: [" Fast ", "Private"] });
      expect(plan).toMatchObject({ name, features: ["Fast", "Private"] });
      await shop.admin.collection("pricing_plans").update(plan.id, { price_cents: 300, popular: true });
      expect(await statusOf(() => c.pb.collection("pricing_plans").update(plan.id, { price_cents: 1 }))).toBe(404);
      expect(await statusOf(() => c.pb.collection("pricing_plans").delete(plan.id))).toBe(404);
      await shop.admin.collection("pricing_plans").delete(plan.id);

      const rows = await auditRows(plan.id);
      expect(rows.map((r) => r["action"])).toEqual(["pricing_plans.create", "pricing_plans.update", "pricing_plans.delete"]);
      expect(rows.every((r) => r["admin_id"] === adminId() && r["target_type"] === "pricing_plans")).toBe(true);
      expect(rows[1]!["details"]).toEqual({ changes: { price_cents: { from: 250, to: 300 }, popular: { from: false, to: true } } });
    });

    it("demo mode refuses plan changes", async () => {
      const name = `Demo ${tag()}`;
      await withDemoMode(shop.su, async () => {
        expect(await statusOf(() => shop.admin.collection("pricing_plans").create({ ...valid, name }))).toBe(403);
      });
      expect(await shop.su.collection("pricing_plans").getFullList({ filter: shop.su.filter("name = {:name}", { name }) })).toHaveLength(0);
    });
  });
}

export function contactInboxCases(shop: ShopFixture, { adminId, tag, auditRows }: ConsoleSupportKit): void {
  describe("contact inbox", () => {
    async function contactMessage(subject: string, extra: Record<string, unknown> = {}) {
      return shop.tpb
        .client()
        .collection("contact_messages")
        .create({
          name: "Jo Sender",
          email: "jo@example.com",
          subject,
          message: "I would like to know more about your plans.",
          type: "general",
          ...extra,
        });
    }

    it("a new message is unread, whatever the sender says", async () => {
      const message = await contactMessage(`Unread ${tag()}`, { read_at: "2020-01-01 00:00:00.000Z" });
      expect((await shop.su.collection("contact_messages").getOne(message.id))["read_at"]).toBe("");
    });

    it("admins mark read (server time) and unread, one audit row each; customers and anonymous are refused", async () => {
      const message = await contactMessage(`Read me ${tag()}`);
      const c = await customer(shop);
      const before = Date.now();
      expect(
        await statusOf(() => shop.tpb.client().collection("contact_messages").update(message.id, { read_at: new Date().toISOString() })),
      ).toBe(404);
      expect(await statusOf(() => c.pb.collection("contact_messages").update(message.id, { read_at: new Date().toISOString() }))).toBe(404);
      expect(await statusOf(() => c.pb.collection("contact_messages").getOne(message.id))).toBe(404);
      expect((await c.pb.collection("contact_messages").getList(1, 10)).totalItems).toBe(0);
      expect((await shop.su.collection("contact_messages").getOne(message.id))["read_at"]).toBe("");

      const read = await shop.admin.collection("contact_messages").update(message.id, { read_at: "2001-01-01 00:00:00.000Z" });
      const readAt = new Date(String(read["read_at"]).replace(" ", "T")).getTime();
      expect(readAt).toBeGreaterThanOrEqual(before - 5000);
      // Marking read again keeps the first reading's time.
      const again = await shop.admin.collection("contact_messages").update(message.id, { read_at: new Date().toISOString() });
      expect(again["read_at"]).toBe(read["read_at"]);
      const unread = await shop.admin.collection("contact_messages").update(message.id, { read_at: "" });
      expect(unread["read_at"]).toBe("");

      const unreadList = await shop.admin
        .collection("contact_messages")
        .getList(1, 50, { filter: shop.admin.filter('read_at = "" && id = {:id}', { id: message.id }) });
      expect(unreadList.totalItems).toBe(1);

      const rows = await auditRows(message.id);
      expect(rows.map((r) => r["action"])).toEqual(["contact_messages.update", "contact_messages.update", "contact_messages.update"]);
      expect(rows[0]!["details"]).toMatchObject({ changes: { read_at: { from: "", to: read["read_at"] } } });
      expect(rows[0]!["admin_id"]).toBe(adminId());
      expect(rows[2]!["details"]).toMatchObject({ changes: { read_at: { from: read["read_at"], to: "" } } });
    });

    it("demo mode refuses marking read", async () => {
      const message = await contactMessage(`Demo read ${tag()}`);
      await withDemoMode(shop.su, async () => {
        expect(
          await statusOf(() => shop.admin.collection("contact_messages").update(message.id, { read_at: new Date().toISOString() })),
        ).toBe(403);
      });
      expect((await shop.su.collection("contact_messages").getOne(message.id))["read_at"]).toBe("");
      expect(await auditRows(message.id)).toHaveLength(0);
    });
  });
}
