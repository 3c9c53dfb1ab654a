// Writes through the records API: every (collection, operation) a rule opens to clients,
// with how to make it fail for each caller, and the requests generated from them.
import fc from "fast-check";
import { PROXY_TYPES } from "@/lib/catalog";
import {
  badNonEmptyChoice,
  clientIp,
  hostileString,
  hostileValue,
  junkFields,
  junkId,
  malformedBody,
  type RawBody,
} from "./arbitraries.ts";
import { someText } from "./route-spec-kit.ts";
import { enc, fuzz, PEOPLE, type Caller, type Draft, type Op } from "./fuzz-kit.ts";

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
  caller === "customer"
    ? fuzz.hs.A.user.id
    : caller === "unverified"
      ? fuzz.hs.unverified.id
      : caller === "admin"
        ? fuzz.hs.adminUser.id
        : "";

/** Every (collection, operation) whose rule is not null, with how to make it fail. */
export const RECORD_WRITES: Record<string, WriteSpec> = {
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
    ids: () => fuzz.hs.settingIds,
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
  "pricing_plans update": { allowed: ["admin"], ids: () => fuzz.hs.planIds, poisons: () => planPoisons },
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
  "proxies update": { allowed: ["admin"], ids: () => [...fuzz.hs.stockIds, ...fuzz.hs.A.proxies], poisons: () => proxyPoisons },
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
      user_id: fc.constantFrom(fuzz.hs.B.user.id, "", "x' OR '1'='1"),
    }),
  },
  "support_tickets update": {
    allowed: ["admin"],
    ids: () => [...fuzz.hs.A.support_tickets, ...fuzz.hs.B.support_tickets],
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
      fc.record({ ticket_id: fc.constantFrom(...fuzz.hs.A.support_tickets), sender_id: fc.constant(selfId(caller)), message: someText }),
    poisons: (caller) => ({
      message: fc.constantFrom("", "   ", "\n\t "),
      ticket_id:
        caller === "admin" ? junkId.filter((id) => id.trim() !== "") : fc.oneof(fc.constantFrom(...fuzz.hs.B.support_tickets), junkId),
      sender_id: fc.constantFrom(fuzz.hs.B.user.id, fuzz.hs.unverified.id),
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
  "contact_messages update": { allowed: ["admin"], ids: () => [fuzz.hs.contactMessageId], poisons: () => contactPoisons },
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
    fc.constantFrom(0).map(() => fuzz.hs.B.user.id),
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

export function recordWrite(collection: string, op: Op): fc.Arbitrary<Draft> {
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
        caller === "admin"
          ? junkId
          : fc.oneof(junkId, fc.constantFrom(...fuzz.hs.B.proxies, ...fuzz.hs.B.support_tickets, fuzz.hs.B.user.id));
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
