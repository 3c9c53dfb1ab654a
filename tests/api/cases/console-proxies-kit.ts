// What the Proxy Management cases share: the admin's calls to the proxy routes, audit rows,
// counts, and stock imported through the route.
import { randomBytes } from "node:crypto";
import type { AdminProxy, AdminProxyDetail, ImportResult, InventoryPage, ProxyStats } from "@/features/console-proxies/api";
import type PocketBase from "pocketbase";
import type { RecordModel } from "pocketbase";
import { expect } from "vitest";
import { adminGet, adminSend } from "../../support/admin.ts";
import type { Shop } from "../../support/shop.ts";

let seq = 0;

export function proxyConsole(shop: Shop) {
  /** PocketBase ends every error message with a full stop. */
  const sentence = (m: string) => (m.endsWith(".") ? m : `${m}.`);
  const tag = () => `t${Date.now().toString(36)}${seq++}${randomBytes(2).toString("hex")}`;

  const list = (query: Record<string, string | number> = {}, pb: PocketBase = shop.admin) =>
    adminGet<InventoryPage>(pb, "/api/admin/proxies", query);
  const stats = () => adminGet<ProxyStats>(shop.admin, "/api/admin/proxies/stats");
  const detail = (id: string) => adminGet<AdminProxyDetail>(shop.admin, `/api/admin/proxies/${id}`);
  const importText = (body: Record<string, unknown>, pb: PocketBase = shop.admin) =>
    adminSend<ImportResult>(pb, "/api/admin/proxies/import", body);
  const edit = (id: string, body: Record<string, unknown>, pb: PocketBase = shop.admin) =>
    adminSend<AdminProxy & { password?: string }>(pb, `/api/admin/proxies/${id}`, body, "PATCH");

  /** Audit rows (oldest first) of an action, optionally for one target. */
  async function audits(action: string, targetId?: string): Promise<RecordModel[]> {
    const filter = targetId
      ? shop.su.filter("action = {:action} && target_id = {:id}", { action, id: targetId })
      : shop.su.filter("action = {:action}", { action });
    return shop.su.collection("audit_logs").getFullList({ filter, sort: "created" });
  }
  const auditCount = async () => (await shop.su.collection("audit_logs").getList(1, 1)).totalItems;
  const proxyCount = async () => (await shop.su.collection("proxies").getList(1, 1)).totalItems;

  /**
   * Imports upstream `lines` as the admin and answers the proxies made (found by their
   * upstream host; each has the shop's own username and password on the gateway).
   */
  async function stock(lines: string[], batch: Record<string, string> = {}): Promise<AdminProxy[]> {
    const res = await importText({ text: lines.join("\n"), ...batch });
    expect(res.imported).toBe(lines.length);
    const hosts = new Set(lines.map((l) => l.split(":")[0]));
    const found: AdminProxy[] = [];
    for (const host of hosts) found.push(...(await list({ search: host!, perPage: 100 })).items);
    return found;
  }

  return { sentence, tag, list, stats, detail, importText, edit, audits, auditCount, proxyCount, stock };
}
