// Every operation of the published document (openapi.json) carries examples: each required
// parameter, each request body and each 2xx answer. They come from the contract's schemas
// (v.examples), so each example is checked against its own valibot schema here; that the
// server accepts the request examples is tests/api/contract-examples.test.ts.
import * as v from "valibot";
import { describe, expect, it } from "vitest";
import openapi from "../../pocketbase/pb_hooks/lib/api/openapi.json" with { type: "json" };
import { ADMIN_ROUTES } from "@/lib/api-contract/admin/index";
import { examplesOf, type ApiRoute } from "@/lib/api-contract/define";
import { API_ROUTES } from "@/lib/api-contract/index";

type Json = Record<string, unknown>;
interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  example?: unknown;
  schema: { examples?: unknown[] };
}
interface Operation {
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { schema: Json }> };
  responses: Record<string, { content?: Record<string, { schema: Json }> }>;
}

const schemas = openapi.components.schemas as Record<string, Json>;
/** A schema with its $ref followed. */
const resolve = (schema: Json): Json => {
  const ref = schema["$ref"];
  return typeof ref === "string" ? resolve(schemas[ref.split("/").at(-1) ?? ""] ?? {}) : schema;
};
const hasExample = (schema: Json) => ((resolve(schema)["examples"] as unknown[] | undefined)?.length ?? 0) > 0;

const operations = Object.entries(openapi.paths as Record<string, Record<string, Operation>>).flatMap(([path, item]) =>
  Object.entries(item).map(([method, op]) => ({ call: `${method.toUpperCase()} ${path}`, op })),
);

/** Problems of each example of `schema` against it: [] when all pass. */
function invalidExamples(name: string, schema: v.GenericSchema): string[] {
  return examplesOf(schema).flatMap((example, i) => {
    const result = v.safeParse(schema, example);
    return result.success ? [] : [`${name} example ${i}: ${result.issues.map((issue) => v.getDotPath(issue) ?? issue.message).join(", ")}`];
  });
}

describe("the published document's examples", () => {
  it("cover every operation: each required parameter, each request body and each 2xx answer", () => {
    expect(operations.length).toBe(API_ROUTES.length);
    const missing: string[] = [];
    for (const { call, op } of operations) {
      for (const p of op.parameters ?? [])
        if (p.required && p.example === undefined && !p.schema.examples?.length) missing.push(`${call}: parameter ${p.name}`);
      const body = op.requestBody?.content["application/json"]?.schema;
      if (body && !hasExample(body)) missing.push(`${call}: body`);
      for (const [status, answer] of Object.entries(op.responses)) {
        if (!status.startsWith("2")) continue;
        for (const [media, content] of Object.entries(answer.content ?? {}))
          if (!hasExample(content.schema)) missing.push(`${call}: ${status} ${media}`);
      }
    }
    expect(missing).toEqual([]);
  });
});

describe("the contract's examples", () => {
  const routes: readonly ApiRoute[] = [...API_ROUTES, ...ADMIN_ROUTES];

  it("give every /api/v1 answer and every request body one", () => {
    expect(API_ROUTES.filter((r) => examplesOf(r.response).length === 0).map((r) => r.id)).toEqual([]);
    expect(routes.filter((r) => r.body && examplesOf(r.body).length === 0).map((r) => r.id)).toEqual([]);
  });

  it("keep to their own schemas (valibot safeParse)", () => {
    const problems = routes.flatMap((r) => [
      ...invalidExamples(`${r.id} answer`, r.response),
      ...(r.body ? invalidExamples(`${r.id} body`, r.body) : []),
    ]);
    expect(problems).toEqual([]);
    expect(routes.reduce((n, r) => n + examplesOf(r.response).length, 0)).toBeGreaterThanOrEqual(API_ROUTES.length);
  });

  it("fail a wrong example", () => {
    const schema = v.pipe(v.object({ id: v.string() }), v.examples([{ id: 1 } as unknown as { id: string }]));
    expect(invalidExamples("wrong", schema)).toEqual(["wrong example 0: id"]);
  });
});
