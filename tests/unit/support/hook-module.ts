// Loads a PocketBase hook module (pocketbase/pb_hooks/lib/...) in Node as the JS VM runs
// it: a CommonJS script without Node's globals, whose `require(`${__hooks}/lib/...`)` of
// another hook module is served the same way. For the modules of pure functions.
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { runInNewContext } from "node:vm";

const HOOKS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../pocketbase/pb_hooks");

function load(file: string, loaded: Map<string, unknown>): unknown {
  if (loaded.has(file)) return loaded.get(file);
  const module = { exports: {} as unknown };
  loaded.set(file, module.exports);
  const require = (target: string) => {
    if (!target.startsWith(HOOKS)) throw new Error(`hook modules load only other hook modules, not ${target}`);
    return target.endsWith(".json") ? (JSON.parse(readFileSync(target, "utf8")) as unknown) : load(target, loaded);
  };
  runInNewContext(readFileSync(file, "utf8"), { module, require, __hooks: HOOKS });
  loaded.set(file, module.exports);
  return module.exports;
}

/** The exports of the hook module at `relative` (e.g. "lib/core/ip-address.js"). */
export function hookModule<T>(relative: string): T {
  return load(path.join(HOOKS, relative), new Map()) as T;
}
