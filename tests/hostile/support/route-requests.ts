// Requests to the custom routes, each with at least one defect that must make it fail (or a
// read), generated from the route specs.
import fc from "fast-check";
import { badIdempotencyKey, clientIp, hostileValue, junkFields, junkId, malformedBody, type RawBody } from "./arbitraries.ts";
import { enc, PEOPLE, type Caller, type Draft } from "./fuzz-kit.ts";
import { hostileQueryValue, type RouteSpec, type Who } from "./route-spec-kit.ts";

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

export function routeRequest(template: string, spec: RouteSpec): fc.Arbitrary<Draft> {
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
