// The two servers `npm run bench:public` compares, each run as a child process of its own
// (this file again, in the role BENCH_PUBLIC_ROLE names): the whole shop on a throwaway
// data dir, and the plain static file server that is the reference.
import { spawn, type ChildProcess } from "node:child_process";
import { createReadStream, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { isMain } from "./run.ts";
import { BENCH_SUPERUSER } from "./shop.ts";

export interface ShopInfo {
  url: string;
  pocketbaseUrl: string;
  pocketbasePid: number;
  paths: string[];
}

const THIS_FILE = fileURLToPath(import.meta.url);

/** This file again in a child process (under tsx, as this one runs), in `role`. */
export function child(role: "shop" | "static", env: Record<string, string> = {}): { process: ChildProcess; ready: Promise<string> } {
  const proc = spawn(process.execPath, [...process.execArgv, THIS_FILE], {
    env: { ...process.env, ...env, BENCH_PUBLIC_ROLE: role },
    stdio: ["pipe", "pipe", "inherit"],
  });
  const ready = new Promise<string>((resolve, reject) => {
    const lines = createInterface({ input: proc.stdout });
    lines.once("line", resolve);
    proc.once("exit", (code) => reject(new Error(`the ${role} process exited (code ${code}) before it was ready`)));
  });
  return { process: proc, ready };
}

/** Stops a child by closing its stdin (it shuts down cleanly), then waits for it. */
export function stop(proc: ChildProcess): Promise<void> {
  if (proc.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    proc.once("exit", () => resolve());
    proc.stdin?.end();
    setTimeout(() => proc.kill("SIGKILL"), 15_000).unref();
  });
}

/** Child role "shop": the whole shop on a throwaway data dir; prints where it listens. */
async function runShop(): Promise<void> {
  const { startShop } = await import("../../server/shop.ts");
  const { PUBLIC_PATHS } = await import("../../src/lib/server/page-cache.ts");
  const { freePort } = await import("../../tests/support/pocketbase.ts");
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "proxyshop-bench-public-"));
  const shop = await startShop({
    webPort: await freePort(),
    pocketbasePort: await freePort(),
    dataDir,
    superuserEmail: BENCH_SUPERUSER.email,
    superuserPassword: BENCH_SUPERUSER.password,
    hooksEnv: { PAYMENTS_TEST_MODE: "true" },
  });
  const info: ShopInfo = {
    url: shop.url,
    pocketbaseUrl: shop.pocketbase.url,
    pocketbasePid: shop.pocketbase.child.pid!,
    paths: [...PUBLIC_PATHS],
  };
  process.stdout.write(`${JSON.stringify(info)}\n`);
  process.stdin.resume();
  process.stdin.once("end", () => {
    void shop.stop().then(() => {
      rmSync(dataDir, { recursive: true, force: true });
      process.exit(0);
    });
  });
}

const STATIC_TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".txt": "text/plain; charset=utf-8",
  ".xml": "application/xml",
};

/**
 * Child role "static": the reference, a plain static file server over BENCH_STATIC_DIR in
 * the way sirv serves a production build (file table and headers built at start,
 * `/pricing` -> pricing.html, `/` -> index.html, body streamed from disk per request).
 */
function runStatic(): void {
  const dir = process.env["BENCH_STATIC_DIR"]!;
  const files = new Map<string, { file: string; headers: Record<string, string | number> }>();
  for (const name of readdirSync(dir)) {
    const file = path.join(dir, name);
    const stat = statSync(file);
    const headers = {
      "Content-Type": STATIC_TYPES[path.extname(name)] ?? "application/octet-stream",
      "Content-Length": stat.size,
      "Last-Modified": stat.mtime.toUTCString(),
      ETag: `W/"${stat.size}-${stat.mtime.getTime()}"`,
      "Cache-Control": "no-cache",
    };
    const url = name === "index.html" ? "/" : `/${name.replace(/\.html$/, "")}`;
    files.set(url, { file, headers });
  }
  // Under /memory/ the same files from memory (res.end(bytes)): the ceiling of Node's http.
  const memory = new Map(
    [...files].map(([url, entry]) => [`/memory${url === "/" ? "" : url}/`, { ...entry, bytes: readFileSync(entry.file) }]),
  );
  const server = http.createServer((req, res) => {
    const url = (req.url ?? "/").split("?")[0]!;
    const inMemory = memory.get(url);
    if (inMemory) {
      res.writeHead(200, inMemory.headers).end(inMemory.bytes);
      return;
    }
    const entry = files.get(url);
    if (!entry) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, entry.headers);
    createReadStream(entry.file).pipe(res);
  });
  server.keepAliveTimeout = 65_000;
  server.listen(0, "127.0.0.1", () => {
    process.stdout.write(`http://127.0.0.1:${(server.address() as { port: number }).port}\n`);
  });
  process.stdin.resume();
  process.stdin.once("end", () => {
    server.closeAllConnections();
    server.close(() => process.exit(0));
  });
}

if (isMain(import.meta.url)) {
  const role = process.env["BENCH_PUBLIC_ROLE"];
  if (role === "shop") await runShop();
  else if (role === "static") runStatic();
}
