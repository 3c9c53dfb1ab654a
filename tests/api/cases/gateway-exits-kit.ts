// What the gateway exit tests share (gateway-exits.test.ts, gateway-exit-edits.test.ts,
// gateway-migration.test.ts): the shop's endpoint name, the default ports, and the admin's
// calls to the proxy routes on top of the Proxy Management kit.
import type { AdminProxy, AdminProxyDetail } from "@/features/console-proxies/api";
import { expect } from "vitest";
import { adminGet, adminSend } from "../../support/admin.ts";
import { useGatewayShop } from "../../support/gateway-shop.ts";
import type { Shop } from "../../support/shop.ts";
import { proxyConsole } from "./console-proxies-kit.ts";

export const APP_HOST = "shop-gateway.test";
export const APP_URL = `http://${APP_HOST}:4321`;
/** The endpoint's ports when the environment sets none. */
export const DEFAULT_HTTP_PORT = 3128;
export const DEFAULT_SOCKS_PORT = 1080;

/** A shop whose gateway listens on loopback ports of its own and whose endpoint is APP_HOST. */
export const useExitsShop = () => useGatewayShop({ env: { SHOP_APP_URL: APP_URL }, ledger: false });

export function exitsConsole(shop: Shop) {
  const kit = proxyConsole(shop);
  const edit = (id: string, body: Record<string, unknown>) =>
    adminSend<AdminProxyDetail>(shop.admin, `/api/admin/proxies/${id}`, body, "PATCH");
  const generate = (body: Record<string, unknown>) =>
    adminSend<{ generated_count: number; ids: string[] }>(shop.admin, "/api/admin/proxies/generate", body);
  /** The stored row, hidden fields included (superusers see them). */
  const stored = (id: string) => shop.su.collection("proxies").getOne(id);

  async function putSettings(changes: Record<string, unknown>) {
    const current = await adminGet(shop.admin, "/api/admin/settings");
    return adminSend<Record<string, unknown>>(shop.admin, "/api/admin/settings", { ...current, ...changes }, "PUT");
  }

  /** Imports upstream lines of one (new) type and place; answers the proxies made, in line order. */
  async function importUpstreams(lines: string[], batch: Record<string, string>) {
    const res = await kit.importText({ text: lines.join("\n"), ...batch });
    expect(res.imported).toBe(lines.length);
    const made: AdminProxy[] = [];
    for (const line of lines) {
      const [host, port, username] = line.split(":");
      const found = (await kit.list({ search: host!, perPage: 100 })).items.filter(
        (p) => p.upstream_port === Number(port) && p.upstream_username === username,
      );
      expect(found).toHaveLength(1);
      made.push(found[0]!);
    }
    return made;
  }

  return { ...kit, edit, generate, stored, putSettings, importUpstreams };
}
