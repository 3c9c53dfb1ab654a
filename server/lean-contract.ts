// Build step: in the browser's bundles, a contract route (lib/api-contract, `route({...})`) keeps
// only what the typed caller sends it by (lib/api-contract/client.ts requestOf: method, path,
// base, idempotency). Its schemas, texts and scope are for the server, the OpenAPI document
// and the types; left in, every island that calls a route would ship the route's valibot
// schemas (and the schemas would pull in more of valibot). The server build keeps them whole.
import type { Plugin } from "vite";

/** What a route keeps in the browser: what requestOf reads. */
export const BROWSER_ROUTE_KEYS: ReadonlySet<string> = new Set(["method", "path", "base", "idempotency"]);

interface Node {
  type: string;
  start: number;
  end: number;
  [key: string]: unknown;
}

const isNode = (value: unknown): value is Node => typeof value === "object" && value !== null && typeof (value as Node).type === "string";

function* nodesOf(node: Node): Generator<Node> {
  yield node;
  for (const value of Object.values(node)) {
    if (Array.isArray(value)) {
      for (const item of value) if (isNode(item)) yield* nodesOf(item);
    } else if (isNode(value)) yield* nodesOf(value);
  }
}

/** The property's name when it is a plain `name: value` (or "name": value). */
function keyName(property: Node): string | null {
  if (property.type !== "Property" || property["computed"]) return null;
  const key = property["key"] as Node;
  if (key.type === "Identifier") return key["name"] as string;
  if (key.type === "Literal" && typeof key["value"] === "string") return key["value"];
  return null;
}

/**
 * `code` (JavaScript) with every `route({...})` call's object cut down to BROWSER_ROUTE_KEYS;
 * null when there is nothing to cut. `parse` is the bundler's (ESTree with offsets).
 */
export function leanRoutes(code: string, parse: (code: string) => unknown): string | null {
  if (!code.includes("route(")) return null;
  const cuts: { start: number; end: number; text: string }[] = [];
  for (const node of nodesOf(parse(code) as Node)) {
    const callee = node["callee"] as Node | undefined;
    const [definition] = (node["arguments"] as Node[] | undefined) ?? [];
    if (node.type !== "CallExpression" || callee?.type !== "Identifier" || callee["name"] !== "route") continue;
    if (definition?.type !== "ObjectExpression") continue;
    const properties = definition["properties"] as Node[];
    const kept = properties.filter((property) => {
      const name = keyName(property);
      return name === null || BROWSER_ROUTE_KEYS.has(name);
    });
    if (kept.length === properties.length) continue;
    const text = `{ ${kept.map((property) => code.slice(property.start, property.end)).join(", ")} }`;
    cuts.push({ start: definition.start, end: definition.end, text });
  }
  if (cuts.length === 0) return null;
  // Route definitions do not nest: cut from the last, so the earlier offsets stay right.
  let lean = code;
  for (const { start, end, text } of cuts.sort((a, b) => b.start - a.start)) lean = lean.slice(0, start) + text + lean.slice(end);
  return lean;
}

/** The Vite plugin: client build only, modules of src/lib/api-contract. */
export function leanContract(): Plugin {
  return {
    name: "proxy-shop:lean-contract",
    apply: "build",
    enforce: "post",
    transform(code, id, options) {
      if (options?.ssr || !/\/src\/lib\/api-contract\/[^/]+\.ts$/.test(id.split("?")[0] ?? "")) return null;
      const lean = leanRoutes(code, (source) => this.parse(source));
      return lean === null ? null : { code: lean, map: null };
    },
  };
}
