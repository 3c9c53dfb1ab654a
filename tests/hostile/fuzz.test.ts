// Property-based hostile input (issue #8): every custom route (read from pb_hooks'
// routerAdd calls, so a new route without a spec here fails the first test) and every
// collection a client can write (read from the collections' rules) receives malformed,
// oversized, wrong-typed and injection-shaped bodies, ids and query strings from fast-check,
// as anonymous, customer, unverified customer and admin callers.
//
// Every generated write carries at least one defect that must make it fail (a caller
// without the right, an id that is not theirs or does not exist, a missing or malformed
// Idempotency-Key, a body that is not a JSON object, or a field value the field refuses
// whatever else is sent), so the properties are: a 4xx with a readable JSON message, never
// a 5xx, and not one row of the database changed (every table hashed before and after
// every request). Reads may answer, but never a 5xx, never a row the caller may not see,
// never a hidden field. Afterwards PocketBase's own request log must hold no hook error
// (TypeError, ReferenceError, GoError ...) behind any 4xx.
//
// `npm test` runs the short form (a few hundred requests); `npm run test:hostile` the full
// one (HOSTILE_PROFILE=full: more than 5,000). A failure prints fast-check's seed and path;
// replay it with HOSTILE_SEED=<seed> HOSTILE_PATH=<path>.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import fc from "fast-check";
import type { CollectionModel } from "pocketbase";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HOOKS_DIR } from "../../server/pocketbase-process.ts";
import { startTestPocketBase, type TestPocketBase } from "../support/pocketbase.ts";
import {
  badChoice,
  badEmail,
  badIdempotencyKey,
  badNonEmptyChoice,
  badText,
  badWholeNumber,
  clientIp,
  hostileString,
  hostileValue,
  INJECTIONS,
  junkFields,
  junkId,
  malformedBody,
  notBoolean,
  notBooleanOrNull,
  type RawBody,
} from "./support/arbitraries.ts";
import { changedTables, dbSnapshotter, type DbSnapshotter, type Snapshot } from "./support/db-snapshot.ts";
import { hostileShop, startStripeShop, type HostileShop } from "./support/fixtures.ts";
import { describeRequest, errorBodyProblems, refusalProblems, sendRaw, type HostileRequest, type HostileResponse } from "./support/http.ts";

const FULL = process.env["HOSTILE_PROFILE"] === "full";
const SEED = Number(process.env["HOSTILE_SEED"] ?? 8_2026_1123);
const REPLAY_PATH = process.env["HOSTILE_PATH"];
/** Runs of one property: short form in `npm test`, full in `npm run test:hostile`. */
const runs = (short: number, full: number): number => (FULL ? full : short);

const PROXY_TYPES = ["RESIDENTIAL", "DATACENTER", "SOCKS5", "HTTP", "HTTPS"] as const;
const PACKAGE_IDS = ["package-10", "package-25", "package-50", "package-100"];

type Caller = "anon" | "customer" | "unverified" | "admin" | "superuser";
const PEOPLE: Caller[] = ["anon", "customer", "unverified", "admin"];

let shopProcess: Awaited<ReturnType<typeof startStripeShop>>;
let tpb: TestPocketBase;
let hs: HostileShop;
let db: DbSnapshotter;
let tokens: Record<Caller, string>;
let baseline: Snapshot;
let sent = 0;

/** encodeURIComponent that also takes lone surrogates (as U+FFFD). */
const enc = (s: string): string => encodeURIComponent(s.toWellFormed());

// ---- Sending one request and checking what it did ------------------------------------

interface Draft {
  target: string;
  method: string;
  path: string;
  query?: Record<string, string>;
  caller: Caller;
  ip: string;
  headers?: Record<string, string>;
  /** A JSON value (serialised here) or a raw body with its content type. */
  json?: unknown;
  raw?: RawBody;
}

function build(d: Draft): HostileRequest {
  const headers: Record<string, string> = { "X-Forwarded-For": d.ip, ...(d.headers ?? {}) };
  if (d.caller !== "anon") headers["Authorization"] = tokens[d.caller];
  let body: string | undefined;
  if (d.raw) {
    body = d.raw.body;
    if (d.raw.contentType) headers["Content-Type"] = d.raw.contentType;
  } else if (d.json !== undefined) {
    body = JSON.stringify(d.json);
    headers["Content-Type"] = "application/json";
  }
  const query = d.query && Object.keys(d.query).length > 0 ? `?${new URLSearchParams(d.query).toString()}` : "";
  return { method: d.method, url: d.path + query, headers, ...(body !== undefined ? { body } : {}), target: `${d.target} as ${d.caller}` };
}

/** Sends one request and fails when it changed any row of the database. */
async function sendAndCompare(req: HostileRequest): Promise<HostileResponse> {
  const before = await db.take();
  const res = await sendRaw(tpb.url, req);
  sent += 1;
  const after = await db.take();
  const changed = changedTables(before, after);
  if (changed.length > 0) {
    throw new Error(`${describeRequest(req)}\n-> ${res.status} ${res.text.slice(0, 300)}\nchanged rows in: ${changed.join(", ")}`);
  }
  return res;
}

function fail(req: HostileRequest, res: HostileResponse, problems: string[]): never {
  throw new Error(`${describeRequest(req)}\n-> ${res.status} ${res.text.slice(0, 400)}\n${problems.join("\n")}`);
}

async function expectRefused(req: HostileRequest, custom: boolean): Promise<void> {
  const res = await sendAndCompare(req);
  const problems = refusalProblems(res, { custom });
  if (problems.length > 0) fail(req, res, problems);
}

async function expectCalmRead(req: HostileRequest, custom: boolean, extra?: (res: HostileResponse) => string[]): Promise<void> {
  const res = await sendAndCompare(req);
  const problems = res.status >= 500 ? [`a ${res.status}`] : [...errorBodyProblems(res, { custom })];
  if (res.status < 300 && res.text && res.json === undefined) problems.push("a 2xx answer that is not JSON");
  if (extra) problems.push(...extra(res));
  if (problems.length > 0) fail(req, res, problems);
}

async function check(arb: fc.Arbitrary<() => Promise<void>>, numRuns: number): Promise<void> {
  await fc.assert(
    fc.asyncProperty(arb, (run) => run()),
    { seed: SEED, numRuns, ...(REPLAY_PATH ? { path: REPLAY_PATH } : {}), endOnFailure: false },
  );
}

// ---- Custom routes ------------------------------------------------------------------

type Who = "public" | "customer" | "verified" | "admin" | "superuser" | "stripe";

interface RouteSpec {
  who: Who;
  /** GET routes: any answer but a 5xx; they must not change anything either. */
  read?: boolean;
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

const hostileQueryValue: fc.Arbitrary<string> = fc.oneof(
  hostileString,
  fc.constantFrom("-1", "0", "1e400", "NaN", "99999999999999999999999", "1.5", "", "[]", "{}", "%", "%25", "\\"),
);
const pageQuery = () => ({ page: hostileQueryValue, perPage: hostileQueryValue });

const wholeCents = fc.integer({ min: 1, max: 5_000 });
const someText = fc.string({ minLength: 12, maxLength: 60 }).map((s) => `Hostile ${s}`);

const ROUTES: Record<string, RouteSpec> = {
  "POST /api/shop/signup": {
    who: "public",
    readsBody: true,
    body: () =>
      fc.record({
        first_name: fc.constant("Mallory"),
        last_name: fc.constant("Fuzz"),
        email: fc.uuid().map((u) => `fuzz-${u}@hostile.test`),
        country: fc.constant("Spain"),
        ref: fc.oneof(hostileString, fc.constant(hs.A.affiliates[0] ?? "")),
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
  "POST /api/admin/users/{id}/balance": {
    who: "admin",
    keyed: true,
    readsBody: true,
    ids: () => ({ mine: [hs.A.user.id, hs.B.user.id], notMine: [] }),
    body: () => fc.record({ transaction_type: fc.constantFrom("CREDIT", "DEBIT"), amount_cents: wholeCents, description: someText }),
    poisons: () => ({
      transaction_type: badChoice(["CREDIT", "DEBIT"]),
      amount_cents: badWholeNumber(1, 100_000_000),
      description: badText(1, 500),
    }),
  },
  "GET /api/v1/affiliate": { who: "customer", read: true },
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
    ids: () => ({ mine: [...hs.A.affiliates, ...hs.B.affiliates], notMine: [] }),
    query: pageQuery,
  },
  "POST /api/admin/referrals/{id}/pay": {
    who: "admin",
    keyed: true,
    ids: () => ({ mine: [...hs.A.referrals, ...hs.B.referrals], notMine: [] }),
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
  "GET /api/admin/proxies/{id}": { who: "admin", read: true, ids: () => ({ mine: [...hs.stockIds, ...hs.A.proxies], notMine: [] }) },
  "PATCH /api/admin/proxies/{id}": {
    who: "admin",
    readsBody: true,
    ids: () => ({ mine: [...hs.stockIds, ...hs.A.proxies], notMine: [] }),
    body: () => fc.record({ port: fc.integer({ min: 1, max: 65535 }), auto_renew: fc.boolean() }, { requiredKeys: [] }),
    poisons: () => ({
      port: fc.oneof(
        badWholeNumber(1, 65535).filter((v) => typeof v !== "string"),
        fc.constantFrom("abc", "65536", "0", "-1", " "),
      ),
      username: fc.constantFrom("", "   "),
      status: badNonEmptyChoice(["AVAILABLE", "ASSIGNED", "EXPIRED", "MAINTENANCE"]),
    }),
  },
  "DELETE /api/admin/proxies/{id}": { who: "admin", ids: () => ({ mine: [...hs.stockIds], notMine: [] }) },
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
  "DELETE /api/admin/invitations/{id}": { who: "admin", ids: () => ({ mine: [hs.invitationId], notMine: [] }) },
  "GET /api/admin/support/tickets": {
    who: "admin",
    read: true,
    query: () => ({ q: hostileQueryValue, status: hostileQueryValue, ...pageQuery() }),
  },
  "GET /api/admin/support/tickets/{id}": {
    who: "admin",
    read: true,
    ids: () => ({ mine: [...hs.A.support_tickets, ...hs.B.support_tickets], notMine: [] }),
  },
  "GET /api/admin/overview": { who: "admin", read: true },
  "GET /api/admin/users": {
    who: "admin",
    read: true,
    query: () => ({ search: hostileQueryValue, role: hostileQueryValue, ...pageQuery() }),
  },
  "GET /api/admin/users/{id}": { who: "admin", read: true, ids: () => ({ mine: [hs.A.user.id, hs.B.user.id], notMine: [] }) },
  "POST /api/admin/users/{id}/admin": {
    who: "admin",
    readsBody: true,
    ids: () => ({ mine: [hs.A.user.id, hs.B.user.id], notMine: [] }),
    body: () => fc.record({ is_admin: fc.boolean() }),
    poisons: () => ({ is_admin: notBooleanOrNull }),
  },
  "POST /api/admin/orders/{id}/refund": {
    who: "admin",
    keyed: true,
    readsBody: true,
    ids: () => ({ mine: [...hs.A.proxy_orders, ...hs.B.proxy_orders], notMine: [] }),
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
    body: () => fc.record({ proxy_ids: fc.subarray(hs.A.proxies, { minLength: 1 }) }),
    poisons: () => ({
      proxy_ids: fc.oneof(
        hostileValue.filter((v) => !Array.isArray(v)),
        fc.constant([]),
        fc.array(junkId, { minLength: 1, maxLength: 5 }),
        fc.constant([...hs.B.proxies]),
        fc.constant(Array.from({ length: 101 }, () => hs.A.proxies[0])),
      ),
    }),
  },
  "PATCH /api/v1/proxies/{id}": {
    who: "customer",
    readsBody: true,
    ids: () => ({ mine: hs.A.proxies, notMine: [...hs.B.proxies, ...hs.stockIds] }),
    body: () => fc.record({ auto_renew: fc.boolean() }),
    poisons: () => ({ auto_renew: notBooleanOrNull }),
  },
  "POST /api/v1/proxies/{id}/regenerate-credentials": {
    who: "customer",
    ids: () => ({ mine: hs.A.proxies, notMine: [...hs.B.proxies, ...hs.stockIds] }),
  },
  "GET /api/v1/proxies/stock": { who: "customer", read: true, query: () => ({ type: hostileQueryValue }) },
  "GET /api/v1/proxies/prices": { who: "customer", read: true },
  "GET /api/v1/proxies/countries": { who: "customer", read: true },
  "POST /api/admin/jobs/proxy-expiry": { who: "superuser" },
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

/** Every routerAdd("METHOD", "/path") in pb_hooks. */
function declaredRoutes(): string[] {
  const routes: string[] = [];
  for (const file of readdirSync(HOOKS_DIR).filter((f) => f.endsWith(".pb.js"))) {
    const source = readFileSync(path.join(HOOKS_DIR, file), "utf8");
    for (const match of source.matchAll(/routerAdd\(\s*"(\w+)",\s*"([^"]+)"/g)) routes.push(`${match[1]} ${match[2]}`);
  }
  return routes.sort();
}

/** Callers a route refuses, and callers it serves. */
function callersOf(who: Who): { refused: Caller[]; allowed: Caller[] } {
  switch (who) {
    case "public":
    case "stripe":
      return { refused: [], allowed: PEOPLE };
    case "customer":
      return { refused: ["anon"], allowed: ["customer", "unverified", "admin"] };
    case "verified":
      return { refused: ["anon", "unverified"], allowed: ["customer", "admin"] };
    case "admin":
      return { refused: ["anon", "customer", "unverified", "superuser"], allowed: ["admin"] };
    case "superuser":
      return { refused: ["anon", "customer", "unverified", "admin"], allowed: ["superuser"] };
  }
}

type Defect = "caller" | "id" | "key" | "malformed" | "poison";

function defectsOf(spec: RouteSpec, template: string): Defect[] {
  const defects: Defect[] = [];
  if (callersOf(spec.who).refused.length > 0) defects.push("caller");
  if (template.includes("{id}")) defects.push("id");
  if (spec.keyed) defects.push("key");
  if (spec.readsBody) defects.push("malformed");
  if (spec.poisons) defects.push("poison");
  return defects;
}

/** A body of the route's fields plus junk keys, with at least one poisoned field. */
function poisonedBody(spec: RouteSpec): fc.Arbitrary<Record<string, unknown>> {
  const poisons = spec.poisons!();
  const names = Object.keys(poisons);
  return fc
    .tuple(junkFields, spec.body ? spec.body() : fc.constant({}), fc.subarray(names, { minLength: 1 }))
    .chain(([junk, body, chosen]) =>
      fc.tuple(...chosen.map((name) => poisons[name]!)).map((values) => {
        const out: Record<string, unknown> = { ...junk, ...body };
        chosen.forEach((name, i) => (out[name] = values[i]));
        return out;
      }),
    );
}

/** Any body: plausible, plausible with junk, junk, malformed, or none. */
function anyBody(spec: RouteSpec): fc.Arbitrary<{ json?: unknown; raw?: RawBody }> {
  const plausible = spec.body ? spec.body() : fc.constant({});
  return fc.oneof(
    plausible.map((json) => ({ json })),
    fc.tuple(junkFields, plausible).map(([junk, json]) => ({ json: { ...junk, ...json } })),
    hostileValue.map((json) => ({ json })),
    malformedBody.map((raw) => ({ raw })),
    fc.constant({}),
  );
}

function routeRequest(template: string, spec: RouteSpec): fc.Arbitrary<Draft> {
  const [method, routePath] = template.split(" ") as [string, string];
  const { refused, allowed } = callersOf(spec.who);
  const ids = spec.ids?.() ?? { mine: [], notMine: [] };
  const anyId = fc.oneof(
    ...(ids.mine.length ? [fc.constantFrom(...ids.mine)] : []),
    ...(ids.notMine.length ? [fc.constantFrom(...ids.notMine)] : []),
    junkId,
  );
  const wrongId = fc.oneof(...(ids.notMine.length ? [fc.constantFrom(...ids.notMine)] : []), junkId);
  const goodKey = fc.uuid();
  const query = spec.query ? fc.record(spec.query(), { requiredKeys: [] }) : fc.constant({});
  const noisyQuery = fc
    .tuple(query, fc.dictionary(fc.constantFrom("expand", "fields", "filter", "sort", "page", "id"), hostileQueryValue, { maxKeys: 2 }))
    .map(([q, junk]) => ({ ...junk, ...q }));

  const draft = (defect: Defect | "read") =>
    fc
      .record({
        caller: defect === "caller" ? fc.constantFrom(...refused) : fc.constantFrom(...(defect === "read" ? [...PEOPLE] : allowed)),
        id: defect === "id" ? wrongId : anyId,
        key: defect === "key" ? badIdempotencyKey : goodKey,
        body:
          defect === "malformed"
            ? malformedBody.map((raw) => ({ raw }))
            : defect === "poison"
              ? poisonedBody(spec).map((json) => ({ json }))
              : anyBody(spec),
        query: noisyQuery,
        ip: clientIp,
      })
      .map(({ caller, id, key, body, query: q, ip }): Draft => ({
        target: `${template} (${defect})`,
        method,
        path: routePath.replace("{id}", enc(id)),
        query: q,
        caller,
        ip,
        headers: spec.keyed && key !== undefined ? { "Idempotency-Key": key } : {},
        ...(method === "GET" ? {} : body),
      }));

  if (spec.read) return draft("read");
  return fc.constantFrom(...defectsOf(spec, template)).chain((defect) => draft(defect));
}

// ---- Collections through the records API ----------------------------------------------

type Op = "create" | "update" | "delete";

interface WriteSpec {
  /** Callers the rule lets through for this operation. */
  allowed: Caller[];
  /** Ids an allowed caller may target (update, delete). */
  ids?: (caller: Caller) => string[];
  /** A plausible body (it may be valid: only sent beside another defect). */
  body?: (caller: Caller) => fc.Arbitrary<Record<string, unknown>>;
  /** Field values each sure to be refused, for this caller. */
  poisons?: (caller: Caller) => Record<string, fc.Arbitrary<unknown>>;
}

const oneRune = fc.constantFrom("a", "é", "🙂", "<", "'", "x");
const overLong = (max: number) => fc.integer({ min: max + 1, max: max + 3000 }).map((n) => "y".repeat(n));
const selfId = (caller: Caller): string =>
  caller === "customer" ? hs.A.user.id : caller === "unverified" ? hs.unverified.id : caller === "admin" ? hs.adminUser.id : "";

/** Every (collection, operation) whose rule is not null, with how to make it fail. */
const RECORD_WRITES: Record<string, WriteSpec> = {
  "users update": {
    allowed: ["customer", "unverified", "admin"],
    ids: (caller) => [selfId(caller)],
    body: () =>
      fc.record(
        { first_name: fc.constant("Renamed"), country: fc.constant("Spain"), onboarding_completed: fc.boolean() },
        { requiredKeys: [] },
      ),
    poisons: (caller) => ({
      first_name: fc.oneof(oneRune, overLong(100)),
      last_name: fc.oneof(oneRune, overLong(100)),
      is_admin: fc.constant(caller !== "admin"),
      verified: fc.constant(caller === "unverified"),
      email: fc.uuid().map((u) => `stolen-${u}@hostile.test`),
      password_set: hostileValue,
      password: fc.constant("Str0ng#Password"),
    }),
  },
  "settings create": {
    allowed: ["admin"],
    body: () => fc.record({ key: fc.stringMatching(/^[a-z0-9_]{3,20}$/).map((k) => `fuzz_${k}`), value: hostileString }),
    poisons: () => ({
      key: fc.oneof(
        hostileString.filter((s) => s !== "" && !/^[a-z0-9_]+$/.test(s)),
        fc.constantFrom("site_name", "demo_mode", "welcome_credit_cents"),
      ),
    }),
  },
  "settings update": {
    allowed: ["admin"],
    ids: () => hs.settingIds,
    body: () => fc.record({ value: hostileString }),
    poisons: () => ({ key: hostileString.filter((s) => s !== "" && !/^[a-z0-9_]+$/.test(s)) }),
  },
  "settings delete": { allowed: ["admin"], ids: () => [] },
  "pricing_plans create": {
    allowed: ["admin"],
    body: () =>
      fc.record({
        name: fc.constant("Fuzz Plan"),
        type: fc.constantFrom(...PROXY_TYPES),
        price_cents: fc.integer({ min: 1, max: 10_000 }),
        features: fc.constant(["Fast"]),
        active: fc.boolean(),
      }),
    poisons: () => planPoisons,
  },
  "pricing_plans update": { allowed: ["admin"], ids: () => hs.planIds, poisons: () => planPoisons },
  "pricing_plans delete": { allowed: ["admin"], ids: () => [] },
  "proxies create": {
    allowed: ["admin"],
    body: () =>
      fc.record({
        host: fc.constant("fuzz.hostile.test"),
        port: fc.integer({ min: 1, max: 65535 }),
        username: fc.constant("fuzz"),
        password: fc.constant("secret"),
        type: fc.constantFrom(...PROXY_TYPES),
        country: fc.constant("US"),
        status: fc.constant("AVAILABLE"),
      }),
    poisons: () => proxyPoisons,
  },
  "proxies update": { allowed: ["admin"], ids: () => [...hs.stockIds, ...hs.A.proxies], poisons: () => proxyPoisons },
  "proxies delete": { allowed: ["admin"], ids: () => [] },
  "support_tickets create": {
    allowed: ["customer", "unverified", "admin"],
    body: (caller) => fc.record({ user_id: fc.constant(selfId(caller)), subject: someText, priority: fc.constantFrom("low", "high") }),
    poisons: () => ({
      subject: fc.oneof(
        fc.string({ unit: oneRune, maxLength: 4 }).map((s) => ` ${s} `),
        overLong(200),
      ),
      priority: badNonEmptyChoice(["low", "medium", "high", "urgent"]),
      status: fc.constantFrom("closed", "pending", "CLOSED", "x"),
      user_id: fc.constantFrom(hs.B.user.id, "", "x' OR '1'='1"),
    }),
  },
  "support_tickets update": {
    allowed: ["admin"],
    ids: () => [...hs.A.support_tickets, ...hs.B.support_tickets],
    poisons: () => ({
      status: badNonEmptyChoice(["open", "pending", "closed"]),
      priority: badNonEmptyChoice(["low", "medium", "high", "urgent"]),
      subject: fc.oneof(fc.string({ unit: oneRune, minLength: 1, maxLength: 4 }), overLong(200)),
      user_id: junkId.filter((id) => id.trim() !== ""),
    }),
  },
  "chat_messages create": {
    allowed: ["customer", "admin"],
    body: (caller) =>
      fc.record({ ticket_id: fc.constantFrom(...hs.A.support_tickets), sender_id: fc.constant(selfId(caller)), message: someText }),
    poisons: (caller) => ({
      message: fc.constantFrom("", "   ", "\n\t "),
      ticket_id: caller === "admin" ? junkId.filter((id) => id.trim() !== "") : fc.oneof(fc.constantFrom(...hs.B.support_tickets), junkId),
      sender_id: fc.constantFrom(hs.B.user.id, hs.unverified.id),
      ...(caller === "admin" ? {} : { is_admin_message: fc.constant(true) }),
    }),
  },
  "contact_messages create": {
    allowed: ["anon", "customer", "unverified", "admin"],
    body: () =>
      fc.record({
        name: fc.constant("Fuzz Visitor"),
        email: fc.constant("fuzz@hostile.test"),
        subject: fc.constant("A hostile question"),
        message: fc.constant("This message is long enough to be sent."),
        type: fc.constantFrom("general", "billing"),
      }),
    poisons: () => contactPoisons,
  },
  "contact_messages update": { allowed: ["admin"], ids: () => [hs.contactMessageId], poisons: () => contactPoisons },
  "contact_messages delete": { allowed: ["admin"], ids: () => [] },
};

const planPoisons: Record<string, fc.Arbitrary<unknown>> = {
  name: fc.constantFrom("", "   ", "\n\t"),
  price_cents: fc.constantFrom<unknown>(0, -1, -1e9, 1.5, 0.999, "abc", null, false, "0"),
  features: fc.constantFrom<unknown>([], [""], ["   "], [1], [null], [["nested"]], {}, { a: "b" }, 5, "plain text"),
  type: fc.constantFrom("residential", "MOBILE", "", "x' OR '1'='1", "<script>"),
};

const proxyPoisons: Record<string, fc.Arbitrary<unknown>> = {
  port: fc.constantFrom<unknown>(0, -1, 65536, 1e9, -1e9),
  type: fc.constantFrom("residential", "MOBILE", "x' OR '1'='1"),
  // Owner, status (but Available on stock) and term are the server's, even for admins
  // (issue #13, finding 6): the console's audited route changes them.
  status: fc.constantFrom("available", "STOLEN", "<b>", "EXPIRED", "MAINTENANCE"),
  assigned_to_user_id: fc.oneof(
    junkId.filter((id) => id.trim() !== ""),
    fc.constantFrom(0).map(() => hs.B.user.id),
  ),
  expires_at: fc.constantFrom("2099-01-01 00:00:00.000Z", "2020-01-01 00:00:00.000Z"),
};

const contactPoisons: Record<string, fc.Arbitrary<unknown>> = {
  email: fc.constantFrom<unknown>("not-an-email", "a@", "@b.c", "a b@c.d", "plainaddress", 5),
  type: fc.constantFrom("General", "spam", "x' OR '1'='1", "<script>"),
  subject: fc.oneof(
    fc.string({ unit: oneRune, maxLength: 4 }).map((s) => ` ${s} `),
    overLong(200),
  ),
  message: fc.oneof(
    fc.string({ unit: oneRune, maxLength: 19 }).map((s) => `\n${s}\n`),
    overLong(5000),
  ),
};

/** Multipart bodies with junk parts, files of the wrong kind and a broken @jsonPayload. */
const junkMultipart: fc.Arbitrary<RawBody> = fc
  .tuple(
    fc.dictionary(fc.constantFrom("message", "ticket_id", "attachments", "@jsonPayload", "x"), hostileString, { maxKeys: 3 }),
    fc.boolean(),
  )
  .map(([parts, withFile]) => {
    const boundary = "hostileBoundary42";
    let body = "";
    for (const [name, value] of Object.entries(parts))
      body += `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
    if (withFile) {
      body += `--${boundary}\r\nContent-Disposition: form-data; name="attachments"; filename="../../evil.html"\r\nContent-Type: image/png\r\n\r\n<script>alert(1)</script>\r\n`;
    }
    return { contentType: `multipart/form-data; boundary=${boundary}`, body: `${body}--${boundary}--\r\n` };
  });

interface CollectionInfo {
  name: string;
  rules: Record<Op, string | null>;
}
let collections: CollectionInfo[] = [];

function recordWrite(collection: string, op: Op): fc.Arbitrary<Draft> {
  const key = `${collection} ${op}`;
  const spec = RECORD_WRITES[key];
  const refused = PEOPLE.filter((c) => !spec?.allowed.includes(c));
  const method = op === "create" ? "POST" : op === "update" ? "PATCH" : "DELETE";
  const base = `/api/collections/${enc(collection)}/records`;
  const defects: ("caller" | "id" | "malformed" | "poison")[] = [];
  if (refused.length > 0) defects.push("caller");
  if (op !== "create") defects.push("id");
  if (op !== "delete") defects.push("malformed");
  if (spec?.poisons) defects.push("poison");
  const anyRecordBody = fc.oneof(
    junkFields.map((json) => ({ json })),
    hostileValue.map((json) => ({ json })),
    junkMultipart.map((raw) => ({ raw })),
  );

  return fc.constantFrom(...defects).chain((defect) =>
    fc.constantFrom(...(defect === "caller" ? refused : (spec?.allowed ?? PEOPLE))).chain((caller) => {
      const ids = spec?.ids?.(caller) ?? [];
      // B's rows are another customer's for customers, but an admin may act on them.
      const wrongIds =
        caller === "admin" ? junkId : fc.oneof(junkId, fc.constantFrom(...hs.B.proxies, ...hs.B.support_tickets, hs.B.user.id));
      const targetId = defect === "id" || ids.length === 0 ? wrongIds : fc.oneof(fc.constantFrom(...ids), junkId);
      const plausible = spec?.body ? spec.body(caller) : fc.constant({});
      const body: fc.Arbitrary<{ json?: unknown; raw?: RawBody }> =
        defect === "malformed"
          ? malformedBody.map((raw) => ({ raw }))
          : defect === "poison"
            ? fc
                .tuple(junkFields, plausible, fc.subarray(Object.keys(spec!.poisons!(caller)), { minLength: 1 }))
                .chain(([junk, json, chosen]) =>
                  fc.tuple(...chosen.map((name) => spec!.poisons!(caller)[name]!)).map((values) => {
                    const out: Record<string, unknown> = { ...junk, ...json };
                    chosen.forEach((name, i) => (out[name] = values[i]));
                    return { json: out };
                  }),
                )
            : fc.oneof(
                plausible.map((json) => ({ json })),
                anyRecordBody,
              );
      return fc.record({ id: targetId, body, ip: clientIp }).map(({ id, body: b, ip }): Draft => ({
        target: `${key} (${defect})`,
        method,
        path: op === "create" ? base : `${base}/${enc(id)}`,
        caller,
        ip,
        ...(op === "delete" ? {} : b),
      }));
    }),
  );
}

// ---- Reads through the records API: query junk, and nothing the caller may not see ----

/** Collections whose rows belong to one customer, and how to find the owner of a row. */
let visible: Record<Caller, Map<string, Set<string>>>;

async function computeVisibility(): Promise<void> {
  const su = hs.su;
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
  const names = collections.map((c) => c.name);
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
  visible = {
    anon: await forPerson(null),
    customer: await forPerson(hs.A.user.id),
    unverified: await forPerson(hs.unverified.id),
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

function leakProblems(caller: Caller, res: HostileResponse): string[] {
  if (res.status >= 300 || !res.json) return [];
  const problems: string[] = [];
  for (const record of recordsIn(res.json)) {
    const allowed = visible[caller].get(record.collectionName);
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

function recordRead(): fc.Arbitrary<Draft> {
  const names = collections.map((c) => c.name);
  const system = ["_superusers", "_authOrigins", "_externalAuths", "_mfas", "_otps"];
  const someId = fc.oneof(
    fc.constantFrom(
      ...hs.A.proxies,
      ...hs.B.proxies,
      ...hs.B.transactions,
      ...hs.B.chat_messages,
      hs.B.user.id,
      hs.adminUser.id,
      hs.invitationId,
      hs.contactMessageId,
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

function builtinRequest(): fc.Arbitrary<Draft> {
  const identity = fc.oneof(fc.constantFrom(hs.A.user.email, hs.adminUser.email, "superuser@test.local"), hostileString);
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
        record: fc.oneof(fc.constantFrom(...hs.A.chat_messages, ...hs.B.chat_messages), junkId),
        file: fc.oneof(
          fc.constantFrom(...Object.values(hs.B.attachments).flat(), "../../data.db", "..%2F..%2Fdata.db", "screenshot.png"),
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

// ---- The suite ----------------------------------------------------------------------

beforeAll(async () => {
  shopProcess = await startStripeShop();
  tpb = shopProcess.tpb;
  hs = await hostileShop(tpb);
  tokens = {
    anon: "",
    customer: hs.A.user.pb.authStore.token,
    unverified: hs.unverified.pb.authStore.token,
    admin: hs.admin.authStore.token,
    superuser: hs.su.authStore.token,
  };
  collections = (await hs.su.collections.getFullList())
    .filter((c: CollectionModel) => !c.system && c.type !== "view")
    .map((c: CollectionModel) => ({
      name: c.name,
      rules: { create: c.createRule ?? null, update: c.updateRule ?? null, delete: c.deleteRule ?? null },
    }));
  await computeVisibility();
  db = dbSnapshotter(tpb.dataDir);
  baseline = await db.take();
  console.info(`hostile fuzz: ${FULL ? "full" : "short"} profile, seed ${SEED}${REPLAY_PATH ? `, path ${REPLAY_PATH}` : ""}`);
}, 180_000);

afterAll(async () => {
  db?.close();
  await shopProcess?.stop();
});

describe("custom routes", () => {
  it("has a spec for every route in pb_hooks", () => {
    expect(declaredRoutes()).toEqual(Object.keys(ROUTES).sort());
  });

  it("refuse every invalid write with a readable 4xx and change no row", async () => {
    const writes = Object.entries(ROUTES).filter(([, spec]) => !spec.read && spec.who !== "stripe");
    const arb = fc.oneof(...writes.map(([template, spec]) => routeRequest(template, spec))).map((d) => {
      const req = build(d);
      return () => expectRefused(req, true);
    });
    await check(arb, runs(160, 3000));
  });

  it("answer out-of-range pages and numbers on every paged list without a 5xx or a vague message", async () => {
    const paged = Object.entries(ROUTES).filter(
      ([template, spec]) => spec.read && spec.query && "page" in spec.query() && !template.includes("{id}"),
    );
    expect(paged.length).toBeGreaterThan(3);
    for (const [template] of paged) {
      for (const value of ["1e400", "-1e400", "NaN", "99999999999999999999", "-5", "1.5", "0x10", ""]) {
        for (const key of ["page", "perPage"]) {
          const req = build({
            target: template,
            method: "GET",
            path: template.split(" ")[1]!,
            query: { [key]: value },
            caller: "admin",
            ip: "192.0.2.10",
          });
          await expectCalmRead(req, true);
        }
      }
    }
  });

  it("count characters the way the database does (emoji are one character, not two)", async () => {
    const cases: Draft[] = [
      {
        target: "POST /api/shop/signup",
        method: "POST",
        path: "/api/shop/signup",
        caller: "anon",
        ip: "192.0.2.20",
        json: { first_name: " 🙂 ", last_name: "Fuzz", email: "emoji-name@hostile.test", country: "Spain" },
      },
      {
        target: "POST /api/shop/signup",
        method: "POST",
        path: "/api/shop/signup",
        caller: "anon",
        ip: "192.0.2.21",
        json: { first_name: "Fuzz", last_name: "𝒜", email: "emoji-last@hostile.test", country: "Spain" },
      },
      {
        target: "POST /api/v1/support/tickets",
        method: "POST",
        path: "/api/v1/support/tickets",
        caller: "customer",
        ip: "192.0.2.22",
        json: { subject: "🙂🙂🙂", message: "A message long enough to pass." },
      },
    ];
    for (const d of cases) await expectRefused(build(d), true);
  });

  it("answer hostile queries and ids on reads without a 5xx or a change", async () => {
    const reads = Object.entries(ROUTES).filter(([, spec]) => spec.read);
    const arb = fc.oneof(...reads.map(([template, spec]) => routeRequest(template, spec))).map((d) => {
      const req = build(d);
      return () => expectCalmRead(req, true);
    });
    await check(arb, runs(60, 800));
  });
});

describe("collections through the records API", () => {
  it("has a spec for every operation a rule opens to clients", () => {
    const open = collections.flatMap((c) =>
      (["create", "update", "delete"] as Op[]).filter((op) => c.rules[op] !== null).map((op) => `${c.name} ${op}`),
    );
    expect(open.sort()).toEqual(Object.keys(RECORD_WRITES).sort());
  });

  it("refuse every invalid create, update and delete, on every collection, and change no row", async () => {
    const ops = collections.flatMap((c) => (["create", "update", "delete"] as Op[]).map((op) => recordWrite(c.name, op)));
    const arb = fc.oneof(...ops).map((d) => {
      const req = build(d);
      return () => expectRefused(req, false);
    });
    await check(arb, runs(120, 1200));
  });

  it("answer hostile filters, sorts, expands, fields and pages without a 5xx, a leak or a change", async () => {
    const arb = recordRead().map((d) => {
      const req = build(d);
      return () => expectCalmRead(req, false, (res) => leakProblems(d.caller, res));
    });
    await check(arb, runs(80, 1000));
  });

  it("refuse hostile sign-ins, tokens, batches, realtime and file requests without a 5xx or a change", async () => {
    const arb = builtinRequest().map((d) => {
      const req = build(d);
      return () => (d.method === "GET" ? expectCalmRead(req, false) : expectRefused(req, false));
    });
    await check(arb, runs(40, 400));
  });
});

describe("oversized requests", () => {
  it("refuse bodies over the size limits with 413 and a message, on our routes and the records API", async () => {
    const big = "x".repeat(33 * 1024 * 1024);
    const all: Draft[] = [
      {
        target: "support ticket",
        method: "POST",
        path: "/api/v1/support/tickets",
        caller: "customer",
        ip: "192.0.2.200",
        json: { subject: big },
      },
      {
        target: "contact create",
        method: "POST",
        path: "/api/collections/contact_messages/records",
        caller: "anon",
        ip: "192.0.2.201",
        json: { message: big },
      },
      { target: "signup", method: "POST", path: "/api/shop/signup", caller: "anon", ip: "192.0.2.202", json: { email: big } },
    ];
    // The short form sends one (33 MB each is slow on a shared machine).
    const targets = FULL ? all : all.slice(0, 1);
    for (const d of targets) {
      const req = build(d);
      const res = await sendAndCompare(req);
      expect(res.status, describeRequest(req)).toBe(413);
      expect(errorBodyProblems(res, { custom: false }), describeRequest(req)).toEqual([]);
    }
  });
});

// The Stripe webhook on a shop with Stripe configured (no stripe-mock needed: nothing here
// may reach Stripe): forged, stale, missing signatures and junk bodies are refused.
describe("the Stripe webhook", () => {
  let stripeShop: TestPocketBase;
  let stripeDb: DbSnapshotter;
  beforeAll(async () => {
    stripeShop = await startTestPocketBase({
      STRIPE_SECRET_KEY: "sk_test_hostile",
      STRIPE_WEBHOOK_SECRET: "whsec_hostile",
      STRIPE_API_BASE: "http://127.0.0.1:9",
    });
    stripeDb = dbSnapshotter(stripeShop.dataDir);
  });
  afterAll(async () => {
    stripeDb?.close();
    await stripeShop?.stop();
  });

  it("has checks that can fail: a committed write shows in the snapshot, a foreign row is a leak", async () => {
    const su = await stripeShop.superuser(); // (a sign-in writes _authOrigins)
    const before = await stripeDb.take();
    await su.collection("contact_messages").create({
      name: "Self Check",
      email: "self@check.test",
      subject: "Self check",
      message: "The snapshot must see this row.",
      type: "general",
    });
    expect(changedTables(before, await stripeDb.take())).toEqual(["contact_messages"]);
    const foreign = {
      status: 200,
      text: "",
      contentType: "application/json",
      json: { items: [{ collectionName: "proxies", id: hs.B.proxies[0], expand: {} }] },
    };
    expect(leakProblems("customer", foreign)).toEqual([`leaked proxies/${hs.B.proxies[0]} to customer`]);
    const hidden = { ...foreign, json: { collectionName: "users", id: hs.A.user.id, tokenKey: "x" } };
    expect(leakProblems("customer", hidden)).toEqual([`hidden field tokenKey of users/${hs.A.user.id} shown to customer`]);
  });

  it("refuses every unsigned or forged event with a readable 400 and changes nothing", async () => {
    const now = () => Math.floor(Date.now() / 1000);
    const signature = fc.oneof(
      fc.constant(undefined),
      hostileString,
      fc.tuple(fc.integer({ min: 0, max: 2 ** 31 }), fc.stringMatching(/^[0-9a-f]{0,64}$/)).map(([t, v]) => `t=${t},v1=${v}`),
      fc.stringMatching(/^[0-9a-f]{64}$/).map((v) => `t=${now()},v1=${v}`),
      fc.constantFrom(`t=${now()}`, "v1=abc", "t=,v1=", `t=${now() - 3600},v1=${"0".repeat(64)}`, "t=1e400,v1=00"),
    );
    const event = fc.oneof(
      fc
        .record({
          type: fc.constantFrom("checkout.session.completed", "checkout.session.async_payment_succeeded", "checkout.session.expired"),
          data: fc.record({ object: junkFields }),
        })
        .map((e) => ({ json: e })),
      malformedBody.map((raw) => ({ raw })),
      hostileValue.map((json) => ({ json })),
    );
    const arb = fc.record({ signature, event, ip: clientIp }).map(({ signature: sig, event: ev, ip }) => {
      const headers: Record<string, string> = { "X-Forwarded-For": ip };
      if (sig !== undefined) headers["Stripe-Signature"] = sig;
      let body: string;
      if ("raw" in ev && ev.raw) {
        body = ev.raw.body;
        if (ev.raw.contentType) headers["Content-Type"] = ev.raw.contentType;
      } else {
        body = JSON.stringify((ev as { json: unknown }).json);
        headers["Content-Type"] = "application/json";
      }
      const req: HostileRequest = { method: "POST", url: "/api/v1/payments/stripe/webhook", headers, body, target: "stripe webhook" };
      return async () => {
        const before = await stripeDb.take();
        const res = await sendRaw(stripeShop.url, req);
        sent += 1;
        const changed = changedTables(before, await stripeDb.take());
        const problems = [...refusalProblems(res, { custom: true }), ...(changed.length ? [`changed rows in ${changed.join(", ")}`] : [])];
        if (problems.length > 0) fail(req, res, problems);
      };
    });
    await check(arb, runs(30, 300));
  });
});

describe("afterwards", () => {
  it("left every table exactly as it was", async () => {
    expect(changedTables(baseline, await db.take())).toEqual([]);
    console.info(`hostile fuzz: ${sent} requests sent`);
    if (FULL) expect(sent).toBeGreaterThanOrEqual(5000);
  });

  it("logged no hook error (TypeError, ReferenceError, GoError ...) behind any refusal", async () => {
    await new Promise((r) => setTimeout(r, 3500)); // PocketBase writes request logs in batches
    const hookError = /TypeError|ReferenceError|SyntaxError|RangeError|GoError|is not a function|Cannot read propert|of undefined|pb_hooks/;
    const offenders: string[] = [];
    for (let page = 1; ; page++) {
      const logs = await hs.su.logs.getList(page, 500, { filter: "data.status >= 400", sort: "created" });
      for (const log of logs.items) {
        const details = JSON.stringify(log.data["details"] ?? "") + JSON.stringify(log.data["error"] ?? "");
        if (hookError.test(details))
          offenders.push(
            `${log.data["method"]} ${String(log.data["url"]).slice(0, 200)} -> ${log.data["status"]}: ${details.slice(0, 300)}`,
          );
      }
      if (page >= logs.totalPages) break;
    }
    expect(offenders).toEqual([]);
  });
});
