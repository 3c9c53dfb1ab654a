// The MCP tools over the developer API: balance, locations, buy, list, rotate and usage. Each
// calls one contract route with the API key, so an agent can do only what the key's scopes
// and spend cap allow; a refusal comes back as a tool error whose text is the shop's own
// message (the problem's detail), never as a crash of the server.
import { readFileSync } from "node:fs";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { getAccount } from "../src/lib/api-contract/account.ts";
import { listLocations } from "../src/lib/api-contract/catalog.ts";
import type { ResponseOf } from "../src/lib/api-contract/define.ts";
import { getProxyUsage, listProxies, purchaseProxies, rotateProxy } from "../src/lib/api-contract/proxies.ts";
import { PROXY_STATUSES } from "../src/lib/api-contract/schemas.ts";
import { PROXY_TYPES } from "../src/lib/catalog.ts";
import { ApiProblem, type ShopApi } from "./shop-api.ts";

type Proxy = ResponseOf<typeof rotateProxy>;

/** The most proxies list_proxies gathers in one call (it follows the cursor up to this). */
export const LIST_MAX = 1000;
const PAGE_SIZE = 100;
/** The most hourly rows proxy_usage lists (the newest); the totals cover the whole range. */
const HOURS_SHOWN = 48;

const VERSION = (JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version: string }).version;

/** "$12.34" from cents (a debt shows as "-$1.00"). */
export function usd(cents: number): string {
  const abs = Math.abs(cents);
  return `${cents < 0 ? "-" : ""}$${Math.floor(abs / 100).toLocaleString("en-US")}.${String(abs % 100).padStart(2, "0")}`;
}

/** host:port:username:password, an IPv6 host in brackets. */
export function credentialLine(proxy: Pick<Proxy, "host" | "port" | "username" | "password">): string {
  const host = proxy.host.includes(":") ? `[${proxy.host}]` : proxy.host;
  return `${host}:${proxy.port}:${proxy.username}:${proxy.password}`;
}

function bytes(n: number): string {
  const units = ["B", "KB", "MB", "GB", "TB"];
  let value = n;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit++;
  }
  return unit === 0 ? `${n} B` : `${value.toFixed(value < 10 ? 2 : 1)} ${units[unit]} (${n} bytes)`;
}

const place = (p: { country: string; state: string; city: string }) => [p.country, p.state, p.city].filter(Boolean).join(" / ");

function proxyLine(proxy: Proxy): string {
  const expires = proxy.expires_at ? `expires ${proxy.expires_at}` : "no expiry";
  return `- ${credentialLine(proxy)} (id ${proxy.id}, ${proxy.type}, ${place(proxy)}, ${proxy.status}, ${expires}, auto-renew ${proxy.auto_renew ? "on" : "off"})`;
}

const text = (value: string): CallToolResult => ({ content: [{ type: "text", text: value }] });

/** Runs a tool's work; the API's refusal (or an unreachable shop) becomes a tool error with its message. */
async function guarded(work: () => Promise<string>): Promise<CallToolResult> {
  try {
    return text(await work());
  } catch (error) {
    const message =
      error instanceof ApiProblem ? error.detail : `The tool failed: ${error instanceof Error ? error.message : String(error)}`;
    return { ...text(message), isError: true };
  }
}

const ProxyTypeInput = z.enum(PROXY_TYPES);
const ProxyId = z.string().regex(/^[a-z0-9]{15}$/, "A proxy id is 15 lowercase letters and digits (see list_proxies).");

/** An MCP server (not yet connected) whose tools call the shop through `api`. */
export function createMcpServer(api: ShopApi): McpServer {
  const server = new McpServer(
    { name: "proxy-shop", version: VERSION },
    {
      instructions:
        "Manage the proxies of one proxy shop customer through their API key: check the balance and the key's spend cap (get_balance), see what is in stock (list_locations), buy (buy_proxies), list (list_proxies), rotate credentials (rotate_proxy) and read traffic (proxy_usage). Purchases spend real credit: check the price and the balance first.",
    },
  );

  server.registerTool(
    "get_balance",
    {
      title: "Balance and API key",
      description:
        "The customer's credit balance (dollars and cents), e-mail, purchase limits, and this API key's scopes, monthly spend cap and what it has spent this month.",
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    () =>
      guarded(async () => {
        const account = await api.call(getAccount);
        const lines = [
          `Balance: ${usd(account.balance_cents)} (${account.balance_cents} cents)`,
          `Account: ${account.email}${account.verified ? "" : " (e-mail not verified: purchases are refused until it is)"}`,
          `Limits: up to ${account.limits.max_purchase_quantity} proxies per purchase; ${account.limits.api_requests_per_minute} API requests a minute per key`,
        ];
        const key = account.api_key;
        if (key) {
          lines.push(`API key "${key.name}" (${key.id}): scopes ${key.scopes.join(", ")}`);
          lines.push(
            key.spend_cap_cents === null
              ? `Spend cap: none; spent this month ${usd(key.spent_this_month_cents)}`
              : `Spend cap: ${usd(key.spend_cap_cents)} a month (UTC); spent this month ${usd(key.spent_this_month_cents)}, ${usd(Math.max(0, key.spend_cap_cents - key.spent_this_month_cents))} left`,
          );
          lines.push(`Expires: ${key.expires_at ?? "never"}`);
        }
        return lines.join("\n");
      }),
  );

  server.registerTool(
    "list_locations",
    {
      title: "Locations in stock",
      description:
        "What can be bought now: one row per proxy type and place (country code, state, city) with the number available and the price of one proxy for one 30-day term. Use these values in buy_proxies.",
      inputSchema: { type: ProxyTypeInput.optional().describe("Only this proxy type.") },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    ({ type }) =>
      guarded(async () => {
        const { items } = await api.call(listLocations, { query: { type } });
        if (!items.length) return type ? `No ${type} proxies are in stock.` : "Nothing is in stock.";
        return [
          `${items.length} location(s) in stock:`,
          ...items.map(
            (l) =>
              `- ${l.type} country=${l.country} (${l.country_name})${l.state ? ` state=${l.state}` : ""}${l.city ? ` city=${l.city}` : ""}: ${l.available} available at ${usd(l.unit_price_cents)} each`,
          ),
        ].join("\n");
      }),
  );

  server.registerTool(
    "buy_proxies",
    {
      title: "Buy proxies",
      description:
        "Buys proxies from stock for 30 days, paid from the balance, all or nothing. Spends money: needs the key's purchase scope and stays within its monthly spend cap. Answers the proxies as host:port:username:password lines with their ids.",
      inputSchema: {
        type: ProxyTypeInput.describe("The proxy type, as list_locations names it."),
        country: z.string().min(1).max(100).describe("The country code from list_locations, e.g. US."),
        state: z.string().max(100).optional().describe("The state from list_locations (omit for any)."),
        city: z.string().max(100).optional().describe("The city from list_locations (omit for any)."),
        quantity: z.number().int().min(1).describe("How many proxies to buy."),
      },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    ({ type, country, state, city, quantity }) =>
      guarded(async () => {
        const result = await api.call(purchaseProxies, {
          body: { type, country, quantity, ...(state ? { state } : {}), ...(city ? { city } : {}) },
        });
        const { order, proxies } = result;
        return [
          `Bought ${proxies.length} ${order.proxy_type} ${proxies.length === 1 ? "proxy" : "proxies"} in ${place(order)} for ${usd(order.total_cents)} (order ${order.id}). Balance now ${usd(result.balance_cents)}.`,
          "Proxies (host:port:username:password):",
          ...proxies.map(proxyLine),
        ].join("\n");
      }),
  );

  server.registerTool(
    "list_proxies",
    {
      title: "List proxies",
      description: `The customer's proxies, newest first, with their credentials (host:port:username:password), ids, status and expiry. Filters combine; gathers up to \`limit\` proxies (default ${PAGE_SIZE}, at most ${LIST_MAX}).`,
      inputSchema: {
        type: ProxyTypeInput.optional().describe("Only this proxy type."),
        country: z
          .string()
          .regex(/^[A-Za-z]{2}$/, "A two-letter country code, e.g. US.")
          .optional()
          .describe("Only this country (ISO 3166-1 alpha-2)."),
        status: z.enum(PROXY_STATUSES).optional().describe("ASSIGNED (active) or EXPIRED."),
        search: z.string().max(100).optional().describe("Part of the host, username, id, state or city."),
        limit: z.number().int().min(1).max(LIST_MAX).optional().describe(`The most proxies to return (default ${PAGE_SIZE}).`),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    ({ type, country, status, search, limit = PAGE_SIZE }) =>
      guarded(async () => {
        const proxies: Proxy[] = [];
        let cursor: string | undefined;
        let more = false;
        do {
          const page = await api.call(listProxies, {
            query: { type, country, status, search, cursor, limit: String(Math.min(PAGE_SIZE, limit - proxies.length)) },
          });
          proxies.push(...page.items);
          cursor = page.next_cursor ?? undefined;
          more = cursor !== undefined;
        } while (more && proxies.length < limit);
        if (!proxies.length) return "No proxies match.";
        const lines = [`${proxies.length} ${proxies.length === 1 ? "proxy" : "proxies"}:`, ...proxies.map(proxyLine)];
        if (more) lines.push(`More proxies match: raise limit (at most ${LIST_MAX}) or narrow the filters.`);
        return lines.join("\n");
      }),
  );

  server.registerTool(
    "rotate_proxy",
    {
      title: "New proxy credentials",
      description:
        "Gives a proxy a new random password (needs the key's rotate scope); the old one stops working within a second and open connections are cut. Answers the new host:port:username:password.",
      inputSchema: { id: ProxyId.describe("The proxy's id (from list_proxies or buy_proxies).") },
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
    },
    ({ id }) =>
      guarded(async () => {
        const proxy = await api.call(rotateProxy, { params: { id } });
        return `New credentials for proxy ${proxy.id}: ${credentialLine(proxy)}\nThe old password stops working within a second.`;
      }),
  );

  server.registerTool(
    "proxy_usage",
    {
      title: "Proxy traffic",
      description:
        "A proxy's traffic: totals and the hours with traffic in a range (default the last 24 hours, at most 31 days), and this month's bytes against its quota.",
      inputSchema: {
        id: ProxyId.describe("The proxy's id (from list_proxies)."),
        from: z.string().max(40).optional().describe("Start, ISO 8601 (a date alone is its UTC midnight)."),
        to: z.string().max(40).optional().describe("End, ISO 8601 (default now)."),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    ({ id, from, to }) =>
      guarded(async () => {
        const usage = await api.call(getProxyUsage, { params: { id }, query: { from, to } });
        const { totals, month } = usage;
        const busy = usage.hours.filter((h) => h.bytes > 0 || h.connections > 0 || h.failed_connections > 0);
        const quota = month.quota_bytes
          ? ` of a ${bytes(month.quota_bytes)} quota${month.quota_reached ? " (reached: new connections are refused)" : ""}`
          : " (no quota)";
        return [
          `Proxy ${usage.proxy_id}, ${usage.from} to ${usage.to}:`,
          `Total: ${bytes(totals.bytes)} (up ${bytes(totals.bytes_up)}, down ${bytes(totals.bytes_down)}), ${totals.connections} connections, ${totals.failed_connections} failed`,
          `This month: ${bytes(month.bytes)}${quota}; renews on ${month.renews_on}; ${month.max_connections ? `at most ${month.max_connections} connections at once` : "no connection cap"}`,
          ...(busy.length
            ? [
                busy.length > HOURS_SHOWN ? `The last ${HOURS_SHOWN} of ${busy.length} hours with traffic:` : "Hours with traffic:",
                ...busy
                  .slice(-HOURS_SHOWN)
                  .map((h) => `- ${h.hour}: ${bytes(h.bytes)}, ${h.connections} connections, ${h.failed_connections} failed`),
              ]
            : ["No traffic in this range."]),
        ].join("\n");
      }),
  );

  return server;
}
