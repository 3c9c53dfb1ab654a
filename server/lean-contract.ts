// Build step: in the browser's bundles, a contract route (lib/api-contract, `route({...})` or a
// file's `routesOf({...})` maker and its `maker.get(path, {...})` routes) keeps
// only what the typed caller sends it by (lib/api-contract/client.ts requestOf: method, path,
// base, idempotency). Its schemas, texts and scope are for the server, the OpenAPI document
// and the types; left in, every island that calls a route would ship the route's valibot
// schemas (and the schemas would pull in more of valibot). The schemas an island does use lose
// their examples (v.examples: the documents' and the tests'). The server build keeps all.
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

const METHODS: ReadonlySet<string> = new Set(["get", "post", "put", "patch", "delete"]);

const ROUTE_FUNCTIONS: ReadonlySet<string> = new Set(["route", "routesOf", "routeList"]);

/** A call that makes routes, and its object when it has one. */
interface RouteCall {
  call: Node;
  definition: Node | undefined;
}

/**
 * The calls of `code` that make routes: every `route({...})`, `const maker = routesOf({...})`
 * (its defaults), `maker.get(path, {...})` (and post, put, patch, delete) and
 * `routeList({...})` (its object names the routes: never cut).
 */
function routeCalls(root: Node): RouteCall[] {
  const nodes = [...nodesOf(root)];
  const makers = new Set<string>();
  for (const node of nodes) {
    const init = node["init"] as Node | undefined;
    const id = node["id"] as Node | undefined;
    const callee = init?.["callee"] as Node | undefined;
    if (node.type === "VariableDeclarator" && id?.type === "Identifier" && callee?.type === "Identifier" && callee["name"] === "routesOf")
      makers.add(id["name"] as string);
  }
  const found: RouteCall[] = [];
  for (const node of nodes) {
    if (node.type !== "CallExpression") continue;
    const callee = node["callee"] as Node;
    const args = (node["arguments"] as Node[] | undefined) ?? [];
    let definition: Node | undefined;
    if (callee.type === "Identifier" && ROUTE_FUNCTIONS.has(callee["name"] as string)) definition = args[0];
    else if (callee.type === "MemberExpression" && !callee["computed"]) {
      const object = callee["object"] as Node;
      const property = callee["property"] as Node;
      if (object.type === "Identifier" && makers.has(object["name"] as string) && METHODS.has(property["name"] as string))
        definition = args[args.length - 1];
      else continue;
    } else continue;
    found.push({ call: node, definition: definition?.type === "ObjectExpression" ? definition : undefined });
  }
  return found;
}

const routeObjects = (root: Node): Node[] =>
  routeCalls(root).flatMap(({ call, definition }) => (definition && !isRouteList(call) ? [definition] : []));
const isRouteList = (call: Node) => (call["callee"] as Node)["name"] === "routeList";

/** The keys of every route object of `code` (`parse` as for leanRoutes), in order. */
export function routeObjectKeys(code: string, parse: (code: string) => unknown): (string | null)[][] {
  return routeObjects(parse(code) as Node).map((definition) => (definition["properties"] as Node[]).map(keyName));
}

/**
 * `code` (JavaScript) with every route object (routeObjects) cut down to BROWSER_ROUTE_KEYS and
 * without its schemas' examples; null when there is nothing to cut. `parse` is the bundler's (ESTree with offsets).
 */
export function leanRoutes(code: string, parse: (code: string) => unknown): string | null {
  if (!code.includes("route(") && !code.includes("routesOf(") && !code.includes("examples(")) return null;
  const root = parse(code) as Node;
  const cuts: Cut[] = [];
  const pure: Cut[] = [];
  for (const { call, definition } of routeCalls(root)) {
    // Making a route changes nothing else: a route no island calls leaves the bundle.
    pure.push({ start: call.start, end: call.start, text: "/* @__PURE__ */ " });
    if (!definition || isRouteList(call)) continue;
    const properties = definition["properties"] as Node[];
    const kept = properties.filter((property) => {
      const name = keyName(property);
      return name === null || BROWSER_ROUTE_KEYS.has(name);
    });
    if (kept.length === properties.length) continue;
    const text = `{ ${kept.map((property) => code.slice(property.start, property.end)).join(", ")} }`;
    cuts.push({ start: definition.start, end: definition.end, text });
  }
  const inside = (cut: Cut) => cuts.some((outer) => outer.start <= cut.start && cut.end <= outer.end);
  const examples = exampleCuts(root).filter((cut) => !inside(cut));
  if (cuts.length === 0 && examples.length === 0) return null;
  cuts.push(...examples, ...pure);
  // Cuts do not overlap, and a call starts before its object: cut from the last, so the
  // earlier offsets stay right.
  let lean = code;
  for (const { start, end, text } of cuts.sort((a, b) => b.start - a.start)) lean = lean.slice(0, start) + text + lean.slice(end);
  return lean;
}

interface Cut {
  start: number;
  end: number;
  text: string;
}

/**
 * Every `v.examples([...])` of a `v.pipe(...)`, with the comma before it: examples are for the
 * OpenAPI documents and the tests, and the browser never reads them.
 */
function exampleCuts(root: Node): Cut[] {
  const isV = (callee: Node | undefined, name: string) =>
    callee?.type === "MemberExpression" &&
    (callee["object"] as Node).type === "Identifier" &&
    (callee["object"] as Node)["name"] === "v" &&
    (callee["property"] as Node)["name"] === name;
  const cuts: Cut[] = [];
  for (const node of nodesOf(root)) {
    if (node.type !== "CallExpression" || !isV(node["callee"] as Node, "pipe")) continue;
    const args = node["arguments"] as Node[];
    args.forEach((arg, i) => {
      const previous = args[i - 1];
      if (previous && arg.type === "CallExpression" && isV(arg["callee"] as Node, "examples"))
        cuts.push({ start: previous.end, end: arg.end, text: "" });
    });
  }
  return cuts;
}

/** The Vite plugin: client build only, modules of src/lib/api-contract (and of its admin/ routes). */
export function leanContract(): Plugin {
  return {
    name: "proxy-shop:lean-contract",
    apply: "build",
    enforce: "post",
    transform(code, id, options) {
      if (options?.ssr || !/\/src\/lib\/api-contract\/(?:admin\/)?[^/]+\.ts$/.test(id.split("?")[0] ?? "")) return null;
      const lean = leanRoutes(code, (source) => this.parse(source));
      return lean === null ? null : { code: lean, map: null };
    },
  };
}
