// The shapes the developer API answers with, shared by its routes. Field names are the
// database's (snake_case), money is integer cents, times are UTC in RFC 3339.
import * as v from "valibot";
import { PROXY_TYPES, type ProxyType as ProxyTypeName } from "../catalog";

export const PROXY_STATUSES = ["ASSIGNED", "EXPIRED"] as const;

export const Id = v.pipe(v.string(), v.regex(/^[a-z0-9]{15}$/), v.description("A 15-character record id."));
export const Timestamp = v.pipe(v.string(), v.isoTimestamp(), v.description("UTC, RFC 3339."));
export const Cents = v.pipe(v.number(), v.integer(), v.description("US cents."));

/** A positive whole number of cents up to `max` (a cap, a threshold): `message` for any other value. */
export const positiveCents = (max: number, message: string) =>
  v.pipe(
    v.number(message),
    v.integer(message),
    v.minValue(1, message),
    v.maxValue(max, message),
    v.metadata({ errorCode: "validation_invalid_number" }),
  );
export const Count = v.pipe(v.number(), v.integer(), v.minValue(0));
export const ProxyType = v.picklist(PROXY_TYPES);

/** The gateway's ports when the shop's environment names none (GATEWAY_HTTP_PORT, GATEWAY_SOCKS_PORT, GATEWAY_HTTPS_PORT). */
export const GATEWAY_DEFAULT_PORTS = { http: 3128, socks5: 1080, https: 3129 } as const;

/**
 * The gateway ports a proxy of each type answers on: http (HTTP proxy and CONNECT),
 * socks5 (CONNECT and UDP ASSOCIATE), https (the HTTP proxy inside TLS). The gateway's
 * Grant.allowsPort says the same.
 */
export const PROXY_TYPE_PORTS = {
  RESIDENTIAL: ["http", "socks5", "https"],
  DATACENTER: ["http", "socks5", "https"],
  SOCKS5: ["socks5"],
  HTTP: ["http"],
  HTTPS: ["http", "https"],
} as const satisfies Record<ProxyTypeName, readonly (keyof typeof GATEWAY_DEFAULT_PORTS)[]>;

export const Ports = v.pipe(
  v.object({
    http: v.optional(v.pipe(v.number(), v.integer())),
    socks5: v.optional(v.pipe(v.number(), v.integer())),
    https: v.optional(v.pipe(v.number(), v.integer())),
  }),
  v.description(
    "The gateway ports this proxy answers on: http (HTTP proxy and CONNECT), socks5 (CONNECT and UDP ASSOCIATE), https (the HTTP proxy inside TLS).",
  ),
);

/** A proxy's fields (Proxy below is this, titled). */
export const ProxyFields = v.object({
  id: Id,
  type: ProxyType,
  country: v.pipe(v.string(), v.description("ISO 3166-1 alpha-2.")),
  state: v.string(),
  city: v.string(),
  host: v.pipe(v.string(), v.description("The gateway host to connect to.")),
  port: v.pipe(v.number(), v.integer()),
  ports: Ports,
  username: v.string(),
  password: v.string(),
  status: v.picklist(PROXY_STATUSES),
  expires_at: v.nullable(Timestamp),
  auto_renew: v.boolean(),
  created: Timestamp,
});

export const Proxy = v.pipe(ProxyFields, v.title("Proxy"), v.description("A proxy you own, with the credentials to use it."));

export const OrderItem = v.object({ id: Id, unit_price_cents: Cents });

export const Order = v.pipe(
  v.object({
    id: Id,
    kind: v.picklist(["purchase", "renewal"]),
    proxy_type: v.pipe(v.string(), v.description('The type bought; "" for a renewal of several types.')),
    country: v.string(),
    state: v.string(),
    city: v.string(),
    quantity: Count,
    total_cents: Cents,
    items: v.array(OrderItem),
    transaction_id: v.pipe(v.string(), v.description("The ledger row that charged it (GET /transactions).")),
    status: v.picklist(["completed", "refunded"]),
    refunded_at: v.nullable(Timestamp),
    created: Timestamp,
  }),
  v.title("Order"),
);

export const OrderResult = v.pipe(
  v.object({
    order: Order,
    proxies: v.array(Proxy),
    balance_cents: v.pipe(Cents, v.description("Your balance right after the order.")),
  }),
  v.title("OrderResult"),
);

/** A page of a list: `next_cursor` fetches the next page; null on the last. */
export function page<T extends v.GenericSchema>(item: T, title: string) {
  return v.pipe(
    v.object({
      items: v.array(item),
      next_cursor: v.pipe(v.nullable(v.string()), v.description("Pass as `cursor` for the next page; null on the last page.")),
    }),
    v.title(title),
  );
}

/** The paging parameters of every list. */
export const pageQuery = {
  cursor: v.optional(
    v.pipe(
      v.string(),
      v.maxLength(200, "cursor is not one this API gave: pass next_cursor from the previous page as it is."),
      v.description("From the previous page's next_cursor."),
    ),
  ),
  limit: v.optional(
    v.pipe(v.string(), v.regex(/^\d+$/, "limit must be a whole number from 1 to 100."), v.description("Items a page, 1-100 (default 50).")),
  ),
};

export const Problem = v.pipe(
  v.object({
    type: v.pipe(v.string(), v.description("A URI reference naming the kind of problem; about:blank when the status says it all.")),
    title: v.string(),
    status: v.pipe(v.number(), v.integer()),
    detail: v.pipe(v.string(), v.description("What went wrong and what to do, as the dashboard shows it.")),
    message: v.pipe(v.string(), v.description("The same as detail (what the PocketBase SDK reads).")),
    code: v.optional(v.pipe(v.string(), v.description("A stable machine-readable reason, e.g. insufficient_scope."))),
    errors: v.optional(
      v.pipe(
        v.record(v.string(), v.object({ code: v.string(), message: v.string() })),
        v.description("Per field of the request: what is wrong with it."),
      ),
    ),
  }),
  v.title("Problem"),
  v.description("RFC 9457 problem details: every failure of /api/v1 answers this (Content-Type application/problem+json)."),
);
