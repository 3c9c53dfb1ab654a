// The browser's bundles keep of each contract route only what the typed caller sends it by
// (server/lean-contract.ts): the cut keeps every route's method, path, base and Idempotency-Key
// rule, drops its schemas and texts, and the caller builds the same request from what is left.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { transformSync } from "esbuild";
import { parseAst } from "rollup/parseAst";
import { describe, expect, it } from "vitest";
import { API_ROUTES } from "@/lib/api-contract";
import { ADMIN_ROUTES } from "@/lib/api-contract/admin/index";
import { requestOf } from "@/lib/api-contract/client";
import type { ApiRoute } from "@/lib/api-contract/define";
import { BROWSER_ROUTE_KEYS, leanRoutes, routeObjectKeys } from "../../server/lean-contract.ts";

const CONTRACT = path.resolve(import.meta.dirname, "../../src/lib/api-contract");
const parse = (code: string) => parseAst(code);

describe("the contract's routes in the browser's bundles", () => {
  it("keep their method, path, base and Idempotency-Key rule, and nothing else", () => {
    const routeKeys = (code: string) => routeObjectKeys(code, parse);
    let routes = 0;
    const files = [...readdirSync(CONTRACT), ...readdirSync(path.join(CONTRACT, "admin")).map((name) => `admin/${name}`)];
    for (const file of files.filter((name) => name.endsWith(".ts"))) {
      const { code } = transformSync(readFileSync(path.join(CONTRACT, file), "utf8"), { loader: "ts", format: "esm" });
      const before = routeKeys(code);
      const lean = leanRoutes(code, parse);
      // Examples are the documents' and the tests': none reaches the browser, nor what builds one.
      if (file !== "define.ts") expect(lean ?? code, file).not.toMatch(/examples\(|exampleOf\(/);
      if (before.length === 0) continue;
      expect(lean, file).not.toBeNull();
      const after = routeKeys(lean ?? "");
      expect(after).toHaveLength(before.length);
      after.forEach((keys, i) => {
        expect(keys).toEqual(before[i]?.filter((key) => key !== null && BROWSER_ROUTE_KEYS.has(key)));
      });
      routes += after.length;
    }
    expect(routes).toBeGreaterThanOrEqual(API_ROUTES.length + ADMIN_ROUTES.length);
  });

  it("still make the same request through the typed caller", () => {
    for (const route of [...API_ROUTES, ...ADMIN_ROUTES]) {
      const lean = Object.fromEntries(Object.entries(route).filter(([key]) => BROWSER_ROUTE_KEYS.has(key))) as unknown as ApiRoute;
      const params = Object.fromEntries([...route.path.matchAll(/\{(\w+)\}/g)].map(([, name]) => [name, `${name}-1`]));
      const input = { params, query: { limit: "5" }, idempotencyKey: "attempt-1" } as never;
      expect(requestOf(lean, input)).toEqual(requestOf(route, input));
    }
  });

  it("are left alone where nothing is cut", () => {
    expect(leanRoutes("export const A = 1;", parse)).toBeNull();
    expect(leanRoutes('const r = route({ method: "GET", path: "/a" });', parse)).toBeNull();
    expect(leanRoutes('const a = routesOf({ base: "/api/admin" }); const r = a.get("/a", { idempotency: "optional" });', parse)).toBeNull();
  });

  it("cut a file's route maker and the routes it makes, and no other call", () => {
    const code = [
      'const webhooks = routesOf({ tag: "Webhooks", scope: "webhooks", idempotency: "optional" });',
      'const listWebhooks = webhooks.get("/webhooks", { summary: "Yours", response: Webhook });',
      'const other = cache.get("/webhooks", { summary: "kept" });',
    ].join("\n");
    expect(leanRoutes(code, parse)?.split("\n")).toEqual([
      'const webhooks = /* @__PURE__ */ routesOf({ idempotency: "optional" });',
      'const listWebhooks = /* @__PURE__ */ webhooks.get("/webhooks", {  });',
      'const other = cache.get("/webhooks", { summary: "kept" });',
    ]);
    expect(leanRoutes('const A = v.pipe(v.object({}), v.title("A"), v.examples([{ a: 1 }]));', parse)).toBe(
      'const A = v.pipe(v.object({}), v.title("A"));',
    );
  });
});
