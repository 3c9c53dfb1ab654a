// Your account: balance and limits, and the addresses your proxies accept connections from.
import * as v from "valibot";
import { API_KEY_SCOPES, routeList, routesOf } from "./define";
import { Cents, Count, Id, Timestamp } from "./schemas";

const account = routesOf({ tag: "Account", scope: "read", idempotency: "optional" });

export const getAccount = account.get("/account", {
  summary: "Your balance, e-mail and limits",
  description: "Called with an API key, `api_key` describes that key and what it has spent this month.",
  response: v.pipe(
    v.object({
      id: Id,
      email: v.pipe(v.string(), v.email()),
      verified: v.boolean(),
      balance_cents: Cents,
      limits: v.object({
        max_purchase_quantity: v.pipe(Count, v.description("Proxies in one purchase.")),
        api_requests_per_minute: v.pipe(Count, v.description("Requests a minute for each API key.")),
        ip_allowlist_max_entries: Count,
      }),
      api_key: v.nullable(
        v.object({
          id: Id,
          name: v.string(),
          scopes: v.array(v.picklist(API_KEY_SCOPES)),
          spend_cap_cents: v.pipe(v.nullable(Cents), v.description("Monthly (UTC) cap on what the key may spend; null = none.")),
          spent_this_month_cents: Cents,
          expires_at: v.nullable(Timestamp),
        }),
      ),
    }),
    v.title("Account"),
    v.examples([
      {
        id: "u1c5g9k3o7s2w6a",
        email: "you@example.com",
        verified: true,
        balance_cents: 4500,
        limits: { max_purchase_quantity: 100, api_requests_per_minute: 120, ip_allowlist_max_entries: 100 },
        api_key: {
          id: "k9a3s7d1f5g8h2j",
          name: "Inventory sync",
          scopes: ["read", "purchase"],
          spend_cap_cents: 50000,
          spent_this_month_cents: 1500,
          expires_at: null,
        },
      },
    ]),
  ),
});

const Allowlist = v.pipe(
  v.object({ entries: v.array(v.pipe(v.string(), v.description("An IPv4/IPv6 address or CIDR range."))) }),
  v.title("IpAllowlist"),
  v.description("Where your proxies accept connections from; empty = anywhere."),
  v.examples([{ entries: ["203.0.113.7", "198.51.100.0/24"] }]),
);

export const getIpAllowlist = account.get("/account/ip-allowlist", {
  summary: "The addresses your proxies accept",
  response: Allowlist,
});

export const replaceIpAllowlist = account.put("/account/ip-allowlist", {
  summary: "Replace the addresses your proxies accept",
  description: "At most 100 addresses or CIDR ranges; an empty list lets connections in from anywhere. Takes effect within a second.",
  scope: "rotate",
  body: v.pipe(
    v.object({
      entries: v.optional(
        v.pipe(
          v.array(
            v.string("Each entry must be a text: an IP address (203.0.113.7, 2001:db8::1) or a CIDR range (203.0.113.0/24)."),
            "Entries must be a list of IP addresses or CIDR ranges ([] removes the restriction).",
          ),
          v.description("The addresses and ranges; [] lets connections in from anywhere."),
        ),
      ),
      text: v.optional(
        v.pipe(v.string(), v.description("Or the same as one text, entries separated by new lines, commas or spaces (entries wins).")),
      ),
    }),
    v.examples([{ entries: ["203.0.113.7", "198.51.100.0/24"] }]),
  ),
  response: Allowlist,
});

export const accountRoutes = routeList({ getAccount, getIpAllowlist, replaceIpAllowlist });
