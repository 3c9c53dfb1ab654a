// Hostile fuzz specs (see route-specs.ts) of the public shop and setup routes and the
// customer's own account routes: sign-up, invitations, setup, balance, affiliate, allowlist, activity.
import fc from "fast-check";
import { badChoice, badEmail, badText, badWholeNumber, hostileString, hostileValue } from "./arbitraries.ts";
import { fuzz } from "./fuzz-kit.ts";
import { hostileQueryValue, someText, wholeCents, type RouteSpec } from "./route-spec-kit.ts";

/** A would-be administrator's fields (an e-mail address starting with `prefix`). */
const intruder = (prefix: string) => ({
  first_name: fc.constant("Eve"),
  last_name: fc.constant("Intruder"),
  email: fc.uuid().map((u) => `${prefix}-${u}@hostile.test`),
  password: fc.constant("Intruder#2026x"),
});

export const SHOP_ROUTE_SPECS: Record<string, RouteSpec> = {
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
    body: () => fc.record({ ...intruder("register"), country: fc.constant("Spain") }),
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
    body: () => fc.record(intruder("setup")),
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
};
