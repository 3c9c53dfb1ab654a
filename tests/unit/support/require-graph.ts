// The `require` graph of pocketbase/pb_hooks and the layer rules it must keep (ARCHITECTURE.md
// "Layers in the hooks"): core (lib/core/ and the JSON facts: lib/*.json) requires only core;
// a domain (any other lib/<folder>/) requires core, its own folder and other domains, one
// way: no two domain folders require each other, directly or around a longer loop; routes
// (the *.pb.js files and the /api/v1 views in lib/api/) may require anything, and nothing
// but a route requires a route. No file requires itself around a loop either.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

/** A require found in a file: `to` is the path under pb_hooks; `line` 1-based. */
export interface RequireEdge {
  from: string;
  to: string;
  line: number;
}

export interface RequireGraph {
  /** Every .js file under pb_hooks, as "accounts.pb.js" or "lib/core/api.js". */
  files: string[];
  edges: RequireEdge[];
  /** A require whose target the graph cannot read (not a static `${__hooks}/...` path). */
  unreadable: { from: string; line: number; text: string }[];
}

const STATIC = /^require\(\s*`\$\{__hooks\}\/([^`$]+)`\s*\)/;
const CONCAT = /^require\(\s*__hooks\s*\+\s*["']\/([^"']+)["']\s*\)/;

/**
 * The source with comments and "..."/'...' strings blanked, line breaks kept (template
 * literals stay: the require paths are in them). A regex literal holding a quote blanks the
 * rest of its line at worst; no real require hides there.
 */
function code(source: string): string {
  let out = "";
  let i = 0;
  const blank = (text: string) => text.replace(/[^\n]/g, " ");
  while (i < source.length) {
    const two = source.slice(i, i + 2);
    let end = i + 1;
    if (two === "//") end = source.indexOf("\n", i) < 0 ? source.length : source.indexOf("\n", i);
    else if (two === "/*") end = source.indexOf("*/", i + 2) < 0 ? source.length : source.indexOf("*/", i + 2) + 2;
    else if (source[i] === '"' || source[i] === "'") {
      const quote = source[i];
      end = i + 1;
      while (end < source.length && source[end] !== quote && source[end] !== "\n") end += source[end] === "\\" ? 2 : 1;
      end = Math.min(source.length, end + 1);
    } else {
      out += source[i];
      i += 1;
      continue;
    }
    out += blank(source.slice(i, end));
    i = end;
  }
  return out;
}

/** The require graph of the hook files in `sources` (path under pb_hooks → source text). */
export function graphOf(sources: Record<string, string>): RequireGraph {
  const graph: RequireGraph = { files: Object.keys(sources).sort(), edges: [], unreadable: [] };
  for (const from of graph.files) {
    const text = code(sources[from] ?? "");
    for (const match of text.matchAll(/\brequire\s*\(/g)) {
      const at = match.index;
      const line = text.slice(0, at).split("\n").length;
      const rest = text.slice(at, at + 300);
      const target = STATIC.exec(rest) ?? CONCAT.exec(rest);
      if (target?.[1]) graph.edges.push({ from, to: target[1], line });
      else graph.unreadable.push({ from, line, text: rest.split("\n")[0] ?? "" });
    }
  }
  return graph;
}

/** The graph of the hook files under `dir` (pocketbase/pb_hooks). */
export function readGraph(dir: string): RequireGraph {
  const sources: Record<string, string> = {};
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith(".js")) continue;
    const file = path.relative(dir, path.join(entry.parentPath, entry.name)).split(path.sep).join("/");
    sources[file] = readFileSync(path.join(dir, file), "utf8");
  }
  return graphOf(sources);
}

export type Layer = { kind: "core" } | { kind: "routes" } | { kind: "domain"; name: string };

/** The layer of a file (or a required path) under pb_hooks. */
export function layerOf(file: string): Layer {
  const parts = file.split("/");
  if (parts.length === 1 || parts[0] !== "lib") return { kind: "routes" }; // *.pb.js
  if (parts.length === 2) return { kind: "core" }; // lib/catalog.json and the other shared facts
  if (parts[1] === "core") return { kind: "core" };
  if (parts[1] === "api") return { kind: "routes" };
  return { kind: "domain", name: parts[1] ?? "" };
}

const where = (edge: RequireEdge) => `${edge.from}:${edge.line} requires ${edge.to}`;

/**
 * The strongly connected groups (of 2 or more nodes, or 1 with a loop on itself) of a
 * directed graph, each sorted, found with Tarjan's algorithm.
 */
export function cycles(nodes: string[], next: (node: string) => string[]): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string) => {
    index.set(node, counter);
    low.set(node, counter);
    counter += 1;
    stack.push(node);
    onStack.add(node);
    for (const to of next(node)) {
      if (!index.has(to)) {
        visit(to);
        low.set(node, Math.min(low.get(node) ?? 0, low.get(to) ?? 0));
      } else if (onStack.has(to)) low.set(node, Math.min(low.get(node) ?? 0, index.get(to) ?? 0));
    }
    if (low.get(node) !== index.get(node)) return;
    const group: string[] = [];
    for (;;) {
      const top = stack.pop() as string;
      onStack.delete(top);
      group.push(top);
      if (top === node) break;
    }
    if (group.length > 1 || next(node).includes(node)) found.push(group.sort());
  };
  for (const node of nodes) if (!index.has(node)) visit(node);
  return found;
}

/** Every broken layer rule of `graph`, each naming the files that break it; [] when none. */
export function layerViolations(graph: RequireGraph): string[] {
  const problems: string[] = [];
  const known = new Set(graph.files);
  for (const u of graph.unreadable) {
    problems.push(`${u.from}:${u.line} has a require the layer test cannot read (${u.text}): write require(\`\${__hooks}/lib/...\`)`);
  }
  const domainEdges = new Map<string, RequireEdge[]>();
  for (const edge of graph.edges) {
    if (edge.to.endsWith(".js") && !known.has(edge.to)) problems.push(`${where(edge)}, which does not exist`);
    const from = layerOf(edge.from);
    const to = layerOf(edge.to);
    if (from.kind === "core" && to.kind !== "core") {
      problems.push(
        `${where(edge)}: core requires only core (lib/core/, the JSON facts), not a ${to.kind === "domain" ? "domain" : "route"}`,
      );
    }
    if (from.kind === "domain" && to.kind === "routes") problems.push(`${where(edge)}: a domain (${from.name}) never requires routes`);
    if (from.kind === "domain" && to.kind === "domain" && from.name !== to.name) {
      const key = `${from.name}>${to.name}`;
      domainEdges.set(key, [...(domainEdges.get(key) ?? []), edge]);
    }
  }
  const domains = [...new Set([...domainEdges.keys()].flatMap((key) => key.split(">")))].sort();
  const uses = (name: string) => domains.filter((to) => domainEdges.has(`${name}>${to}`));
  for (const group of cycles(domains, uses)) {
    const inside = new Set(group);
    const links = [...domainEdges]
      .filter(([key]) => key.split(">").every((name) => inside.has(name)))
      .flatMap(([, edges]) => edges.map(where));
    const kind = group.length === 2 ? "require each other" : "require each other around a loop";
    problems.push(`domains ${group.join(", ")} ${kind} (a domain may use another only one way):\n    ${links.join("\n    ")}`);
  }
  const fileEdges = graph.edges.filter((edge) => known.has(edge.to));
  const requiredBy = (file: string) => fileEdges.filter((edge) => edge.from === file).map((edge) => edge.to);
  for (const group of cycles(graph.files, requiredBy)) {
    const inside = new Set(group);
    const links = fileEdges.filter((edge) => inside.has(edge.from) && inside.has(edge.to)).map(where);
    problems.push(`a file cycle: ${group.join(", ")}:\n    ${[...new Set(links)].join("\n    ")}`);
  }
  return problems;
}
