// Hostile fuzz specs (see route-specs.ts) of the console's /api/admin routes.
import fc from "fast-check";
import { PROXY_TYPES } from "@/lib/catalog";
import {
  badChoice,
  badEmail,
  badNonEmptyChoice,
  badText,
  badWholeNumber,
  hostileString,
  hostileValue,
  notBoolean,
  notBooleanOrNull,
} from "./arbitraries.ts";
import { fuzz } from "./fuzz-kit.ts";
import { hostileQueryValue, pageQuery, someText, type RouteSpec } from "./route-spec-kit.ts";

/** The two customers' accounts: every admin may act on either. */
const bothUsers = () => ({ mine: [fuzz.hs.A.user.id, fuzz.hs.B.user.id], notMine: [] });

export const ADMIN_ROUTE_SPECS: Record<string, RouteSpec> = {
  "GET /api/admin/analytics": { who: "admin", read: true, query: () => ({ days: hostileQueryValue }) },
  "GET /api/admin/audit-logs": {
    who: "admin",
    read: true,
    query: () => ({ search: hostileQueryValue, action: hostileQueryValue, ...pageQuery() }),
  },
  "GET /api/admin/audit-logs/summary": { who: "admin", read: true },
  "GET /api/admin/affiliates": { who: "admin", read: true, query: () => ({ search: hostileQueryValue, ...pageQuery() }) },
  "GET /api/admin/affiliates/{id}/referrals": {
    who: "admin",
    read: true,
    ids: () => ({ mine: [...fuzz.hs.A.affiliates, ...fuzz.hs.B.affiliates], notMine: [] }),
    query: pageQuery,
  },
  "POST /api/admin/referrals/{id}/pay": {
    who: "admin",
    keyed: true,
    ids: () => ({ mine: [...fuzz.hs.A.referrals, ...fuzz.hs.B.referrals], notMine: [] }),
  },
  "GET /api/admin/proxies": {
    who: "admin",
    read: true,
    query: () => ({
      search: hostileQueryValue,
      type: hostileQueryValue,
      country: hostileQueryValue,
      status: hostileQueryValue,
      ...pageQuery(),
    }),
  },
  "GET /api/admin/proxies/stats": { who: "admin", read: true },
  "GET /api/admin/proxies/locations": { who: "admin", read: true, query: () => ({ type: hostileQueryValue }) },
  "GET /api/admin/proxies/{id}": {
    who: "admin",
    read: true,
    ids: () => ({ mine: [...fuzz.hs.stockIds, ...fuzz.hs.A.proxies], notMine: [] }),
  },
  "PATCH /api/admin/proxies/{id}": {
    who: "admin",
    readsBody: true,
    ids: () => ({ mine: [...fuzz.hs.stockIds, ...fuzz.hs.A.proxies], notMine: [] }),
    body: () => fc.record({ port: fc.integer({ min: 1, max: 65535 }), auto_renew: fc.boolean() }, { requiredKeys: [] }),
    poisons: () => ({
      port: fc.oneof(
        badWholeNumber(1, 65535).filter((v) => typeof v !== "string"),
        fc.constantFrom("abc", "65536", "0", "-1", " "),
      ),
      username: fc.constantFrom("", "   "),
      status: badNonEmptyChoice(["AVAILABLE", "ASSIGNED", "EXPIRED", "MAINTENANCE"]),
      bandwidth_quota_gb: badWholeNumber(0, 1_000_000),
      max_connections: badWholeNumber(0, 100_000),
    }),
  },
  "DELETE /api/admin/proxies/{id}": { who: "admin", ids: () => ({ mine: [...fuzz.hs.stockIds], notMine: [] }) },
  "POST /api/admin/proxies/generate": {
    who: "admin",
    readsBody: true,
    body: () => fc.record({ type: fc.constantFrom(...PROXY_TYPES), country: fc.constant("US"), quantity: fc.integer({ min: 1, max: 3 }) }),
    poisons: () => ({ type: badChoice(PROXY_TYPES), quantity: badWholeNumber(1, 1000) }),
  },
  "POST /api/admin/proxies/import": {
    who: "admin",
    readsBody: true,
    body: () => fc.record({ text: fc.constant("import.hostile.test:8080:user:secret") }),
    poisons: () => ({ text: fc.constantFrom<unknown>("", "   ", "\n\n", null, 5, true, [], {}, ["a:1:b:c"]) }),
  },
  "GET /api/admin/system-alerts": { who: "admin", read: true },
  // Assignment and exit swaps from Proxy Management (issue #28).
  "POST /api/admin/proxies/{id}/assign": {
    who: "admin",
    keyed: true,
    readsBody: true,
    ids: () => ({ mine: fuzz.hs.stockIds, notMine: [] }),
    body: () =>
      fc.record({ user_id: fc.constantFrom(fuzz.hs.A.user.id, fuzz.hs.B.user.id), price_cents: fc.integer({ min: 0, max: 500 }) }),
    poisons: () => ({ user_id: fc.constantFrom("", 5, null), price_cents: badWholeNumber(0, 1_000_000) }),
  },
  "POST /api/admin/proxies/{id}/replace": { who: "admin", ids: () => ({ mine: fuzz.hs.A.proxies, notMine: [] }) },
  "GET /api/admin/settings": { who: "admin", read: true },
  "PUT /api/admin/settings": {
    who: "admin",
    readsBody: true,
    body: () =>
      fc.record({
        site_name: fc.constant("Hostile Shop"),
        site_description: fc.constant("Proxies."),
        primary_color: fc.constant("#3B82F6"),
        contact_email: fc.constant("hostile@example.com"),
        default_support_name: fc.constant("Support"),
        admin_registration_enabled: fc.boolean(),
        demo_mode: fc.constant(false),
      }),
    poisons: () => ({
      admin_registration_enabled: notBoolean,
      demo_mode: notBoolean,
      [`unknown_${"setting"}`]: hostileValue,
    }),
  },
  "GET /api/admin/invitations": { who: "admin", read: true },
  "POST /api/admin/invitations": {
    who: "admin",
    readsBody: true,
    body: () => fc.constant({}),
    poisons: () => ({ email: badEmail.filter((v) => !(typeof v === "string" && v.trim() === "")), extra_field: hostileValue }),
  },
  "DELETE /api/admin/invitations/{id}": { who: "admin", ids: () => ({ mine: [fuzz.hs.invitationId], notMine: [] }) },
  // Gateway tokens (pb_hooks/gateway.pb.js): shop admins only; a name of 1-100 characters, unique.
  "GET /api/admin/gateway-tokens": { who: "admin", read: true, query: () => pageQuery() },
  "POST /api/admin/gateway-tokens": {
    who: "admin",
    readsBody: true,
    body: () => fc.record({ name: fc.uuid().map((u) => `fuzz-${u}`) }),
    poisons: () => ({ name: badText(1, 100), extra_field: hostileValue }),
  },
  "DELETE /api/admin/gateway-tokens/{id}": { who: "admin" },
  "GET /api/admin/support/tickets": {
    who: "admin",
    read: true,
    query: () => ({ q: hostileQueryValue, status: hostileQueryValue, ...pageQuery() }),
  },
  "GET /api/admin/support/tickets/{id}": {
    who: "admin",
    read: true,
    ids: () => ({ mine: [...fuzz.hs.A.support_tickets, ...fuzz.hs.B.support_tickets], notMine: [] }),
  },
  "GET /api/admin/overview": { who: "admin", read: true },
  "GET /api/admin/users": {
    who: "admin",
    read: true,
    query: () => ({ search: hostileQueryValue, role: hostileQueryValue, ...pageQuery() }),
  },
  "GET /api/admin/users/{id}": { who: "admin", read: true, ids: bothUsers },
  "POST /api/admin/users/{id}/admin": {
    who: "admin",
    readsBody: true,
    ids: bothUsers,
    body: () => fc.record({ is_admin: fc.boolean() }),
    poisons: () => ({ is_admin: notBooleanOrNull }),
  },
  "POST /api/admin/users/{id}/email": {
    who: "admin",
    readsBody: true,
    ids: bothUsers,
    body: () => fc.record({ email: fc.uuid().map((u) => `moved-${u}@hostile.test`) }),
    poisons: () => ({ email: badEmail }),
  },
  "POST /api/admin/users/{id}/verify": { who: "admin", ids: bothUsers },
  "POST /api/admin/users/{id}/verification": { who: "admin", ids: bothUsers },
  "POST /api/admin/users/{id}/suspension": {
    who: "admin",
    readsBody: true,
    ids: bothUsers,
    body: () => fc.record({ suspended: fc.boolean() }),
    poisons: () => ({ suspended: notBoolean }),
  },
  "POST /api/admin/users/{id}/delete": {
    who: "admin",
    readsBody: true,
    ids: bothUsers,
    body: () => fc.record({ confirm_email: fc.constant("someone@hostile.test") }),
    // Never the user's own address (theirs are made by the fixtures), so always refused.
    poisons: () => ({ confirm_email: fc.oneof(hostileString, badEmail) }),
  },
  "POST /api/admin/orders/{id}/refund": {
    who: "admin",
    keyed: true,
    readsBody: true,
    ids: () => ({ mine: [...fuzz.hs.A.proxy_orders, ...fuzz.hs.B.proxy_orders], notMine: [] }),
    body: () => fc.record({ reason: someText, allow_late: fc.boolean() }, { requiredKeys: ["reason"] }),
    poisons: () => ({ reason: badText(3, 500), allow_late: notBoolean }),
  },
};
