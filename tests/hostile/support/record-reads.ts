// Reads through the records API (query junk, and nothing the caller may not see) and
// PocketBase's own endpoints around auth, files, batch and realtime.
import fc from "fast-check";
import { clientIp, hostileString, hostileValue, INJECTIONS, junkFields, junkId, malformedBody } from "./arbitraries.ts";
import { hostileQueryValue } from "./route-spec-kit.ts";
import { enc, fuzz, PEOPLE, type Caller, type Draft } from "./fuzz-kit.ts";
import type { HostileResponse } from "./http.ts";

/** Collections whose rows belong to one customer, and how to find the owner of a row. */

export async function computeVisibility(): Promise<void> {
  const su = fuzz.hs.su;
  const all = async (collection: string, filter = "") =>
    new Set((await su.collection(collection).getFullList({ fields: "id", ...(filter ? { filter } : {}) })).map((r) => r.id));
  const ownerFilters: Record<string, (id: string) => string> = {
    users: (id) => `id = "${id}"`,
    balances: (id) => `user_id = "${id}"`,
    transactions: (id) => `user_id = "${id}"`,
    proxies: (id) => `assigned_to_user_id = "${id}"`,
    support_tickets: (id) => `user_id = "${id}"`,
    chat_messages: (id) => `ticket_id.user_id = "${id}"`,
    affiliates: (id) => `user_id = "${id}"`,
    referrals: (id) => `affiliate_id.user_id = "${id}"`,
    payments: (id) => `user_id = "${id}"`,
    proxy_orders: (id) => `user_id = "${id}"`,
    commissions: (id) => `affiliate_id.user_id = "${id}"`,
  };
  const names = fuzz.collections.map((c) => c.name);
  const publicSets = { settings: await all("settings"), pricing_plans: await all("pricing_plans", "active = true") };
  const forPerson = async (id: string | null): Promise<Map<string, Set<string>>> => {
    const map = new Map<string, Set<string>>();
    for (const name of names) {
      if (name === "settings") map.set(name, publicSets.settings);
      else if (name === "pricing_plans") map.set(name, publicSets.pricing_plans);
      else if (id && ownerFilters[name]) map.set(name, await all(name, ownerFilters[name](id)));
      else map.set(name, new Set());
    }
    return map;
  };
  const adminMap = new Map<string, Set<string>>();
  for (const name of names) adminMap.set(name, name === "admin_invitations" ? new Set() : await all(name));
  fuzz.visible = {
    anon: await forPerson(null),
    customer: await forPerson(fuzz.hs.A.user.id),
    unverified: await forPerson(fuzz.hs.unverified.id),
    admin: adminMap,
    superuser: adminMap,
  };
}

/** Fields no API answer may carry to a non-superuser. */
const HIDDEN_KEYS = new Set([
  "tokenKey",
  "password_encrypted",
  "request_hash",
  "refund_request_hash",
  "refund_idempotency_key",
  "token_hash",
  "passwordHash",
]);

/** Every record (an object with collectionName and id) in an answer, expanded ones included. */
function recordsIn(value: unknown, out: { collectionName: string; id: string; keys: string[] }[] = []) {
  if (Array.isArray(value)) for (const v of value) recordsIn(v, out);
  else if (value && typeof value === "object") {
    const obj = value as Record<string, unknown>;
    if (typeof obj["collectionName"] === "string" && typeof obj["id"] === "string") {
      out.push({ collectionName: obj["collectionName"], id: obj["id"], keys: Object.keys(obj) });
    }
    for (const v of Object.values(obj)) recordsIn(v, out);
  }
  return out;
}

export function leakProblems(caller: Caller, res: HostileResponse): string[] {
  if (res.status >= 300 || !res.json) return [];
  const problems: string[] = [];
  for (const record of recordsIn(res.json)) {
    const allowed = fuzz.visible[caller].get(record.collectionName);
    if (!allowed?.has(record.id)) problems.push(`leaked ${record.collectionName}/${record.id} to ${caller}`);
    for (const key of record.keys) {
      if (HIDDEN_KEYS.has(key) || (record.collectionName === "users" && key === "password")) {
        problems.push(`hidden field ${key} of ${record.collectionName}/${record.id} shown to ${caller}`);
      }
      if (record.collectionName === "contact_messages" && key === "ip") problems.push(`hidden field ip shown to ${caller}`);
    }
  }
  return problems;
}

/** Field names of a collection plus relation paths, for filters, sorts and expands that look real. */
function fieldishNames(): string[] {
  return [
    "id",
    "user_id",
    "user_id.email",
    "user_id.is_admin",
    "assigned_to_user_id.email",
    "ticket_id.user_id",
    "affiliate_id.user_id.email",
    "password",
    "password_encrypted",
    "tokenKey",
    "email",
    "is_admin",
    "balance_cents",
    "request_hash",
    "token_hash",
    "ip",
    "transactions_via_user_id.amount_cents",
    "proxies_via_assigned_to_user_id.password",
    "@collection.users.email",
    "@collection._superusers.email",
    "@request.auth.id",
    "@request.auth.is_admin",
    "@request.headers.x_forwarded_for",
    "@rowid",
    "@random",
  ];
}

const filterArb: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(...INJECTIONS),
  fc
    .tuple(
      fc.constantFrom(...fieldishNames()),
      fc.constantFrom("=", "!=", "~", "!~", ">", "?=", "?~", "<="),
      fc.oneof(hostileString, fc.constantFrom('""', "''", "null", "true", "1")),
    )
    .map(([f, op, v]) => `${f} ${op} ${/^["'\d]|^(null|true)$/.test(v) ? v : JSON.stringify(v)}`),
  fc
    .tuple(fc.integer({ min: 100, max: 20_000 }), fc.constantFrom("(", "((id='x')||"))
    .map(([n, open]) => `${open.repeat(n)}id = 'x'${")".repeat(n)}`),
  fc
    .array(fc.constantFrom('id != ""', "user_id.email ~ '@'", "1=1", "@request.auth.id = ''"), { minLength: 2, maxLength: 50 })
    .map((a) => a.join(" || ")),
  hostileString,
);

const listQuery: fc.Arbitrary<Record<string, string>> = fc.record(
  {
    filter: filterArb,
    sort: fc.oneof(
      fc.tuple(fc.constantFrom("", "-", "+"), fc.constantFrom(...fieldishNames())).map(([sign, f]) => `${sign}${f}`),
      hostileString,
    ),
    expand: fc.oneof(
      fc
        .array(
          fc.constantFrom(
            "user_id",
            "assigned_to_user_id",
            "ticket_id",
            "ticket_id.user_id",
            "sender_id",
            "affiliate_id.user_id",
            "referred_user_id",
            "payment_id",
            "transaction_id",
            "transactions_via_user_id",
            "proxies_via_assigned_to_user_id",
            "chat_messages_via_ticket_id.sender_id",
          ),
          { minLength: 1, maxLength: 4 },
        )
        .map((a) => a.join(",")),
      fc.constant("a.b.c.d.e.f.g.h.i.j.k"),
      hostileString,
    ),
    fields: fc.oneof(
      fc.constantFrom(
        "*",
        "password_encrypted,tokenKey,request_hash",
        "*:excerpt(99999999,true)",
        "expand.*.email",
        "id,expand.user_id.email",
      ),
      hostileString,
    ),
    page: hostileQueryValue,
    perPage: hostileQueryValue,
    skipTotal: fc.constantFrom("1", "true", "maybe", ""),
  },
  { requiredKeys: [] },
);

export function recordRead(): fc.Arbitrary<Draft> {
  const names = fuzz.collections.map((c) => c.name);
  const system = ["_superusers", "_authOrigins", "_externalAuths", "_mfas", "_otps"];
  const someId = fc.oneof(
    fc.constantFrom(
      ...fuzz.hs.A.proxies,
      ...fuzz.hs.B.proxies,
      ...fuzz.hs.B.transactions,
      ...fuzz.hs.B.chat_messages,
      fuzz.hs.B.user.id,
      fuzz.hs.adminUser.id,
      fuzz.hs.invitationId,
      fuzz.hs.contactMessageId,
    ),
    junkId,
  );
  return fc
    .record({
      collection: fc.oneof(
        { weight: 5, arbitrary: fc.constantFrom(...names) },
        { weight: 1, arbitrary: fc.constantFrom(...system, "..", "users/../_superusers", "%00") },
      ),
      view: fc.boolean(),
      id: someId,
      query: listQuery,
      caller: fc.constantFrom(...PEOPLE),
      ip: clientIp,
    })
    .map(({ collection, view, id, query, caller, ip }): Draft => ({
      target: `${collection} ${view ? "view" : "list"}`,
      method: "GET",
      path: `/api/collections/${enc(collection)}/records${view ? `/${enc(id)}` : ""}`,
      query: view ? { expand: query["expand"] ?? "", fields: query["fields"] ?? "" } : query,
      caller,
      ip,
    }));
}

// ---- PocketBase's own endpoints around auth, files, batch and realtime -----------------

export function builtinRequest(): fc.Arbitrary<Draft> {
  const identity = fc.oneof(fc.constantFrom(fuzz.hs.A.user.email, fuzz.hs.adminUser.email, "superuser@test.local"), hostileString);
  const posts: [string, fc.Arbitrary<unknown>][] = [
    ["/api/collections/users/auth-with-password", fc.record({ identity, password: hostileValue })],
    ["/api/collections/_superusers/auth-with-password", fc.record({ identity, password: hostileString })],
    ["/api/collections/users/auth-with-otp", fc.record({ otpId: hostileValue, password: hostileValue })],
    [
      "/api/collections/users/confirm-password-reset",
      fc.record({ token: hostileValue, password: hostileValue, passwordConfirm: hostileValue }),
    ],
    ["/api/collections/users/confirm-verification", fc.record({ token: hostileValue })],
    ["/api/collections/users/confirm-email-change", fc.record({ token: hostileValue, password: hostileValue })],
    ["/api/collections/users/auth-refresh", fc.constant({})],
    [
      "/api/batch",
      fc.record({
        requests: fc.array(
          fc.record({
            method: fc.constantFrom("POST", "PATCH", "DELETE"),
            url: fc.constantFrom("/api/collections/balances/records", "/api/collections/users/records/x"),
            body: junkFields,
          }),
        ),
      }),
    ],
    ["/api/realtime", fc.record({ clientId: hostileValue, subscriptions: fc.array(hostileString) })],
  ];
  return fc.oneof(
    fc
      .record({
        which: fc.integer({ min: 0, max: posts.length - 1 }),
        caller: fc.constantFrom<Caller>("anon", "customer"),
        ip: clientIp,
        malformed: fc.option(malformedBody, { freq: 4 }),
      })
      .chain(({ which, caller, ip, malformed }) =>
        posts[which]![1].map((json): Draft => ({
          target: `POST ${posts[which]![0]}`,
          method: "POST",
          path: posts[which]![0],
          caller: posts[which]![0].endsWith("auth-refresh") ? "anon" : caller,
          ip,
          ...(malformed ? { raw: malformed } : { json }),
        })),
      ),
    fc
      .record({
        collection: fc.constantFrom("chat_messages", "users", "proxies", "..", "_superusers"),
        record: fc.oneof(fc.constantFrom(...fuzz.hs.A.chat_messages, ...fuzz.hs.B.chat_messages), junkId),
        file: fc.oneof(
          fc.constantFrom(...Object.values(fuzz.hs.B.attachments).flat(), "../../data.db", "..%2F..%2Fdata.db", "screenshot.png"),
          hostileString,
        ),
        token: fc.oneof(fc.constant(""), hostileString, fc.constant("eyJhbGciOiJub25lIn0.eyJpZCI6IngifQ.")),
        thumb: fc.oneof(fc.constant(""), fc.constantFrom("100x100", "0x0", "99999x99999", "-1x-1")),
        caller: fc.constantFrom<Caller>("anon", "customer"),
        ip: clientIp,
      })
      .map(({ collection, record, file, token, thumb, caller, ip }): Draft => ({
        target: "GET /api/files",
        method: "GET",
        path: `/api/files/${enc(collection)}/${enc(record)}/${enc(file)}`,
        query: { token, ...(thumb ? { thumb } : {}) },
        caller,
        ip,
      })),
  );
}
