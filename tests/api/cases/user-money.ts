// User Management's money cases, run in console-users.test.ts's shop: balance adjustments
// behind an Idempotency-Key and order refunds (the 7-day money-back promise), one audit row
// each, nothing changed by a refusal.
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { UserDetail } from "@/features/console-users/api";
import { errorOf, fieldErrorsOf } from "../../support/pocketbase.ts";
import { adminGet } from "../../support/admin.ts";
import { customer, ledgerOf, post, setProxyColumns } from "../../support/shop.ts";
import type { ShopFixture } from "../../support/use-shop.ts";
import { adjust, auditRowsOfTarget, backdateOrder, buyer, parse, refund } from "./console-users-kit.ts";

export function userMoneyCases(shop: ShopFixture): void {
  const adminId = () => shop.admin.authStore.record!.id;

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
        expect(fieldErrorsOf(err)["idempotency_key"]["code"]).toBe("idempotency_key_reused");
      }
      const { balance, rows } = await ledgerOf(shop, target.id);
      expect(balance).toBe(2600);
      expect(rows).toHaveLength(2);
      expect(await auditRowsOfTarget(shop, target.id)).toHaveLength(2);
    });

    it("writes one audit row with the amounts, and names the field of bad input", async () => {
      const target = await customer(shop, 1000);
      const res = await adjust(shop.admin, target.id, { transaction_type: "DEBIT", amount_cents: 400, description: "  Chargeback  " });
      expect(res.body.balance_cents).toBe(600);
      const logs = await auditRowsOfTarget(shop, target.id);
      expect(logs).toHaveLength(2);
      expect(logs[1]).toMatchObject({ action: "users.balance_debit", admin_id: adminId(), target_type: "users" });
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
          "Amount must be at least $0.01, in whole cents.",
        ],
        [
          { transaction_type: "CREDIT", amount_cents: "100", description: "x" },
          "amount_cents",
          "Amount must be at least $0.01, in whole cents.",
        ],
        [{ transaction_type: "CREDIT", amount_cents: 100, description: "   " }, "description", "A description is required."],
      ] as const) {
        const err = await errorOf(() => adjust(shop.admin, target.id, body));
        expect(err.status).toBe(400);
        expect(fieldErrorsOf(err)[field]["message"]).toBe(message);
      }
      const short = await errorOf(() =>
        adjust(shop.admin, target.id, { transaction_type: "DEBIT", amount_cents: 601, description: "too much" }),
      );
      expect(short.message).toMatch(/^Insufficient balance/);
      expect(
        (await errorOf(() => adjust(shop.admin, "nosuchuser0000", { transaction_type: "CREDIT", amount_cents: 1, description: "x" })))
          .status,
      ).toBe(404);
      expect((await ledgerOf(shop, target.id)).balance).toBe(600);
      expect(await auditRowsOfTarget(shop, target.id)).toHaveLength(2);
    });
  });

  describe("POST /api/admin/orders/{id}/refund", () => {
    async function proxyNow(id: string) {
      return shop.su.collection("proxies").getOne(id);
    }

    it("credits the order back, puts the customer's proxies back in stock with new passwords, once", async () => {
      const { user, order, proxies } = await buyer(shop, 3, 2000);
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

      const logs = await auditRowsOfTarget(shop, order.id);
      expect(logs).toHaveLength(1);
      expect(logs[0]).toMatchObject({ action: "proxy_orders.refund", admin_id: adminId(), target_type: "proxy_orders" });
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
      // Dated as the pages date a day ("Nov 28, 2026"), never "2026-11-28" (issue #28).
      expect(twice.message).toMatch(/^This order was already refunded on [A-Z][a-z]{2} \d{2}, \d{4}: /);
      const otherBody = await errorOf(() => refund(shop.admin, order.id, { reason: "Another reason" }, key));
      expect(otherBody.status).toBe(422);
      expect((await ledgerOf(shop, user.id)).rows).toHaveLength(3);
      expect(await auditRowsOfTarget(shop, order.id)).toHaveLength(1);
    });

    it("takes a refunded renewal's 30 days back off the proxies and stops their auto-renewal", async () => {
      const { user, proxies } = await buyer(shop, 2, 5000);
      const ids = proxies.map((p) => p.id);
      for (const id of ids) await user.pb.send(`/api/v1/proxies/${id}`, { method: "PATCH", body: { auto_renew: true } });
      const before = await Promise.all(ids.map(proxyNow));
      const renewal = await post(user.pb, "/api/v1/proxies/renew", { proxy_ids: ids });
      // A purchase a later renewal extended cannot be refunded before that renewal.
      const detail = await adminGet<UserDetail>(shop.admin, `/api/admin/users/${user.id}`);
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
      const { user, order } = await buyer(shop, 1, 1000);
      backdateOrder(shop, order.id, 8);
      const detail = await adminGet<UserDetail>(shop.admin, `/api/admin/users/${user.id}`);
      expect(detail.orders[0]).toMatchObject({ refundable: true, within_promise: false });
      expect(detail.orders[0]!.refundable_reason).toMatch(/^Older than 7 days \(8 days\)/);

      const late = await errorOf(() => refund(shop.admin, order.id, { reason: "Customer complaint" }));
      expect(late.status).toBe(409);
      expect(late.message).toBe("This order is 8 days old, past the 7-day money-back promise. Confirm a late refund to refund it anyway.");
      expect((await ledgerOf(shop, user.id)).balance).toBe(550);

      const res = await refund(shop.admin, order.id, { reason: "Customer complaint", allow_late: true });
      expect(res.body.balance_cents).toBe(1000);
      expect((await auditRowsOfTarget(shop, order.id))[0]!["details"]).toMatchObject({ within_promise: false });
    });

    it("names the field of bad input, and knows no unknown order", async () => {
      const { user, order } = await buyer(shop, 1, 1000);
      for (const [body, field, message] of [
        [{}, "reason", "A reason for the refund is required."],
        [{ reason: "  " }, "reason", "A reason for the refund is required."],
        [{ reason: "ok" }, "reason", "The reason must be at least 3 characters."],
        [{ reason: "x".repeat(501) }, "reason", "The reason must be at most 500 characters."],
        [{ reason: "Broken", allow_late: "yes" }, "allow_late", "Late refund confirmation (allow_late) must be true or false."],
      ] as const) {
        const err = await errorOf(() => refund(shop.admin, order.id, body));
        expect(err.status).toBe(400);
        expect(fieldErrorsOf(err)[field]["message"]).toBe(message);
      }
      const missingKey = await errorOf(() =>
        shop.admin.send(`/api/admin/orders/${order.id}/refund`, { method: "POST", body: { reason: "Broken" } }),
      );
      expect(missingKey.status).toBe(400);
      expect((await errorOf(() => refund(shop.admin, "nosuchorder0000", { reason: "Broken" }))).status).toBe(404);
      expect((await shop.su.collection("proxy_orders").getOne(order.id))["status"]).toBe("completed");
      expect((await ledgerOf(shop, user.id)).balance).toBe(550);
      expect(await auditRowsOfTarget(shop, order.id)).toHaveLength(0);
    });
  });
}
