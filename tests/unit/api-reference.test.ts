// The API reference's view data (src/features/api-reference/: reference.ts, curl.ts, ...): every operation
// of the OpenAPI document once, curl examples at the shop's address with the headers and an
// example body the contract accepts, fields flattened, and an anchor for every problem code
// the server answers with.
import { readdirSync, readFileSync } from "node:fs";
import * as v from "valibot";
import { describe, expect, it } from "vitest";
import openapi from "../../pocketbase/pb_hooks/lib/api/openapi.json" with { type: "json" };
import { exampleOf } from "@/features/api-reference/curl";
import type { OpenApiDocument } from "@/features/api-reference/openapi-types";
import { PROBLEM_TYPE_BASE } from "@/features/api-reference/problems";
import { apiBaseUrl, apiReference, type OperationView } from "@/features/api-reference/reference";
import { fieldsOf } from "@/features/api-reference/schema-fields";
import { API_ROUTES } from "@/lib/api-contract/index";

const doc: OpenApiDocument = openapi;
const BASE = "https://shop.example";
const reference = apiReference(doc, `${BASE}/`);
const operations = reference.tags.flatMap((t) => t.operations);
const find = (call: string): OperationView => {
  const op = operations.find((o) => `${o.method} ${o.path}` === call);
  if (!op) throw new Error(`no ${call} in the reference`);
  return op;
};
/** The JSON after -d '...' in a curl example. */
const bodyOf = (curl: string): unknown => {
  const match = /-d '(.*)'$/s.exec(curl);
  return match ? JSON.parse(match[1]!.replaceAll(`'\\''`, "'")) : undefined;
};

describe("apiReference", () => {
  it("shows every operation of the document exactly once, under its tag", () => {
    const inDocument = Object.entries(openapi.paths).flatMap(([path, item]) =>
      Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(inDocument.length).toBeGreaterThan(10);
    expect(operations.map((o) => `${o.method} ${o.path}`).sort()).toEqual([...inDocument].sort());
    expect(new Set(operations.map((o) => o.id)).size).toBe(operations.length);
    expect(find("POST /api/v1/proxies/purchase").id).toBe("op-purchaseproxies");
    expect(reference.tags.find((t) => t.name === "Proxies")?.operations.map((o) => o.path)).toContain("/api/v1/proxies/purchase");
    expect(reference.documentUrl).toBe("/api/v1/openapi.json");
  });

  it("renders whatever the document holds: a new route, an undeclared tag, a self-referencing schema", () => {
    const grown: OpenApiDocument = {
      ...doc,
      paths: {
        ...doc.paths,
        "/api/v1/widgets": {
          post: {
            operationId: "makeWidget",
            tags: ["Widgets"],
            summary: "Make a widget",
            "x-scope": "purchase",
            parameters: [{ name: "Idempotency-Key", in: "header", required: true, schema: { type: "string" } }],
            requestBody: {
              content: {
                "application/json": {
                  schema: { type: "object", properties: { size: { type: "integer", minimum: 3 } }, required: ["size"] },
                },
              },
            },
            responses: { "201": { content: { "application/json": { schema: { $ref: "#/components/schemas/Node" } } } } },
          },
        },
      },
      components: {
        schemas: {
          ...doc.components?.schemas,
          Node: { type: "object", properties: { id: { type: "string" }, parent: { $ref: "#/components/schemas/Node" } }, required: ["id"] },
        },
      },
    };
    const view = apiReference(grown, BASE);
    const widgets = view.tags.at(-1);
    expect(widgets?.name).toBe("Widgets");
    const op = widgets!.operations[0]!;
    expect(op.responseStatus).toBe("201");
    expect(op.responseFields.map((f) => f.name)).toEqual(["id", "parent"]);
    expect(bodyOf(op.curl)).toEqual({ size: 3 });
  });

  it("writes the purchase's curl: POST at the base URL with the key, a fresh Idempotency-Key and a body from the schema", () => {
    const purchase = find("POST /api/v1/proxies/purchase");
    expect(purchase.curl.split(" \\\n  ")).toEqual([
      `curl -X POST "${BASE}/api/v1/proxies/purchase"`,
      `-H "Authorization: Bearer $PROXY_SHOP_KEY"`,
      `-H "Idempotency-Key: $(uuidgen)"`,
      `-H "Content-Type: application/json"`,
      `-d '{"type":"RESIDENTIAL","country":"US","quantity":1}'`,
    ]);
    expect(purchase.scope).toBe("purchase");
    expect(purchase.access).toBe("API key with the purchase scope, or a session");
  });

  it("reads need no Idempotency-Key nor body; key management takes a session; the document itself nothing", () => {
    const list = find("GET /api/v1/proxies");
    expect(list.curl).toBe(`curl "${BASE}/api/v1/proxies" \\\n  -H "Authorization: Bearer $PROXY_SHOP_KEY"`);
    expect(find("GET /api/v1/api-keys").curl).toContain("Bearer $PROXY_SHOP_SESSION");
    expect(find("GET /api/v1/openapi.json").curl).toBe(`curl "${BASE}/api/v1/openapi.json"`);
    expect(find("POST /api/v1/proxies/{id}/rotate").curl).toMatch(
      /^curl -X POST "https:\/\/shop\.example\/api\/v1\/proxies\/[a-z0-9]{15}\/rotate"/,
    );
  });

  it("puts every example at the base URL and makes bodies the contract's own schema accepts", () => {
    for (const op of operations) expect(op.curl).toMatch(new RegExp(`^curl (-X ${op.method} )?"${BASE}/api/v1/`));
    let checked = 0;
    for (const route of API_ROUTES) {
      if (!route.body) continue;
      const op = operations.find((o) => o.method === route.method && o.path === `/api/v1${route.path}`);
      if (!op) continue; // a route added to the contract since the document was written
      const result = v.safeParse(route.body, bodyOf(op.curl));
      expect(result.issues?.map((i) => i.message) ?? [], `${op.method} ${op.path}`).toEqual([]);
      checked++;
    }
    expect(checked).toBeGreaterThanOrEqual(4);
    // A fresh Idempotency-Key exactly where the operation takes one.
    for (const op of operations) {
      const takesKey = op.parameters.some((p) => p.in === "header" && p.name === "Idempotency-Key");
      expect(op.curl.includes(`-H "Idempotency-Key: $(uuidgen)"`), `${op.method} ${op.path}`).toBe(takesKey);
    }
  });

  it("lists parameters, request fields and the answer's fields flattened with dots", () => {
    const list = find("GET /api/v1/proxies");
    expect(list.parameters).toContainEqual({
      in: "query",
      name: "cursor",
      type: "string",
      required: false,
      description: "From the previous page's next_cursor.",
    });
    expect(list.responseFields.map((f) => f.name)).toEqual(
      expect.arrayContaining(["items", "items[].id", "items[].ports.http", "next_cursor"]),
    );
    expect(list.responseFields.find((f) => f.name === "next_cursor")?.type).toBe("string | null");

    const purchase = find("POST /api/v1/proxies/purchase");
    expect(purchase.parameters).toContainEqual(expect.objectContaining({ in: "header", name: "Idempotency-Key", required: true }));
    expect(purchase.requestFields.find((f) => f.name === "type")).toEqual({
      name: "type",
      // The hook always took the type in lower case too; the document now says so.
      type: '"RESIDENTIAL" | "DATACENTER" | "SOCKS5" | "HTTP" | "HTTPS" | "residential" | "datacenter" | "socks5" | "http" | "https"',
      required: true,
      description: "",
    });
    expect(purchase.requestFields.find((f) => f.name === "city")?.required).toBe(false);
    const answer = purchase.responseFields.map((f) => f.name);
    expect(answer).toEqual(expect.arrayContaining(["order.id", "order.items[].unit_price_cents", "proxies[].password", "balance_cents"]));
    expect(purchase.errors.map((e) => e.status)).toEqual(["400", "401", "403", "409", "422", "429", "5XX"]);

    const account = find("GET /api/v1/account");
    expect(account.responseFields.map((f) => f.name)).toContain("limits.api_requests_per_minute");
    expect(account.responseFields.find((f) => f.name === "api_key")?.type).toBe("object | null");
    expect(account.responseFields.map((f) => f.name)).toContain("api_key.spend_cap_cents");
  });

  it("makes examples from schemas: enums' first value, minimums, cents, ids, dates", () => {
    expect(exampleOf(doc, { enum: ["b", "a"] })).toBe("b");
    expect(exampleOf(doc, { type: "integer", minimum: 5 })).toBe(5);
    expect(exampleOf(doc, { type: "integer" }, "spend_cap_cents")).toBe(5000);
    expect(exampleOf(doc, { type: "string", format: "date-time" })).toBe("2027-01-01T00:00:00Z");
    expect(exampleOf(doc, { anyOf: [{ type: "null" }, { type: "boolean" }] })).toBe(true);
    expect(fieldsOf(doc, { type: "string" })).toEqual([]);
  });
});

describe("apiBaseUrl", () => {
  it("is the shop's public address, else the page's origin", () => {
    expect(apiBaseUrl({ SHOP_APP_URL: "https://proxies.example.com/" }, "http://127.0.0.1:4321")).toBe("https://proxies.example.com");
    expect(apiBaseUrl({ APP_URL: "https://app.example.com" }, "http://127.0.0.1:4321")).toBe("https://app.example.com");
    expect(apiBaseUrl({}, "http://127.0.0.1:4321")).toBe("http://127.0.0.1:4321");
    expect(apiReference(doc, "https://proxies.example.com/").baseUrl).toBe("https://proxies.example.com");
  });
});

describe("problem codes", () => {
  /** Every code the Go middlewares and the hooks answer with (NewProblem(status, "code", ...)). */
  const serverCodes = (): Set<string> => {
    const codes = new Set<string>();
    const read = (file: string) => {
      for (const m of readFileSync(file, "utf8").matchAll(/[nN]ewProblem\(\s*[^,]+,\s*"([a-z_]+)"/g)) codes.add(m[1]!);
    };
    // The Go middlewares (pocketbase/devapi, package main) and every hook file.
    for (const dir of ["pocketbase", "pocketbase/devapi"]) {
      for (const file of readdirSync(dir).filter((f) => f.endsWith(".go") && !f.endsWith("_test.go"))) read(`${dir}/${file}`);
    }
    for (const entry of readdirSync("pocketbase/pb_hooks", { withFileTypes: true, recursive: true })) {
      if (entry.isFile() && entry.name.endsWith(".js")) read(`${entry.parentPath}/${entry.name}`);
    }
    return codes;
  };

  it("has an anchor for every code the server uses, where the answers' type points", () => {
    const codes = serverCodes();
    expect(codes).toContain("insufficient_scope");
    const listed = new Map(reference.problems.map((p) => [p.code, p]));
    for (const code of codes) {
      expect(listed.has(code), `${code} is answered by the server but not in the reference`).toBe(true);
      expect(`/docs/api#${listed.get(code)!.anchor}`).toBe(`${PROBLEM_TYPE_BASE}${code.replaceAll("_", "-")}`);
    }
    expect(readFileSync("pocketbase/devapi/problem.go", "utf8")).toContain(`const problemTypeBase = "${PROBLEM_TYPE_BASE}"`);
  });

  it("documents the codes of the key checks, the rate limit and the spend cap", () => {
    expect(reference.problems.map((p) => p.anchor)).toEqual(
      expect.arrayContaining([
        "problem-invalid-api-key",
        "problem-api-key-revoked",
        "problem-api-key-expired",
        "problem-ip-not-allowed",
        "problem-insufficient-scope",
        "problem-session-required",
        "problem-not-for-api-keys",
        "problem-rate-limited",
        "problem-spend-cap-reached",
        "problem-account-suspended",
      ]),
    );
  });
});
