// The routes the hooks declare, read from pb_hooks' source: suites that must cover every
// route (the admin matrix, the hostile fuzz) fail when a new one has no row. The routes are
// the keys of the route tables in lib/api/routes.js ("METHOD /path": handler), and any
// `routerAdd("METHOD", "/path", ...)` a *.pb.js still makes itself.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { HOOKS_DIR } from "../../server/pocketbase-process.ts";

const ROUTE_TABLES = "lib/api/routes.js";

/** Every route of pb_hooks, as "METHOD /path", sorted. */
export function declaredRoutes(): string[] {
  const routes: string[] = [];
  for (const match of readFileSync(path.join(HOOKS_DIR, ROUTE_TABLES), "utf8").matchAll(/^\s*"([A-Z]+) (\/[^"]*)":/gm)) {
    routes.push(`${match[1]} ${match[2]}`);
  }
  for (const file of readdirSync(HOOKS_DIR).filter((f) => f.endsWith(".pb.js"))) {
    const source = readFileSync(path.join(HOOKS_DIR, file), "utf8");
    for (const match of source.matchAll(/routerAdd\(\s*"(\w+)",\s*"([^"]+)"/g)) routes.push(`${match[1]} ${match[2]}`);
  }
  return routes.sort();
}
