// What the console-users cases share: the money routes called with an Idempotency-Key,
// audit rows of a target, a customer with an order, an order made older.
import type PocketBase from "pocketbase";
import type { RecordModel } from "pocketbase";
import { auditRows as auditRowsOf, sendKeyed } from "../../support/admin.ts";
import { setColumns } from "../../support/proxy-columns.ts";
import { proxyBuyer, type Shop } from "../../support/shop.ts";

export const DAY = 86_400_000;
export const parse = (date: unknown) => Date.parse(String(date).replace(" ", "T"));

interface RefundAnswer {
  order: { id: string; status: string; refunded_at: string };
  transaction: { type: string; amount_cents: number; reference: string };
  balance_cents: number;
  released: number;
  shortened: number;
}

export const adjust = (pb: PocketBase, userId: string, body: Record<string, unknown>, key?: string) =>
  sendKeyed<{ balance_cents: number; transaction: RecordModel }>(pb, `/api/admin/users/${userId}/balance`, body, key);
export const refund = (pb: PocketBase, orderId: string, body: Record<string, unknown>, key?: string) =>
  sendKeyed<RefundAnswer>(pb, `/api/admin/orders/${orderId}/refund`, body, key);

/** The audit rows of admins' actions on a target (not the target's own refused calls to /api/admin/*, "admin.refused"). */
export const auditRowsOfTarget = (shop: Shop, targetId: string) =>
  auditRowsOf(shop.su, shop.su.filter("target_id = {:id} && action != 'admin.refused'", { id: targetId }));

/** A customer who bought `count` proxies of a fresh country (purchase route); the order and its proxies. */
export const buyer = (shop: Shop, count = 2, cents = 10_000, type = "RESIDENTIAL") => proxyBuyer(shop, { count, cents, type, prefix: "R" });

/** Moves an order's creation time back (the API refuses every write to orders; tests write the file). */
export function backdateOrder(shop: Shop, orderId: string, days: number): void {
  setColumns(shop.tpb, "proxy_orders", [orderId], { created: new Date(Date.now() - days * DAY).toISOString().replace("T", " ") });
}
