// fast-check arbitraries for hostile input: injection-shaped and oversized strings, numbers
// JSON cannot hold safely, wrong types, deep JSON, malformed bodies and hostile ids, plus
// "poisons": values a given field is sure to refuse, so a request carrying one can never
// be valid whatever the generator puts beside it.
import fc from "fast-check";

/** Strings attackers try first: SQL, PocketBase filter syntax, path traversal, markup, templates. */
export const INJECTIONS: readonly string[] = [
  "' OR '1'='1",
  '" OR "1"="1',
  "1; DROP TABLE users; --",
  "') OR 1=1 --",
  "x' UNION SELECT email, password FROM users --",
  "' || id != '' || '",
  '" || @request.auth.id = "" || "',
  "id != ''",
  "user_id.email ~ '%'",
  "@collection.users.email ?~ '@'",
  "@request.auth.is_admin = false",
  "*",
  "%",
  "_",
  "../../../../etc/passwd",
  "..%2F..%2F..%2Fetc%2Fpasswd",
  "..\\..\\windows\\win.ini",
  "/api/collections/_superusers/records",
  "<script>alert(1)</script>",
  '"><svg onload=alert(1)>',
  "<img src=x onerror=alert(1)>",
  "javascript:alert(1)",
  "{{7*7}}",
  "${7*7}",
  "`rm -rf /`",
  '{"$gt": ""}',
  "\u0000",
  "null\u0000byte",
  "\u202Eevil\u202C",
  "\uFEFFbom",
  "\uD800",
  "🙂".repeat(50),
  "NaN",
  "Infinity",
  "-0",
  "1e400",
  "0x1F",
  "true",
  "null",
  "undefined",
  "__proto__",
  "constructor",
];

/** A hostile text: injections, arbitrary unicode, control characters, very long runs. */
export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...INJECTIONS) },
  { weight: 2, arbitrary: fc.string({ unit: "grapheme", maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: fc.constantFrom(" ", "\t", "\n", "\r", "\u00a0", "\u200b"), maxLength: 20 }) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.constantFrom("a", "(", "'", "%", "é", "🙂", "<"), fc.integer({ min: 1_000, max: 70_000 }))
      .map(([c, n]) => c.repeat(n)),
  },
);

/** Numbers no field should take: out of range, fractional, unsafe, huge, negative zero. */
export const hostileNumber: fc.Arbitrary<number> = fc.oneof(
  fc.constantFrom(0, -0, -1, 0.5, 1.5, -1.5, 1e308, -1e308, 2 ** 53 + 2, -(2 ** 53) - 2, 1e21, Number.MIN_VALUE, 4294967296, 65536),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.integer({ min: -2_147_483_648, max: 2_147_483_647 }),
);

/** Nested arrays or objects `depth` levels deep. */
export function deepJson(depth: number, kind: "array" | "object"): unknown {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = kind === "array" ? [value] : { a: value };
  return value;
}

/** Any JSON value of the wrong shape or type: scalars, nulls, arrays for scalars, objects, deep nests. */
export const hostileValue: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    { weight: 3, arbitrary: hostileString },
    { weight: 2, arbitrary: hostileNumber },
    { weight: 1, arbitrary: fc.constantFrom(true, false, null) },
    { weight: 1, arbitrary: fc.array(tie("value"), { maxLength: 4 }) },
    { weight: 1, arbitrary: fc.dictionary(hostileKey(), tie("value"), { maxKeys: 4 }) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.integer({ min: 50, max: 3000 }), fc.constantFrom<"array" | "object">("array", "object"))
        .map(([d, k]) => deepJson(d, k)),
    },
  ),
})).value;

/** Object keys: prototype pollution, dotted paths, PocketBase modifiers, empty, unicode. */
export function hostileKey(): fc.Arbitrary<string> {
  return fc.oneof(
    fc.constantFrom(
      "__proto__",
      "constructor",
      "prototype",
      "",
      "a.b",
      "@request",
      "@jsonPayload",
      "id",
      "user_id",
      "is_admin",
      "balance_cents",
      "balance_cents+",
      "amount_cents",
      "verified",
      "status",
      "assigned_to_user_id",
      "password",
      "tokenKey",
      "expand",
      "collectionId",
      "created",
      "updated",
    ),
    fc.string({ unit: "grapheme", maxLength: 12 }),
  );
}

/** Extra keys beside the fields a body means to send. */
export const junkFields: fc.Arbitrary<Record<string, unknown>> = fc.dictionary(hostileKey(), hostileValue, { maxKeys: 3 });

/** Record ids that exist nowhere: injections, traversal, wrong lengths, unicode. */
export const junkId: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(...INJECTIONS.filter((s) => s.length > 0 && !/^(\.|\/)/.test(s))),
  fc.constantFrom("..", ".", "%2e%2e", "x/../../_superusers", "a".repeat(15), "A".repeat(15), "0".repeat(15), "a".repeat(5000)),
  fc.stringMatching(/^[a-z0-9]{15}$/),
  fc.string({ unit: "grapheme", minLength: 1, maxLength: 30 }),
);

/** An Idempotency-Key header the money routes must refuse (undefined: no header at all). */
export const badIdempotencyKey: fc.Arbitrary<string | undefined> = fc.oneof(
  fc.constant(undefined),
  fc.constantFrom("", "   ", "\t", "a".repeat(256), "key with spaces", "ключ", "🙂", "tab\there"),
);

/** A body that is not a JSON object: broken JSON, a JSON scalar or array, or another format that fails to parse. */
export interface RawBody {
  contentType: string | undefined;
  body: string;
}
export const malformedBody: fc.Arbitrary<RawBody> = fc.oneof(
  fc.constantFrom<RawBody>(
    { contentType: "application/json", body: "{" },
    { contentType: "application/json", body: '{"a":' },
    { contentType: "application/json", body: "{'single': 'quotes'}" },
    { contentType: "application/json", body: '{"a": NaN}' },
    { contentType: "application/json", body: '{"a": Infinity}' },
    { contentType: "application/json", body: '{"a": 1,}' },
    { contentType: "application/json", body: "[1, 2, 3]" },
    { contentType: "application/json", body: '"a string"' },
    { contentType: "application/json", body: "42" },
    { contentType: "application/json", body: "true" },
    { contentType: "application/json", body: "\u0000\u0001\u0002" },
    { contentType: "application/json", body: "\uFEFF{}}" },
    { contentType: "application/json; charset=utf-16", body: "{]" },
    { contentType: "application/xml", body: "<a><b></a>" },
    { contentType: "text/xml", body: "<?xml version='1.0'?><!DOCTYPE x [<!ENTITY e SYSTEM 'file:///etc/passwd'>]><x>&e;</x>" },
    { contentType: "multipart/form-data", body: "no boundary given" },
    { contentType: "multipart/form-data; boundary=zz", body: '--zz\r\nContent-Disposition: form-data; name="a"\r\n\r\ntruncated' },
    {
      contentType: "multipart/form-data; boundary=zz",
      body: '--zz\r\nContent-Disposition: form-data; name="@jsonPayload"\r\n\r\n{broken\r\n--zz--\r\n',
    },
    { contentType: "application/x-www-form-urlencoded", body: "a=%zz&b=%" },
  ),
  fc
    .json()
    .filter((text) => !text.trim().startsWith("{") && text.trim() !== "null")
    .map((body) => ({ contentType: "application/json", body })),
  fc.tuple(fc.integer({ min: 2_000, max: 20_000 }), fc.constantFrom("[", '{"a":')).map(([n, open]) => ({
    contentType: "application/json",
    body: open.repeat(n),
  })),
);

/** Texts that fail a trimmed length rule of `min`-`max` characters (or are not text at all). */
export function badText(min: number, max: number): fc.Arbitrary<unknown> {
  const tooShort = min > 0 ? [fc.string({ unit: fc.constantFrom("a", "é", "🙂", "<"), maxLength: min - 1 }).map((s) => ` ${s} `)] : [];
  return fc.oneof(
    ...tooShort,
    fc.integer({ min: max + 1, max: max + 5000 }).map((n) => "x".repeat(n)),
    ...(min > 0 ? [fc.constantFrom<unknown>(null, 5, true, [], {}, ["a valid looking text"], "   ", "\n\t")] : []),
  );
}

/** Values that are not one of `values`, compared the forgiving way (trimmed, any case). */
export function badChoice(values: readonly string[]): fc.Arbitrary<unknown> {
  const known = new Set(values.map((v) => v.toLowerCase()));
  return fc.oneof(
    hostileString.filter((s) => !known.has(s.trim().toLowerCase())),
    fc.constantFrom<unknown>(null, 0, 1, true, {}, [values[0]], [values[0], values[1]]),
  );
}

/** Non-empty texts (after trimming) that are not one of `values` in any case: for fields where empty means "the default". */
export function badNonEmptyChoice(values: readonly string[]): fc.Arbitrary<string> {
  const known = new Set(values.map((v) => v.toLowerCase()));
  return hostileString.filter((s) => s.trim() !== "" && !known.has(s.trim().toLowerCase()));
}

/** Values that are not a whole number from `min` to `max` in a JSON number. */
export function badWholeNumber(min: number, max: number): fc.Arbitrary<unknown> {
  return fc.oneof(
    fc.constantFrom<unknown>(min - 1, max + 1, min + 0.5, -1e308, 1e308, 2 ** 53 + 2, null, true, "1", String(min), [min], { value: min }),
    fc.integer({ min: max + 1 }),
    fc.integer({ max: min - 1 }),
    fc.double({ noNaN: true, noDefaultInfinity: true }).filter((d) => !Number.isInteger(d)),
  );
}

/** Values that are neither a boolean nor null. */
export const notBoolean: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom<unknown>("true", "false", 1, 0, [], {}, [true], "on", "yes"),
  hostileString,
);

/** Values that are not a boolean (null included). */
export const notBooleanOrNull: fc.Arbitrary<unknown> = fc.oneof(fc.constant(null), notBoolean);

/** Text no e-mail field accepts. */
export const badEmail: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom<unknown>("not-an-email", "a@", "@b.c", "a b@c.d", "plainaddress", "two@@at.signs", 5, ["a@b.c"]),
  hostileString.filter((s) => s.trim() !== "" && !s.includes("@")),
);

/** An IPv4 address from the documentation and test ranges, for X-Forwarded-For. */
export const clientIp: fc.Arbitrary<string> = fc
  .tuple(fc.constantFrom("198.51.100", "203.0.113", "192.0.2"), fc.integer({ min: 1, max: 254 }))
  .map(([net, host]) => `${net}.${host}`);
