// The release tests' sandbox (release.test.ts, release-host.test.ts): the x64 release file
// copied alone into an empty directory and run from there with an environment that holds
// nothing but a PATH with neither node nor go on it and a HOME; `run`, `serve` and the other
// ways the tests start it.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, copyFileSync, mkdirSync, mkdtempSync, openSync, readSync, closeSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect } from "vitest";
import { releaseFile } from "../../scripts/release.ts";
import { builtVersion, startServe, stopAll } from "./support.ts";
import { freePort } from "../support/pocketbase.ts";

export const version = builtVersion();
export const x64 = releaseFile(version, "x64");
export const arm64 = releaseFile(version, "arm64");

/** The release file's directory, its copy there and the environment it runs with (set before the tests). */
export const box = { dir: "", binary: "", env: {} as NodeJS.ProcessEnv };

export function run(args: string[], more: NodeJS.ProcessEnv = {}): { code: number | null; output: string } {
  const result = spawnSync(box.binary, args, { cwd: box.dir, env: { ...box.env, ...more }, encoding: "utf8", timeout: 60_000 });
  return { code: result.status, output: `${result.stdout}${result.stderr}` };
}

export interface Served {
  child: ChildProcess;
  url: string;
  output: () => string;
  /** Milliseconds from spawn to the banner and the home page answering with its own text. */
  startMs: number;
  stop(): Promise<number | null>;
}

export interface ServeOptions {
  /** The web server's host (default 127.0.0.1, asked for as localhost: APP_URL's default). */
  host?: string;
  port?: number;
  /** More environment (a real host's settings). */
  env?: NodeJS.ProcessEnv;
  /** --data (default: none, so ./shop-data). */
  data?: string;
}

export async function serve(options: ServeOptions = {}): Promise<Served> {
  const port = options.port ?? (await freePort());
  const host = options.host ?? "127.0.0.1";
  const origin = host === "127.0.0.1" ? `http://localhost:${port}` : `http://${host}:${port}`;
  const started = Date.now();
  const { child, output, exited } = await startServe(box.binary, {
    cwd: box.dir,
    env: { ...box.env, ...options.env },
    http: `${host}:${port}`,
    args: options.data ? ["--data", options.data] : [],
  });
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`The release file exited (${child.exitCode}):\n${output()}`);
    if (Date.now() > deadline) throw new Error(`The release file did not serve within 90 s:\n${output()}`);
    // The canonical host is localhost (APP_URL's default): ask for it by that name.
    // Serving: the banner printed (its signal handlers set), the home page answering.
    if (output().includes("Proxy shop is running at")) {
      const res = await fetch(`${origin}/`, { redirect: "manual" }).catch(() => null);
      if (res?.status === 200 && (await res.text()).includes("reliable data access")) break;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  const startMs = Date.now() - started;
  return {
    child,
    url: origin,
    output,
    startMs,
    async stop() {
      child.kill("SIGTERM");
      return exited;
    },
  };
}

/**
 * SIGTERM while the shop is still starting (as a service manager may send it): the shop
 * comes up, then stops it all. Resolves with the exit code and whether PocketBase's port
 * still answers afterwards.
 */
export async function stopWhileStarting(): Promise<{ code: number | null; pocketbaseAlive: boolean }> {
  let sent = false;
  const started = await startServe(box.binary, {
    cwd: box.dir,
    env: box.env,
    http: `127.0.0.1:${await freePort()}`,
    onOutput: (output, child) => {
      if (!sent && output.includes("runtime files in")) {
        sent = true;
        child.kill("SIGTERM");
      }
    },
  });
  const code = await started.exited;
  const pocketbaseAlive = await fetch(`http://127.0.0.1:${started.pocketbasePort}/api/health`).then(
    () => true,
    () => false,
  );
  return { code, pocketbaseAlive };
}

/** `run` without blocking this process (a shop it started keeps writing to its pipes meanwhile). */
export function runAsync(args: string[], more: NodeJS.ProcessEnv = {}): Promise<{ code: number | null; output: string }> {
  const child = spawn(box.binary, args, { cwd: box.dir, env: { ...box.env, ...more }, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout.on("data", (c: Buffer) => (output += c.toString()));
  child.stderr.on("data", (c: Buffer) => (output += c.toString()));
  return new Promise((resolve) => child.once("close", (code) => resolve({ code, output })));
}

/** ELF e_machine: 62 x86-64, 183 AArch64. */
export function elfMachine(file: string): number {
  const fd = openSync(file, "r");
  try {
    const head = Buffer.alloc(20);
    readSync(fd, head, 0, 20, 0);
    expect(head.subarray(0, 4).toString("latin1")).toBe("\x7fELF");
    return head.readUInt16LE(18);
  } finally {
    closeSync(fd);
  }
}

export const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/** Makes the sandbox before the file's tests and removes it (every file it started stopped) after them. */
export function useReleaseSandbox(): void {
  beforeAll(() => {
    for (const file of [x64, arm64]) {
      if (!existsSync(file)) throw new Error(`${file} is missing: run \`npm run release\` first (npm run test:release does).`);
    }
    box.dir = mkdtempSync(path.join(os.tmpdir(), "proxyshop-release-"));
    box.binary = path.join(box.dir, "proxy-shop");
    copyFileSync(x64, box.binary);
    const emptyBin = path.join(box.dir, ".empty-bin");
    const home = path.join(box.dir, ".home");
    mkdirSync(emptyBin);
    mkdirSync(home);
    // Like `env -i PATH=... HOME=...`: nothing of this process's environment.
    box.env = { PATH: emptyBin, HOME: home };
  });

  afterAll(async () => {
    await stopAll();
    if (box.dir) rmSync(box.dir, { recursive: true, force: true });
  });
}
