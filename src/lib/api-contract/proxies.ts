// The proxies you own: list, read, usage, buy, renew, new credentials, auto-renewal.
import * as v from "valibot";
import { route } from "./define";
import { PROXY_TYPES } from "../catalog";
import { Cents, Count, OrderResult, PROXY_STATUSES, Proxy, ProxyType, Timestamp, page, pageQuery } from "./schemas";

/** A purchase takes the type in lower case too (as the hook always did). */
const PROXY_TYPES_LOWER = PROXY_TYPES.map((t) => t.toLowerCase() as Lowercase<(typeof PROXY_TYPES)[number]>);

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
    country: v.optional(
      v.pipe(
        v.string(),
        v.regex(/^[A-Za-z]{2}$/, "country must be a two-letter ISO 3166-1 code, e.g. DE."),
        v.description("ISO 3166-1 alpha-2."),
      ),
    ),
    status: v.optional(v.picklist(PROXY_STATUSES)),
    search: v.optional(
      v.pipe(
        v.string(),
        v.maxLength(100, "search must be at most 100 characters."),
        v.description("Part of the host, username, id, state or city."),
      ),
    ),
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
    failed_connections: v.pipe(Count, v.description("Connections this month whose site or exit could not be reached.")),
    last_failure: v.pipe(
      v.nullable(v.object({ at: Timestamp, reason: v.string() })),
      v.description("The latest failure: when, and why in words (the exit not answering, or a site out of reach); null = none this month."),
    ),
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
  body: v.pipe(
    v.object({
      type: v.pipe(
        v.union([ProxyType, v.picklist(PROXY_TYPES_LOWER)]),
        v.metadata({ errorCode: "validation_invalid_type", errorMessage: `Proxy type must be one of ${PROXY_TYPES.join(", ")}` }),
      ),
      country: v.pipe(
        v.string("Country is required"),
        v.minLength(1, "Country is required"),
        v.maxLength(100, "country must be at most 100 characters"),
      ),
      state: v.optional(v.pipe(v.string(), v.maxLength(100, "state must be at most 100 characters"))),
      city: v.optional(v.pipe(v.string(), v.maxLength(100, "city must be at most 100 characters"))),
      quantity: v.pipe(
        v.number("Quantity must be a whole number"),
        v.integer("Quantity must be a whole number"),
        v.minValue(1, "Quantity must be at least 1"),
      ),
    }),
    v.examples([{ type: "RESIDENTIAL", country: "US", quantity: 1 }]),
  ),
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
  body: v.pipe(v.object({ proxy_ids: v.pipe(v.array(v.string()), v.minLength(1)) }), v.examples([{ proxy_ids: ["a1b2c3d4e5f6g7h"] }])),
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
  body: v.pipe(v.object({ auto_renew: v.boolean("auto_renew must be true or false.") }), v.examples([{ auto_renew: true }])),
  response: Proxy,
  errors: [400, 403, 404, 422],
});

// ---- What Buy Proxies and My Proxies read: stock and prices of a type, countries, this month ----

const PriceOf = v.optional(v.pipe(Cents, v.minValue(1)));

export const getProxyPrices = route({
  id: "getProxyPrices",
  method: "GET",
  path: "/proxies/prices",
  tag: "Catalog",
  summary: "Unit price of each type for sale",
  description: "One proxy for one term, in US cents, keyed by type; a type that is not for sale is missing.",
  scope: "read",
  response: v.pipe(
    v.object({
      RESIDENTIAL: PriceOf,
      DATACENTER: PriceOf,
      SOCKS5: PriceOf,
      HTTP: PriceOf,
      HTTPS: PriceOf,
    }),
    v.title("PriceList"),
  ),
  errors: [],
});

export const getProxyStock = route({
  id: "getProxyStock",
  method: "GET",
  path: "/proxies/stock",
  tag: "Catalog",
  summary: "Stock and price of one type",
  description:
    "The places with proxies of the type available now (each with how many), its unit price, and whether it is for sale. A type for sale without stock has no places.",
  scope: "read",
  query: v.object({ type: ProxyType }),
  response: v.pipe(
    v.object({
      type: ProxyType,
      for_sale: v.boolean(),
      unit_price_cents: v.pipe(Cents, v.description("For one proxy and one term; 0 when not for sale.")),
      locations: v.array(
        v.object({
          country: v.pipe(v.string(), v.description("ISO 3166-1 alpha-2.")),
          country_name: v.string(),
          state: v.string(),
          city: v.string(),
          available: Count,
        }),
      ),
    }),
    v.title("ProxyStock"),
  ),
  errors: [400],
});

export const listProxyCountries = route({
  id: "listProxyCountries",
  method: "GET",
  path: "/proxies/countries",
  tag: TAG,
  summary: "The countries of your proxies",
  description:
    "The countries of the proxies listed to you (ISO 3166-1 alpha-2), sorted: the values GET /proxies's country filter can take.",
  scope: "read",
  response: v.pipe(v.array(v.string()), v.title("ProxyCountries")),
  errors: [],
});

export const getProxyUsageSummary = route({
  id: "getProxyUsageSummary",
  method: "GET",
  path: "/proxies/usage-summary",
  tag: TAG,
  summary: "This month's traffic of all your proxies",
  description: "This UTC month so far of each proxy assigned to you, keyed by proxy id, in one call.",
  scope: "read",
  response: v.pipe(v.record(v.string(), MonthUsage), v.title("ProxyUsageSummary")),
  errors: [],
});

export const proxyRoutes = [
  listProxies,
  getProxy,
  getProxyUsage,
  purchaseProxies,
  renewProxies,
  rotateProxy,
  updateProxy,
  getProxyPrices,
  getProxyStock,
  listProxyCountries,
  getProxyUsageSummary,
];
