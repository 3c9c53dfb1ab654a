// What the release tests share: the version of the file in release/, and starting that file
// as `serve` on free ports, its output kept and its exit awaited; stopAll ends them all.
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { RELEASE_DIR } from "../../scripts/release.ts";
import { freePort } from "../support/pocketbase.ts";

/** The version of the release in release/ (release.ts clears it first: one build). */
export function builtVersion(): string {
  const names = existsSync(RELEASE_DIR) ? readdirSync(RELEASE_DIR) : [];
  const versions = names.flatMap((n) => /^proxy-shop-(.+)-linux-x64$/.exec(n)?.[1] ?? []);
  if (versions.length !== 1) throw new Error(`release/ holds no single x64 file (${names.join(", ")}): run \`npm run release\` first.`);
  return versions[0]!;
}

export interface ReleaseRun {
  child: ChildProcess;
  output: () => string;
  /** The exit code (null: ended by a signal). */
  exited: Promise<number | null>;
  /** PocketBase's port (PB_PORT). */
  pocketbasePort: number;
}

const running = new Set<ChildProcess>();

/**
 * `binary serve --http <http> [args]` in `cwd` with exactly `env` (plus free ports for
 * PocketBase and the gateway). `onOutput` sees the output as it grows.
 */
export async function startServe(
  binary: string,
  options: { cwd: string; env: NodeJS.ProcessEnv; http: string; args?: string[]; onOutput?: (output: string, child: ChildProcess) => void },
): Promise<ReleaseRun> {
  const pocketbasePort = await freePort();
  const ports = {
    PB_PORT: String(pocketbasePort),
    GATEWAY_HTTP_PORT: String(await freePort()),
    GATEWAY_SOCKS_PORT: String(await freePort()),
    GATEWAY_HTTPS_PORT: String(await freePort()),
  };
  const child = spawn(binary, ["serve", "--http", options.http, ...(options.args ?? [])], {
    cwd: options.cwd,
    env: { ...options.env, ...ports },
    stdio: ["ignore", "pipe", "pipe"],
  });
  running.add(child);
  let output = "";
  const onData = (c: Buffer) => {
    output += c.toString();
    options.onOutput?.(output, child);
  };
  child.stdout.on("data", onData);
  child.stderr.on("data", onData);
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => (running.delete(child), resolve(code))));
  return { child, output: () => output, exited, pocketbasePort };
}

/** SIGTERM to every file still running (the shop stops PocketBase too), and their exits awaited. */
export async function stopAll(): Promise<void> {
  const exits = [...running].map((child) => new Promise((resolve) => (child.once("exit", resolve), child.kill("SIGTERM"))));
  await Promise.all(exits);
}
