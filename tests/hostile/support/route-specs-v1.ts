// Hostile fuzz specs (see route-specs.ts) of /api/v1: credits, proxies, the developer API's
// reads and keys, customer webhooks, support tickets, and the superuser jobs.
import fc from "fast-check";
import { PROXY_TYPES } from "@/lib/catalog";
import {
  badChoice,
  badNonEmptyChoice,
  badText,
  badWholeNumber,
  hostileString,
  hostileValue,
  junkId,
  notBooleanOrNull,
} from "./arbitraries.ts";
import { fuzz } from "./fuzz-kit.ts";
import { hostileQueryValue, PACKAGE_IDS, someText, type RouteSpec } from "./route-spec-kit.ts";

/** Webhook endpoint field values refused on create and change alike (null clears only description and balance_low_cents). */
function webhookPoisons(): Record<string, fc.Arbitrary<unknown>> {
  return {
    url: fc.oneof(
      fc.constantFrom<unknown>("", "   ", "not a url", "ftp://hooks.example.com/", "https://user:pw@hooks.example.com/", 5, null, [], {}),
      fc.integer({ min: 2001, max: 5000 }).map((n) => `https://hooks.example.com/${"x".repeat(n)}`),
    ),
    events: fc.oneof(
      fc.constantFrom<unknown>([], ["proxy.exploded"], "balance.low", null, 5, {}),
      fc.array(hostileString, { minLength: 1, maxLength: 3 }),
    ),
    description: fc.oneof(
      fc.constantFrom<unknown>(5, true, [], {}),
      fc.integer({ min: 201, max: 3000 }).map((n) => "x".repeat(n)),
    ),
    balance_low_cents: badWholeNumber(1, 100_000_000).filter((v) => v !== null),
  };
}

export const V1_ROUTE_SPECS: Record<string, RouteSpec> = {
  "GET /api/v1/credits/packages": { who: "customer", read: true },
  "POST /api/v1/credits/checkout": {
    who: "verified",
    keyed: true,
    readsBody: true,
    body: () => fc.record({ package_id: fc.constantFrom(...PACKAGE_IDS) }),
    poisons: () => ({ package_id: badChoice(PACKAGE_IDS) }),
  },
  // Stripe is not configured on this shop: the webhook is a 404. It has its own property below.
  "POST /api/v1/payments/stripe/webhook": { who: "stripe" },
  "POST /api/v1/proxies/purchase": {
    who: "verified",
    keyed: true,
    readsBody: true,
    body: () =>
      fc.record({ type: fc.constantFrom(...PROXY_TYPES), country: fc.constantFrom("US", "HA0"), quantity: fc.integer({ min: 1, max: 2 }) }),
    poisons: () => ({
      type: badChoice(PROXY_TYPES),
      quantity: badWholeNumber(1, 100),
      country: fc.constantFrom<unknown>("", "   ", null, 5, [], {}, "X".repeat(101)),
    }),
  },
  "POST /api/v1/proxies/renew": {
    who: "verified",
    keyed: true,
    readsBody: true,
    body: () => fc.record({ proxy_ids: fc.subarray(fuzz.hs.A.proxies, { minLength: 1 }) }),
    poisons: () => ({
      proxy_ids: fc.oneof(
        hostileValue.filter((v) => !Array.isArray(v)),
        fc.constant([]),
        fc.array(junkId, { minLength: 1, maxLength: 5 }),
        fc.constant([...fuzz.hs.B.proxies]),
        fc.constant(Array.from({ length: 101 }, () => fuzz.hs.A.proxies[0])),
      ),
    }),
  },
  "PATCH /api/v1/proxies/{id}": {
    who: "customer",
    readsBody: true,
    ids: () => ({ mine: fuzz.hs.A.proxies, notMine: [...fuzz.hs.B.proxies, ...fuzz.hs.stockIds] }),
    body: () => fc.record({ auto_renew: fc.boolean() }),
    poisons: () => ({ auto_renew: notBooleanOrNull }),
  },
  "POST /api/v1/proxies/{id}/rotate": {
    who: "customer",
    ids: () => ({ mine: fuzz.hs.A.proxies, notMine: [...fuzz.hs.B.proxies, ...fuzz.hs.stockIds] }),
  },
  // Replacement and the refund of a proxy whose exit is down (issue #28).
  "GET /api/v1/proxies/{id}/replacement": {
    who: "customer",
    read: true,
    ids: () => ({ mine: fuzz.hs.A.proxies, notMine: [...fuzz.hs.B.proxies, ...fuzz.hs.stockIds] }),
  },
  "POST /api/v1/proxies/{id}/replace": {
    who: "customer",
    keyed: true,
    ids: () => ({ mine: fuzz.hs.A.proxies, notMine: [...fuzz.hs.B.proxies, ...fuzz.hs.stockIds] }),
  },
  "POST /api/v1/proxies/{id}/refund": {
    who: "customer",
    keyed: true,
    ids: () => ({ mine: fuzz.hs.A.proxies, notMine: [...fuzz.hs.B.proxies, ...fuzz.hs.stockIds] }),
  },
  "GET /api/v1/proxies/stock": { who: "customer", read: true, query: () => ({ type: hostileQueryValue }) },
  "GET /api/v1/proxies/prices": { who: "customer", read: true },
  "GET /api/v1/proxies/countries": { who: "customer", read: true },
  "GET /api/v1/proxies/usage-summary": { who: "customer", read: true },
  "GET /api/v1/proxies/{id}/usage": {
    who: "customer",
    read: true,
    ids: () => ({ mine: fuzz.hs.A.proxies, notMine: [...fuzz.hs.B.proxies, ...fuzz.hs.stockIds] }),
    query: () => ({ from: hostileQueryValue, to: hostileQueryValue }),
  },
  // The developer API's reads and keys (issue #18, pb_hooks/api.pb.js).
  "GET /api/v1/openapi.json": { who: "public", read: true },
  "GET /api/v1/account": { who: "customer", read: true },
  "GET /api/v1/proxies": {
    who: "customer",
    read: true,
    query: () => ({
      type: hostileQueryValue,
      country: hostileQueryValue,
      status: hostileQueryValue,
      search: hostileQueryValue,
      cursor: hostileQueryValue,
      limit: hostileQueryValue,
    }),
  },
  "GET /api/v1/proxies/{id}": {
    who: "customer",
    read: true,
    ids: () => ({ mine: fuzz.hs.A.proxies, notMine: [...fuzz.hs.B.proxies, ...fuzz.hs.stockIds] }),
  },
  "GET /api/v1/transactions": {
    who: "customer",
    read: true,
    query: () => ({
      type: hostileQueryValue,
      from: hostileQueryValue,
      to: hostileQueryValue,
      cursor: hostileQueryValue,
      limit: hostileQueryValue,
    }),
  },
  "GET /api/v1/orders": {
    who: "customer",
    read: true,
    query: () => ({ kind: hostileQueryValue, cursor: hostileQueryValue, limit: hostileQueryValue }),
  },
  "GET /api/v1/locations": { who: "customer", read: true, query: () => ({ type: hostileQueryValue }) },
  "GET /api/v1/pricing": { who: "customer", read: true },
  "GET /api/v1/api-keys": { who: "customer", read: true },
  "POST /api/v1/api-keys": {
    who: "customer",
    readsBody: true,
    body: () => fc.record({ name: someText, scopes: fc.constant(["read"]) }),
    poisons: () => ({
      name: badText(1, 100),
      scopes: fc.oneof(fc.constant([]), fc.constant(["admin"]), hostileValue),
      expires_at: fc.oneof(fc.constant("2001-01-01"), fc.constant("soon")),
      ip_allowlist: fc.oneof(fc.constant(["10.0.0.300"]), fc.constant("not a list")),
      spend_cap_cents: badWholeNumber(1, 100_000_000),
    }),
  },
  "PATCH /api/v1/api-keys/{id}": {
    who: "customer",
    readsBody: true,
    ids: () => ({ mine: [], notMine: [...fuzz.hs.B.proxies] }),
    body: () => fc.record({ spend_cap_cents: fc.constantFrom(5000, null) }),
    poisons: () => ({ spend_cap_cents: badWholeNumber(1, 100_000_000) }),
  },
  "DELETE /api/v1/api-keys/{id}": {
    who: "customer",
    ids: () => ({ mine: [], notMine: [...fuzz.hs.B.proxies] }),
  },
  // Customer webhooks (issue #18, pb_hooks/webhooks.pb.js): a poison is refused in any mode
  // (loopback http endpoints are fine in the embedded default, so none is a poison here).
  "GET /api/v1/webhooks": { who: "customer", read: true },
  "POST /api/v1/webhooks": {
    who: "customer",
    readsBody: true,
    body: () =>
      fc.record({
        url: fc.constantFrom("https://hooks.example.com/fuzz"),
        events: fc.subarray(["purchase.completed", "balance.low", "payment.succeeded"], { minLength: 1 }),
        description: someText,
      }),
    poisons: () => webhookPoisons(),
  },
  "PATCH /api/v1/webhooks/{id}": {
    who: "customer",
    readsBody: true,
    ids: () => ({ mine: [], notMine: [...fuzz.hs.B.proxies] }),
    body: () => fc.record({ enabled: fc.boolean() }),
    poisons: () => ({ ...webhookPoisons(), enabled: notBooleanOrNull }),
  },
  "DELETE /api/v1/webhooks/{id}": { who: "customer", ids: () => ({ mine: [], notMine: [...fuzz.hs.B.proxies] }) },
  "POST /api/v1/webhooks/{id}/rotate-secret": { who: "customer", ids: () => ({ mine: [], notMine: [...fuzz.hs.B.proxies] }) },
  "GET /api/v1/webhooks/{id}/deliveries": {
    who: "customer",
    read: true,
    ids: () => ({ mine: [], notMine: [...fuzz.hs.B.proxies] }),
    query: () => ({ status: hostileQueryValue, cursor: hostileQueryValue, limit: hostileQueryValue }),
  },
  "POST /api/v1/webhooks/{id}/deliveries/{delivery}/resend": {
    who: "customer",
    ids: () => ({ mine: [], notMine: [...fuzz.hs.B.proxies] }),
  },
  // The caller's address (pb_hooks/gateway.pb.js): public, reads nothing of the request but Accept.
  "GET /api/ip": { who: "public", read: true, plainText: true },
  "POST /api/admin/jobs/proxy-expiry": { who: "superuser" },
  "POST /api/admin/jobs/webhook-events": { who: "superuser" },
  "POST /api/admin/jobs/upstream-health": { who: "superuser" },
  "POST /api/v1/support/tickets": {
    who: "customer",
    readsBody: true,
    body: () => fc.record({ subject: someText, message: someText, priority: fc.constantFrom("low", "medium", "high", "urgent") }),
    poisons: () => ({
      subject: badText(5, 200),
      message: badText(10, 5000),
      priority: badNonEmptyChoice(["low", "medium", "high", "urgent"]),
    }),
  },
};
