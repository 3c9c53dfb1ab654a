// The browser's bundles keep of each contract route only what the typed caller sends it by
// (server/lean-contract.ts): the cut keeps every route's method, path, base and Idempotency-Key
// rule, drops its schemas and texts, and the caller builds the same request from what is left.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { transformSync } from "esbuild";
import { parseAst } from "rollup/parseAst";
import { describe, expect, it } from "vitest";
import { API_ROUTES } from "@/lib/api-contract";
import { requestOf } from "@/lib/api-contract/client";
import type { ApiRoute } from "@/lib/api-contract/define";
import { BROWSER_ROUTE_KEYS, leanRoutes } from "../../server/lean-contract.ts";

const CONTRACT = path.resolve(import.meta.dirname, "../../src/lib/api-contract");
const parse = (code: string) => parseAst(code);

/** The keys of every `route({...})` object in `code`. */
function routeKeys(code: string): string[][] {
  const found: string[][] = [];
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (typeof node !== "object" || node === null) return;
    const n = node as { type?: string; callee?: { name?: string }; arguments?: { properties?: { key: { name: string } }[] }[] };
    if (n.type === "CallExpression" && n.callee?.name === "route" && n.arguments?.[0]?.properties)
      found.push(n.arguments[0].properties.map((property) => property.key.name));
    Object.values(node).forEach(visit);
  };
  visit(parse(code));
  return found;
}

describe("the contract's routes in the browser's bundles", () => {
  it("keep their method, path, base and Idempotency-Key rule, and nothing else", () => {
    let routes = 0;
    for (const file of readdirSync(CONTRACT).filter((name) => name.endsWith(".ts"))) {
      const { code } = transformSync(readFileSync(path.join(CONTRACT, file), "utf8"), { loader: "ts", format: "esm" });
      const before = routeKeys(code);
      const lean = leanRoutes(code, parse);
      if (before.length === 0) continue;
      expect(lean, file).not.toBeNull();
      const after = routeKeys(lean ?? "");
      expect(after).toHaveLength(before.length);
      after.forEach((keys, i) => {
        expect(keys).toEqual(before[i]?.filter((key) => BROWSER_ROUTE_KEYS.has(key)));
        expect(keys).toEqual(expect.arrayContaining(["method", "path"]));
      });
      routes += after.length;
    }
    expect(routes).toBeGreaterThanOrEqual(API_ROUTES.length);
  });

  it("still make the same request through the typed caller", () => {
    for (const route of API_ROUTES) {
      const lean = Object.fromEntries(Object.entries(route).filter(([key]) => BROWSER_ROUTE_KEYS.has(key))) as unknown as ApiRoute;
      const params = Object.fromEntries([...route.path.matchAll(/\{(\w+)\}/g)].map(([, name]) => [name, `${name}-1`]));
      const input = { params, query: { limit: "5" }, idempotencyKey: "attempt-1" } as never;
      expect(requestOf(lean, input)).toEqual(requestOf(route, input));
    }
  });

  it("are left alone where nothing is cut", () => {
    expect(leanRoutes("export const A = 1;", parse)).toBeNull();
    expect(leanRoutes('const r = route({ method: "GET", path: "/a" });', parse)).toBeNull();
  });
});
