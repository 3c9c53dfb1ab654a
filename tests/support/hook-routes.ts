// The routes the hooks declare, read from pb_hooks' source: suites that must cover every
// route (the admin matrix, the hostile fuzz) fail when a new one has no row.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { HOOKS_DIR } from "../../server/pocketbase-process.ts";

/** Every `routerAdd("METHOD", "/path", ...)` in pb_hooks/*.pb.js, as "METHOD /path", sorted. */
export function declaredRoutes(): string[] {
  const routes: string[] = [];
  for (const file of readdirSync(HOOKS_DIR).filter((f) => f.endsWith(".pb.js"))) {
    const source = readFileSync(path.join(HOOKS_DIR, file), "utf8");
    for (const match of source.matchAll(/routerAdd\(\s*"(\w+)",\s*"([^"]+)"/g)) routes.push(`${match[1]} ${match[2]}`);
  }
  return routes.sort();
}
