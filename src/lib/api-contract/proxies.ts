// The proxies you own: list, read, usage, buy, renew, new credentials, auto-renewal.
import * as v from "valibot";
import { route } from "./define";
import { Count, OrderResult, PROXY_STATUSES, Proxy, ProxyType, Timestamp, page, pageQuery } from "./schemas";

const TAG = "Proxies";

export const listProxies = route({
  id: "listProxies",
  method: "GET",
  path: "/proxies",
  tag: TAG,
  summary: "List your proxies",
  description: "Newest first, as My Proxies shows them. Filters combine.",
  scope: "read",
  query: v.object({
    type: v.optional(ProxyType),
    country: v.optional(v.pipe(v.string(), v.regex(/^[A-Za-z]{2}$/), v.description("ISO 3166-1 alpha-2."))),
    status: v.optional(v.picklist(PROXY_STATUSES)),
    search: v.optional(v.pipe(v.string(), v.maxLength(100), v.description("Part of the host, username, id, state or city."))),
    ...pageQuery,
  }),
  response: page(Proxy, "ProxyPage"),
  errors: [400],
});

export const getProxy = route({
  id: "getProxy",
  method: "GET",
  path: "/proxies/{id}",
  tag: TAG,
  summary: "Read one of your proxies",
  scope: "read",
  params: { id: "The proxy's id." },
  response: Proxy,
  errors: [404],
});

const UsageFigures = {
  bytes_up: Count,
  bytes_down: Count,
  bytes: Count,
  connections: Count,
  failed_connections: Count,
};

export const MonthUsage = v.pipe(
  v.object({
    bytes: v.pipe(Count, v.description("Up and down together this UTC month: what the quota counts.")),
    quota_bytes: v.pipe(Count, v.description("0 = no quota.")),
    max_connections: v.pipe(Count, v.description("0 = no cap.")),
    quota_reached: v.boolean(),
    renews_on: v.pipe(v.string(), v.isoDate(), v.description("The date the quota starts again (UTC).")),
  }),
  v.title("MonthUsage"),
);

export const getProxyUsage = route({
  id: "getProxyUsage",
  method: "GET",
  path: "/proxies/{id}/usage",
  tag: TAG,
  summary: "Traffic of one of your proxies",
  description: "Hourly rows of the range (default: the last 24 hours, at most 31 days), their totals, and this month against the quota.",
  scope: "read",
  params: { id: "The proxy's id." },
  query: v.object({
    from: v.optional(v.pipe(v.string(), v.description("ISO 8601; a date alone is its UTC midnight."))),
    to: v.optional(v.pipe(v.string(), v.description("ISO 8601; default now."))),
  }),
  response: v.pipe(
    v.object({
      proxy_id: v.string(),
      from: Timestamp,
      to: Timestamp,
      hours: v.array(v.object({ hour: Timestamp, ...UsageFigures })),
      totals: v.object(UsageFigures),
      month: MonthUsage,
    }),
    v.title("ProxyUsage"),
  ),
  errors: [400, 404],
});

export const purchaseProxies = route({
  id: "purchaseProxies",
  method: "POST",
  path: "/proxies/purchase",
  tag: TAG,
  summary: "Buy proxies",
  description:
    "Takes the price from your balance and assigns proxies from stock for 30 days, all or nothing. A key with a monthly spend cap is refused a purchase that would pass it.",
  scope: "purchase",
  idempotency: "required",
  body: v.object({
    type: ProxyType,
    country: v.pipe(v.string(), v.minLength(1), v.maxLength(100)),
    state: v.optional(v.pipe(v.string(), v.maxLength(100))),
    city: v.optional(v.pipe(v.string(), v.maxLength(100))),
    quantity: v.pipe(v.number(), v.integer(), v.minValue(1)),
  }),
  response: OrderResult,
  errors: [400, 403, 409, 422],
});

export const renewProxies = route({
  id: "renewProxies",
  method: "POST",
  path: "/proxies/renew",
  tag: TAG,
  summary: "Renew proxies for another term",
  scope: "purchase",
  idempotency: "required",
  body: v.object({ proxy_ids: v.pipe(v.array(v.string()), v.minLength(1)) }),
  response: OrderResult,
  errors: [400, 403, 404, 409, 422],
});

export const rotateProxy = route({
  id: "rotateProxy",
  method: "POST",
  path: "/proxies/{id}/rotate",
  tag: TAG,
  summary: "New credentials for a proxy",
  description: "A new random password; the old one stops working within a second and open connections are cut.",
  scope: "rotate",
  idempotency: "optional",
  params: { id: "The proxy's id." },
  response: Proxy,
  errors: [400, 403, 404, 422],
});

export const updateProxy = route({
  id: "updateProxy",
  method: "PATCH",
  path: "/proxies/{id}",
  tag: TAG,
  summary: "Turn automatic renewal on or off",
  scope: "purchase",
  idempotency: "optional",
  params: { id: "The proxy's id." },
  body: v.object({ auto_renew: v.boolean() }),
  response: Proxy,
  errors: [400, 403, 404, 422],
});

export const proxyRoutes = [listProxies, getProxy, getProxyUsage, purchaseProxies, renewProxies, rotateProxy, updateProxy];
