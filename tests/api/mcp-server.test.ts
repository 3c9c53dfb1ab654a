// The MCP server (issue #18, "For machines, too"): mcp/bin.mjs spawned over stdio with a
// customer's API key (scopes read, purchase, rotate; a monthly spend cap) against a test
// PocketBase, driven by the SDK's own Client as an agent would: its six tools, a purchase
// whose proxies are the customer's in the database and paid from the balance, rotation that
// changes the password, usage from the gateway's rows, and refusals (the spend cap, a proxy
// that is not the customer's) as tool errors with the shop's message that change nothing.
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listProxies } from "../../src/lib/api-contract/proxies.ts";
import { createMcpServer, usd } from "../../mcp/tools.ts";
import { readConfig, type ShopApi } from "../../mcp/shop-api.ts";
import { apiClient } from "../support/api-contract.ts";
import { addStock, customer, ledgerOf, type Customer } from "../support/shop.ts";
import { useShop } from "../support/use-shop.ts";
import { insertUsageRows } from "../support/usage-rows.ts";

const BIN = fileURLToPath(new URL("../../mcp/bin.mjs", import.meta.url));
const shop = useShop();

/** The text of a tool's answer. */
const textOf = (result: unknown): string => (result as CallToolResult).content.map((c) => (c.type === "text" ? c.text : "")).join("\n");

/** The host:port:username:password lines of an answer. */
const credentialLines = (text: string): string[] => [...text.matchAll(/^- (\S+:\d+:\S+:\S+) \(id ([a-z0-9]{15}),/gm)].map((m) => m[1]!);
const idsIn = (text: string): string[] => [...text.matchAll(/\(id ([a-z0-9]{15}),/g)].map((m) => m[1]!);

/** Spawns the MCP server the way a client configured with the bin does. */
async function connect(env: Record<string, string>): Promise<{ client: Client; stderr: () => string }> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [BIN], env, stderr: "pipe", cwd: "/" });
  let stderr = "";
  transport.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const client = new Client({ name: "mcp-server-test", version: "1.0.0" });
  await client.connect(transport);
  return { client, stderr: () => stderr };
}

describe("the MCP server over stdio with an API key", () => {
  let user: Customer;
  let unit: number;
  let client: Client;
  const START = 100_000;

  beforeAll(async () => {
    user = await customer(shop, START);
    await addStock(shop, { country: "NO", state: "Oslo", city: "Oslo", count: 4 });
    const session = apiClient(shop.tpb.url, user.pb.authStore.token);
    const prices = await session<{ items: { type: string; unit_price_cents: number }[] }>("GET", "/api/v1/pricing");
    unit = prices.body.items.find((i) => i.type === "RESIDENTIAL")!.unit_price_cents;
    const created = await session<{ key: string }>("POST", "/api/v1/api-keys", {
      body: { name: "agent", scopes: ["read", "purchase", "rotate"], spend_cap_cents: unit * 3 },
    });
    expect(created.status).toBe(201);
    ({ client } = await connect({ PATH: process.env["PATH"] ?? "", PROXY_SHOP_API_KEY: created.body.key, PROXY_SHOP_URL: shop.tpb.url }));
  });
  afterAll(async () => {
    await client?.close();
  });

  const call = (name: string, args: Record<string, unknown> = {}) => client.callTool({ name, arguments: args }) as Promise<CallToolResult>;
  const owned = () => shop.su.collection("proxies").getFullList({ filter: `assigned_to_user_id = "${user.id}"` });

  it("lists its six tools, each described with an input schema", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([
      "buy_proxies",
      "get_balance",
      "list_locations",
      "list_proxies",
      "proxy_usage",
      "rotate_proxy",
    ]);
    const buy = tools.find((t) => t.name === "buy_proxies")!;
    expect(buy.description).toContain("host:port:username:password");
    expect(buy.inputSchema.required?.sort()).toEqual(["country", "quantity", "type"]);
    expect((buy.inputSchema.properties?.["type"] as { enum: string[] }).enum).toContain("RESIDENTIAL");
    expect(tools.find((t) => t.name === "get_balance")!.annotations?.readOnlyHint).toBe(true);
  });

  it("answers the balance, the key's scopes and spend cap, and what is in stock", async () => {
    const balance = textOf(await call("get_balance"));
    expect(balance).toContain(`Balance: ${usd(START)} (${START} cents)`);
    expect(balance).toContain(user.email);
    expect(balance).toContain('API key "agent"');
    expect(balance).toContain("scopes read, purchase, rotate");
    expect(balance).toContain(`Spend cap: ${usd(unit * 3)} a month (UTC); spent this month $0.00, ${usd(unit * 3)} left`);

    const locations = textOf(await call("list_locations", { type: "RESIDENTIAL" }));
    expect(locations).toContain(`- RESIDENTIAL country=NO (Norway) state=Oslo city=Oslo: 4 available at ${usd(unit)} each`);
    expect(textOf(await call("list_locations", { type: "SOCKS5" }))).toBe("No SOCKS5 proxies are in stock.");
  });

  it("buys proxies that are the customer's, paid from the balance, then lists, rotates and reads their usage", async () => {
    const bought = await call("buy_proxies", { type: "RESIDENTIAL", country: "NO", state: "Oslo", quantity: 2 });
    const text = textOf(bought);
    expect(bought.isError, text).toBeFalsy();
    expect(text).toContain(`Bought 2 RESIDENTIAL proxies in NO / Oslo for ${usd(unit * 2)}`);
    expect(text).toContain(`Balance now ${usd(START - unit * 2)}.`);
    const lines = credentialLines(text);
    expect(lines).toHaveLength(2);
    const rows = await owned();
    expect(rows.map((r) => r.id).sort()).toEqual(idsIn(text).sort());
    expect(rows.every((r) => r["status"] === "ASSIGNED")).toBe(true);
    for (const row of rows) expect(lines.some((l) => l.includes(`:${row["username"]}:`))).toBe(true);
    expect((await ledgerOf(shop, user.id)).balance).toBe(START - unit * 2);

    const listed = textOf(await call("list_proxies", { country: "NO", status: "ASSIGNED" }));
    expect(listed).toContain("2 proxies:");
    expect(idsIn(listed).sort()).toEqual(rows.map((r) => r.id).sort());
    expect(credentialLines(listed).sort()).toEqual([...lines].sort());
    const one = textOf(await call("list_proxies", { limit: 1 }));
    expect(idsIn(one)).toHaveLength(1);
    expect(one).toContain("More proxies match");
    expect(textOf(await call("list_proxies", { type: "DATACENTER" }))).toBe("No proxies match.");

    const id = rows[0]!.id;
    const session = apiClient(shop.tpb.url, user.pb.authStore.token);
    const before = await session<{ password: string }>("GET", `/api/v1/proxies/${id}`);
    const rotated = textOf(await call("rotate_proxy", { id }));
    const after = await session<{ host: string; port: number; username: string; password: string }>("GET", `/api/v1/proxies/${id}`);
    expect(after.body.password).not.toBe(before.body.password);
    expect(rotated).toContain(
      `New credentials for proxy ${id}: ${after.body.host}:${after.body.port}:${after.body.username}:${after.body.password}`,
    );

    const hour = Date.now() - 2 * 3_600_000;
    insertUsageRows(shop.tpb, [
      { proxy_id: id, user_id: user.id, hour, bytes_up: 1500, bytes_down: 2_500_000, connections: 7, failed_connections: 1 },
    ]);
    const usage = textOf(await call("proxy_usage", { id }));
    expect(usage).toContain(`Proxy ${id},`);
    expect(usage).toContain(
      "Total: 2.50 MB (2501500 bytes) (up 1.50 KB (1500 bytes), down 2.50 MB (2500000 bytes)), 7 connections, 1 failed",
    );
    expect(usage).toMatch(/- \S+: 2\.50 MB \(2501500 bytes\), 7 connections, 1 failed/);
    expect(textOf(await call("proxy_usage", { id, from: new Date(Date.now() - 3_600_000).toISOString() }))).toContain(
      "No traffic in this range.",
    );
  });

  it("answers a refusal as a tool error with the shop's message, and nothing changes", async () => {
    const before = await owned();
    const { balance } = await ledgerOf(shop, user.id);
    // 2 proxies are bought of a 3-proxy cap: 2 more would pass it.
    const refused = await call("buy_proxies", { type: "RESIDENTIAL", country: "NO", quantity: 2 });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toContain(
      `This would pass the API key's monthly spend cap: it costs ${usd(unit * 2)}, and the key "agent" has ${usd(unit)} of its ${usd(unit * 3)} left this month. Nothing was charged.`,
    );
    expect((await owned()).map((r) => r.id).sort()).toEqual(before.map((r) => r.id).sort());
    expect((await ledgerOf(shop, user.id)).balance).toBe(balance);

    const stranger = (await addStock(shop, { country: "NO", count: 1 }))[0]!;
    const notMine = await call("rotate_proxy", { id: stranger });
    expect(notMine.isError).toBe(true);
    expect(textOf(notMine)).toBe("No proxy with this id is assigned to you.");
    // The server is still there after refusals.
    expect(textOf(await call("get_balance"))).toContain(`Balance: ${usd(balance)}`);
  });
});

describe("the MCP server's start and paging", () => {
  it("refuses to start without an API key, or with something that is not one", async () => {
    const run = await new Promise<{ status: number | null; stderr: string }>((resolve, reject) => {
      const child = spawn(process.execPath, [BIN], { env: { PATH: process.env["PATH"] ?? "" } });
      let stderr = "";
      child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
      child.on("error", reject);
      child.on("close", (status) => resolve({ status, stderr }));
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain("proxy-shop MCP server: PROXY_SHOP_API_KEY is not set");
    expect(() => readConfig({ PROXY_SHOP_API_KEY: "sk_test_123" })).toThrow(
      "PROXY_SHOP_API_KEY is not an API key of the shop: keys start with psk_live_",
    );
    expect(() => readConfig({ PROXY_SHOP_API_KEY: "psk_live_abc", PROXY_SHOP_URL: "ftp://shop" })).toThrow(
      "must be an http:// or https:// URL",
    );
    expect(readConfig({ PROXY_SHOP_API_KEY: "psk_live_abc" })).toEqual({ apiKey: "psk_live_abc", shopUrl: "http://127.0.0.1:4321" });
    expect(readConfig({ PROXY_SHOP_API_KEY: "psk_live_abc", PROXY_SHOP_URL: "https://shop.example/" }).shopUrl).toBe(
      "https://shop.example",
    );
  });

  it("list_proxies follows next_cursor up to its limit", async () => {
    const queries: Record<string, unknown>[] = [];
    const api: ShopApi = {
      call: (route, input) => {
        expect(route).toBe(listProxies);
        const query = (input?.query ?? {}) as { cursor?: string };
        queries.push({ ...query });
        const n = Number(query.cursor ?? 0);
        const proxy = {
          id: `proxy${String(n).padStart(10, "0")}`,
          type: "HTTP",
          country: "US",
          state: "",
          city: "",
          host: "gw.test",
          port: 3128,
          ports: {},
          username: `u${n}`,
          password: `p${n}`,
          status: "ASSIGNED",
          expires_at: null,
          auto_renew: false,
          created: "2026-01-01T00:00:00Z",
        };
        return Promise.resolve({ items: [proxy], next_cursor: String(n + 1) } as never);
      },
    };
    const server = createMcpServer(api);
    const [a, b] = InMemoryTransport.createLinkedPair();
    const client = new Client({ name: "paging-test", version: "1.0.0" });
    await Promise.all([server.connect(a), client.connect(b)]);
    const text = textOf(await client.callTool({ name: "list_proxies", arguments: { type: "HTTP", limit: 3 } }));
    expect(credentialLines(text)).toEqual(["gw.test:3128:u0:p0", "gw.test:3128:u1:p1", "gw.test:3128:u2:p2"]);
    expect(text).toContain("More proxies match");
    expect(queries).toEqual([
      { type: "HTTP", limit: "3", cursor: undefined, country: undefined, status: undefined, search: undefined },
      { type: "HTTP", limit: "2", cursor: "1", country: undefined, status: undefined, search: undefined },
      { type: "HTTP", limit: "1", cursor: "2", country: undefined, status: undefined, search: undefined },
    ]);
    await client.close();
  });
});
