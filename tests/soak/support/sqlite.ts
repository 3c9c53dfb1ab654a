// Reading a PocketBase data.db from the tests without PocketBase: Python's sqlite3 module
// (python3 is a CI dependency already; Node 20 has no node:sqlite). The database is always
// opened read-only (`file:...?mode=ro`), so the checks can run on a live WAL database beside
// PocketBase, on the files a kill -9 left behind, or on a restored copy, and change nothing.
import { execFile } from "node:child_process";

/** Python that opens `path` read-only as `con` (rows as sqlite3.Row). */
export const OPEN_READ_ONLY = [
  // A read-only URI; `?` and `#` in a path must be escaped to stay part of it.
  "con = sqlite3.connect('file:' + urllib.parse.quote(path) + '?mode=ro', uri=True)",
  "con.row_factory = sqlite3.Row",
].join("\n");

/**
 * Runs `script` (Python 3; json, sqlite3, sys and urllib.parse imported) with `arg`, the
 * JSON `input` decoded; the script assigns its answer to `out`, which comes back decoded.
 */
export function runPython<T>(script: string, input: unknown = null): Promise<T> {
  const program = [
    "import json, sqlite3, sys, urllib.parse",
    "arg = json.loads(sys.argv[1])",
    "out = None",
    script,
    "sys.stdout.write(json.dumps(out))",
  ].join("\n");
  return new Promise((resolve, reject) => {
    execFile("python3", ["-c", program, JSON.stringify(input)], { maxBuffer: 256 * 1024 * 1024 }, (err, stdout, stderr) => {
      if (err) {
        reject(new Error(`python3 failed: ${stderr.trim() || err.message}`));
        return;
      }
      try {
        resolve(JSON.parse(stdout) as T);
      } catch {
        reject(new Error(`python3 answered no JSON: ${stdout.slice(0, 500)}`));
      }
    });
  });
}

/**
 * Runs `script` with `con`, a read-only sqlite3 connection to `dbFile`, and `arg`, the JSON
 * `input` decoded; the script assigns its answer to `out`.
 */
export function withDatabase<T>(dbFile: string, script: string, input: unknown = null): Promise<T> {
  return runPython<T>(["path, arg = arg['path'], arg['input']", OPEN_READ_ONLY, script, "con.close()"].join("\n"), {
    path: dbFile,
    input,
  }).catch((err: Error) => {
    throw new Error(`reading ${dbFile}: ${err.message}`);
  });
}

/** The rows of one SQL query (named parameters from `params`), as plain objects. */
export function queryRows<T = Record<string, unknown>>(dbFile: string, sql: string, params: Record<string, unknown> = {}): Promise<T[]> {
  return withDatabase<T[]>(dbFile, "out = [dict(r) for r in con.execute(arg['sql'], arg['params']).fetchall()]", { sql, params });
}
