// What the hostile fuzz suite knows of each custom route: who may call it, whether it is
// keyed or reads a body, the ids to try, a plausible body and field values sure to be
// refused. fuzz.test.ts fails when a route in pb_hooks has no spec here.
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
  junkId,
  notBoolean,
  notBooleanOrNull,
} from "./arbitraries.ts";
import { fuzz } from "./fuzz-kit.ts";

const PACKAGE_IDS = ["package-10", "package-25", "package-50", "package-100"];

export type Who = "public" | "customer" | "verified" | "admin" | "superuser" | "stripe";

export interface RouteSpec {
  who: Who;
  /** GET routes: any answer but a 5xx; they must not change anything either. */
  read?: boolean;
  /** The route answers text/plain unless asked for JSON (a 2xx need not be JSON). */
  plainText?: boolean;
  keyed?: boolean;
  /** The route parses the body (so a body that is not a JSON object is refused). */
  readsBody?: boolean;
  /** For `{id}` routes: ids an allowed caller could act on, and ids that are never theirs. */
  ids?: () => { mine: string[]; notMine: string[] };
  /** A plausible body (it may be valid: only sent beside another defect). */
  body?: () => fc.Arbitrary<Record<string, unknown>>;
  /** Field values each sure to be refused. */
  poisons?: () => Record<string, fc.Arbitrary<unknown>>;
  query?: () => Record<string, fc.Arbitrary<string>>;
}

export const hostileQueryValue: fc.Arbitrary<string> = fc.oneof(
  hostileString,
  fc.constantFrom("-1", "0", "1e400", "NaN", "99999999999999999999999", "1.5", "", "[]", "{}", "%", "%25", "\\"),
);
const pageQuery = () => ({ page: hostileQueryValue, perPage: hostileQueryValue });

const wholeCents = fc.integer({ min: 1, max: 5_000 });
export const someText = fc.string({ minLength: 12, maxLength: 60 }).map((s) => `Hostile ${s}`);

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

export const ROUTES: Record<string, RouteSpec> = {
  "POST /api/shop/signup": {
    who: "public",
    readsBody: true,
    body: () =>
      fc.record({
        first_name: fc.constant("Mallory"),
        last_name: fc.constant("Fuzz"),
        email: fc.uuid().map((u) => `fuzz-${u}@hostile.test`),
        country: fc.constant("Spain"),
        ref: fc.oneof(hostileString, fc.constant(fuzz.hs.A.affiliates[0] ?? "")),
      }),
    poisons: () => ({
      email: badEmail,
      first_name: badText(2, 100),
      last_name: badText(2, 100),
      country: badChoice(["Spain", "Canada", "Germany"]).filter(
        (v) => typeof v !== "string" || v.trim().length > 40 || /[<>'"%{}\\]/.test(v),
      ),
    }),
  },
  // The old query form answers 405 (tokens stay out of the request log); the check is a POST.
  "GET /api/shop/admin-invitations/check": { who: "public", read: true, query: () => ({ token: hostileQueryValue }) },
  // How many countries are in stock (the home page's stat): public, reads nothing of the request.
  "GET /api/shop/stock-summary": { who: "public", read: true },
  "POST /api/shop/admin-invitations/check": {
    who: "public",
    readsBody: true,
    body: () => fc.record({ token: fc.stringMatching(/^[A-Za-z0-9_-]{43}$/) }),
    poisons: () => ({ token: fc.oneof(hostileString, fc.constantFrom<unknown>(5, null, [], {})) }),
  },
  "POST /api/shop/admin-register": {
    who: "public",
    readsBody: true,
    body: () =>
      fc.record({
        first_name: fc.constant("Eve"),
        last_name: fc.constant("Intruder"),
        email: fc.uuid().map((u) => `register-${u}@hostile.test`),
        password: fc.constant("Intruder#2026x"),
        country: fc.constant("Spain"),
      }),
    // No token a generator draws opens a 256-bit invitation.
    poisons: () => ({ token: fc.oneof(hostileString, fc.stringMatching(/^[A-Za-z0-9_-]{43}$/)) }),
  },
  // The first administrator's setup (admin-setup.pb.js): whether an admin exists (a boolean),
  // a setup link's check, the admin's creation. No token a generator draws opens a 256-bit link.
  "GET /api/setup/status": { who: "public", read: true },
  "POST /api/setup/check": {
    who: "public",
    readsBody: true,
    body: () => fc.record({ token: fc.stringMatching(/^[A-Za-z0-9]{43}$/) }),
    poisons: () => ({ token: fc.oneof(hostileString, fc.constantFrom<unknown>(5, null, [], {})) }),
  },
  "POST /api/setup/admin": {
    who: "public",
    readsBody: true,
    body: () =>
      fc.record({
        first_name: fc.constant("Eve"),
        last_name: fc.constant("Intruder"),
        email: fc.uuid().map((u) => `setup-${u}@hostile.test`),
        password: fc.constant("Intruder#2026x"),
      }),
    poisons: () => ({ token: fc.oneof(hostileString, fc.stringMatching(/^[A-Za-z0-9]{43}$/)) }),
  },
  "POST /api/admin/users/{id}/balance": {
    who: "admin",
    keyed: true,
    readsBody: true,
    ids: () => ({ mine: [fuzz.hs.A.user.id, fuzz.hs.B.user.id], notMine: [] }),
    body: () => fc.record({ transaction_type: fc.constantFrom("CREDIT", "DEBIT"), amount_cents: wholeCents, description: someText }),
    poisons: () => ({
      transaction_type: badChoice(["CREDIT", "DEBIT"]),
      amount_cents: badWholeNumber(1, 100_000_000),
      description: badText(1, 500),
    }),
  },
  "GET /api/v1/affiliate": { who: "customer", read: true },
  "PUT /api/v1/affiliate/payout-method": {
    who: "customer",
    readsBody: true,
    body: () => fc.record({ payout_method: someText }),
    poisons: () => ({ payout_method: badText(0, 500) }),
  },
  // The customer's IP allowlist (issue #16): plausible entries are addresses and ranges; a
  // poison is never a list of them (a bad or non-text entry, a /0 range, 101 entries).
  "GET /api/v1/account/ip-allowlist": { who: "customer", read: true },
  // The customer's own activity log (issue #18): filters and cursor paging, 400s for bad values.
  "GET /api/v1/activity": {
    who: "customer",
    read: true,
    query: () => ({
      kind: hostileQueryValue,
      from: hostileQueryValue,
      to: hostileQueryValue,
      cursor: hostileQueryValue,
      limit: hostileQueryValue,
    }),
  },
  "PUT /api/v1/account/ip-allowlist": {
    who: "customer",
    readsBody: true,
    body: () =>
      fc.record({
        entries: fc.array(
          fc.oneof(
            fc.ipV4(),
            fc.ipV6(),
            fc.ipV4().map((a) => `${a}/24`),
          ),
          { maxLength: 4 },
        ),
      }),
    poisons: () => ({
      entries: fc.oneof(
        hostileValue.filter((v) => !Array.isArray(v)),
        fc
          .tuple(
            fc.array(fc.ipV4(), { maxLength: 3 }),
            fc.oneof(
              hostileString.filter((s) => s.trim() !== "" && /[^0-9a-fA-F:./]/.test(s.trim())),
              fc.constantFrom<unknown>(5, null, true, {}, [], "0.0.0.0/0", "::/0", "10.0.0.300", "1.2.3.4/33"),
            ),
          )
          .map(([ok, bad]) => [...ok, bad]),
        fc.constant(Array.from({ length: 101 }, (_, i) => `10.0.${i}.1`)),
      ),
    }),
  },
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
  "GET /api/admin/users/{id}": { who: "admin", read: true, ids: () => ({ mine: [fuzz.hs.A.user.id, fuzz.hs.B.user.id], notMine: [] }) },
  "POST /api/admin/users/{id}/admin": {
    who: "admin",
    readsBody: true,
    ids: () => ({ mine: [fuzz.hs.A.user.id, fuzz.hs.B.user.id], notMine: [] }),
    body: () => fc.record({ is_admin: fc.boolean() }),
    poisons: () => ({ is_admin: notBooleanOrNull }),
  },
  "POST /api/admin/users/{id}/email": {
    who: "admin",
    readsBody: true,
    ids: () => ({ mine: [fuzz.hs.A.user.id, fuzz.hs.B.user.id], notMine: [] }),
    body: () => fc.record({ email: fc.uuid().map((u) => `moved-${u}@hostile.test`) }),
    poisons: () => ({ email: badEmail }),
  },
  "POST /api/admin/users/{id}/verify": { who: "admin", ids: () => ({ mine: [fuzz.hs.A.user.id, fuzz.hs.B.user.id], notMine: [] }) },
  "POST /api/admin/users/{id}/verification": { who: "admin", ids: () => ({ mine: [fuzz.hs.A.user.id, fuzz.hs.B.user.id], notMine: [] }) },
  "POST /api/admin/users/{id}/suspension": {
    who: "admin",
    readsBody: true,
    ids: () => ({ mine: [fuzz.hs.A.user.id, fuzz.hs.B.user.id], notMine: [] }),
    body: () => fc.record({ suspended: fc.boolean() }),
    poisons: () => ({ suspended: notBoolean }),
  },
  "POST /api/admin/users/{id}/delete": {
    who: "admin",
    readsBody: true,
    ids: () => ({ mine: [fuzz.hs.A.user.id, fuzz.hs.B.user.id], notMine: [] }),
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
