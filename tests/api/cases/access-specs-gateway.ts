// The access matrix's rows for the gateway (issue #16): each customer reads the
// usage of their own proxies, admins every row, the gateways' stats and tokens; only the server,
// the gateway and the console's token routes write (the records API refuses every write, admins included).
import { ADMIN_ROWS, OWN_ROWS, SERVER_WRITES, type CollectionSpec } from "./access-spec-kit.ts";

const HOUR = "2026-01-01 10:00:00.000Z";

export const proxyUsageSpec: CollectionSpec = {
  name: "proxy_usage",
  make: async (ctx, owner) =>
    (
      await ctx.su
        .collection("proxy_usage")
        .create({ proxy_id: `pu${ctx.n()}`, user_id: ctx.users[owner].id, hour: HOUR, bytes_up: 1, bytes_down: 2, connections: 1 })
    ).id,
  createBody: async (ctx, who, marker) => ({
    proxy_id: marker.slice(0, 15),
    user_id: ctx.users[who === "anon" ? "A" : who].id,
    hour: HOUR,
    bytes_up: 5,
  }),
  markerFilter: (m) => `proxy_id = "${m.slice(0, 15)}"`,
  updateBody: () => ({ bytes_up: 999_999 }),
  ...OWN_ROWS,
  ...SERVER_WRITES,
};

export const gatewayStatsSpec: CollectionSpec = {
  name: "gateway_stats",
  make: async (ctx) => (await ctx.su.collection("gateway_stats").create({ gateway: `gw${ctx.n()}`, hour: HOUR, connections_ok: 1 })).id,
  createBody: async (_ctx, _who, marker) => ({ gateway: marker, hour: HOUR, connections_ok: 5 }),
  markerFilter: (m) => `gateway = "${m}"`,
  updateBody: () => ({ connections_ok: 999_999 }),
  ...ADMIN_ROWS,
  ...SERVER_WRITES,
};

// Tokens are made by the console's admin route (POST /api/admin/gateway-tokens, shop admins
// only; GET lists and DELETE revokes them, tests/api/gateway-tokens.test.ts), or by the CLI:
// the records API stays closed to writes, and the rows to everybody but admins.
export const gatewayTokensSpec: CollectionSpec = {
  name: "gateway_tokens",
  make: async (ctx) => {
    const admin = await ctx.signIn(ctx.users.admin);
    return (await admin.send<{ id: string }>("/api/admin/gateway-tokens", { method: "POST", body: { name: `gw${ctx.n()}` } })).id;
  },
  createBody: async (_ctx, _who, marker) => ({ name: marker, token_hash: "f".repeat(64) }),
  markerFilter: (m) => `name = "${m}"`,
  updateBody: () => ({ name: "renamed" }),
  ...ADMIN_ROWS,
  ...SERVER_WRITES,
};
