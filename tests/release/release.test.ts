// The release file (issue #17, "One file"), run as a self-hoster would: the x64 file copied
// alone into an empty directory and run from there with an environment that holds nothing
// but a PATH with neither node nor go on it (an empty directory) and a HOME. It answers
// `version` and `help`, extracts its runtime folder beside the data dir on first run,
// serves the home page, /api/health and a sign-up (the mail sink prints the verification
// mail), and starts again from the extracted folder within the goal, removing an older
// build's folder; a SIGTERM while it starts stops PocketBase too. The arm64 file is checked
// for its architecture. Run by `npm run test:release`, which builds the release first
// (reusing dist/ and the Go builds).
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, copyFileSync, mkdirSync, mkdtempSync, openSync, readdirSync, readSync, closeSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RELEASE_DIR, releaseFile, SIZE_GOAL_BYTES } from "../../scripts/release.ts";
import { freePort } from "../support/pocketbase.ts";

/** The version of the release in release/ (the script clears it first: one build). */
function builtVersion(): string {
  const names = existsSync(RELEASE_DIR) ? readdirSync(RELEASE_DIR) : [];
  const versions = names.flatMap((n) => /^proxy-shop-(.+)-linux-x64$/.exec(n)?.[1] ?? []);
  if (versions.length !== 1) throw new Error(`release/ holds no single x64 file (${names.join(", ")}): run \`npm run release\` first.`);
  return versions[0]!;
}
const version = builtVersion();
const x64 = releaseFile(version, "x64");
const arm64 = releaseFile(version, "arm64");
/** Start to serving with the runtime folder already extracted (issue #17's goal, on this machine). */
const START_GOAL_MS = 5_000;

let dir = "";
let binary = "";
let env: NodeJS.ProcessEnv = {};
const running = new Set<ChildProcess>();

function run(args: string[]): { code: number | null; output: string } {
  const result = spawnSync(binary, args, { cwd: dir, env, encoding: "utf8", timeout: 60_000 });
  return { code: result.status, output: `${result.stdout}${result.stderr}` };
}

interface Served {
  child: ChildProcess;
  url: string;
  output: () => string;
  /** Milliseconds from spawn to the banner and the home page answering with its own text. */
  startMs: number;
  stop(): Promise<number | null>;
}

async function serve(): Promise<Served> {
  const port = await freePort();
  const portEnv = {
    PB_PORT: String(await freePort()),
    GATEWAY_HTTP_PORT: String(await freePort()),
    GATEWAY_SOCKS_PORT: String(await freePort()),
  };
  const started = Date.now();
  const child = spawn(binary, ["serve", "--http", `127.0.0.1:${port}`], {
    cwd: dir,
    env: { ...env, ...portEnv },
    stdio: ["ignore", "pipe", "pipe"],
  });
  running.add(child);
  let output = "";
  child.stdout.on("data", (c: Buffer) => (output += c.toString()));
  child.stderr.on("data", (c: Buffer) => (output += c.toString()));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => (running.delete(child), resolve(code))));
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`The release file exited (${child.exitCode}):\n${output}`);
    if (Date.now() > deadline) throw new Error(`The release file did not serve within 90 s:\n${output}`);
    // The canonical host is localhost (APP_URL's default): ask for it by that name.
    // Serving: the banner printed (its signal handlers set), the home page answering.
    if (output.includes("Proxy shop is running at")) {
      const res = await fetch(`http://localhost:${port}/`, { redirect: "manual" }).catch(() => null);
      if (res?.status === 200 && (await res.text()).includes("reliable data access")) break;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  const startMs = Date.now() - started;
  return {
    child,
    url: `http://localhost:${port}`,
    output: () => output,
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
async function stopWhileStarting(): Promise<{ code: number | null; pocketbaseAlive: boolean }> {
  const pbPort = await freePort();
  const child = spawn(binary, ["serve", "--http", `127.0.0.1:${await freePort()}`], {
    cwd: dir,
    env: { ...env, PB_PORT: String(pbPort), GATEWAY_HTTP_PORT: String(await freePort()), GATEWAY_SOCKS_PORT: String(await freePort()) },
    stdio: ["ignore", "pipe", "pipe"],
  });
  running.add(child);
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => (running.delete(child), resolve(code))));
  let output = "";
  const onData = (c: Buffer) => {
    const before = output;
    output += c.toString();
    if (!before.includes("runtime files in") && output.includes("runtime files in")) child.kill("SIGTERM");
  };
  child.stdout.on("data", onData);
  child.stderr.on("data", onData);
  const code = await exited;
  const pocketbaseAlive = await fetch(`http://127.0.0.1:${pbPort}/api/health`).then(
    () => true,
    () => false,
  );
  return { code, pocketbaseAlive };
}

/** ELF e_machine: 62 x86-64, 183 AArch64. */
function elfMachine(file: string): number {
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

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

beforeAll(() => {
  for (const file of [x64, arm64]) {
    if (!existsSync(file)) throw new Error(`${file} is missing: run \`npm run release\` first (npm run test:release does).`);
  }
  dir = mkdtempSync(path.join(os.tmpdir(), "proxyshop-release-"));
  binary = path.join(dir, "proxy-shop");
  copyFileSync(x64, binary);
  const emptyBin = path.join(dir, ".empty-bin");
  const home = path.join(dir, ".home");
  mkdirSync(emptyBin);
  mkdirSync(home);
  // Like `env -i PATH=... HOME=...`: nothing of this process's environment.
  env = { PATH: emptyBin, HOME: home };
});

afterAll(async () => {
  // SIGTERM: the shop stops PocketBase too.
  for (const child of running) child.kill("SIGTERM");
  await new Promise((r) => setTimeout(r, running.size > 0 ? 3000 : 0));
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("the release file", () => {
  it("has no node nor go on its PATH", () => {
    for (const tool of ["node", "go"]) {
      expect(spawnSync("/bin/sh", ["-c", `command -v ${tool}`], { env }).status).not.toBe(0);
    }
  });

  it("prints its version and its commands, and the files are for x86-64 and AArch64 within the size goal", () => {
    const printed = run(["version"]);
    expect(printed.code).toBe(0);
    expect(printed.output).toContain(`proxy-shop ${version} (linux-x64`);
    const help = run(["help"]);
    expect(help.code).toBe(0);
    for (const command of ["serve", "backup", "restore <zip|replica-url>", "admin create <email>", "doctor", "version", "help"]) {
      expect(help.output).toContain(`  ${command}`);
    }
    expect(help.output).not.toMatch(/\bnpm\b/);
    const unknown = run(["frobnicate"]);
    expect(unknown.code).toBe(2);
    expect(unknown.output).toContain('Unknown command "frobnicate"');

    expect(elfMachine(x64)).toBe(62);
    expect(elfMachine(arm64)).toBe(183);
    for (const file of [x64, arm64]) {
      const size = statSync(file).size;
      console.log(`${path.basename(file)}: ${mb(size)} (goal ${mb(SIZE_GOAL_BYTES)})`);
      expect(size).toBeLessThanOrEqual(SIZE_GOAL_BYTES);
    }
    // Nothing extracted for those.
    expect(existsSync(path.join(dir, ".proxy-shop-runtime"))).toBe(false);
  });

  it("extracts its runtime beside the data, serves the shop and a sign-up, and starts again from the extracted files within the goal", async () => {
    const first = await serve();
    console.log(`First start (extracting): ${(first.startMs / 1000).toFixed(1)} s`);
    try {
      expect(first.output()).toContain(`proxy-shop ${version}, runtime files in`);
      expect(first.output()).toContain("Proxy shop is running at http://localhost:");
      expect(first.output()).not.toMatch(/\bnpm\b/);
    } finally {
      expect(await first.stop()).toBe(0);
    }
    const runtimeParent = path.join(dir, ".proxy-shop-runtime");
    const [build] = readdirSync(runtimeParent);
    expect(build).toMatch(new RegExp(`^${version.replace(/\./g, "\\.")}-[0-9a-f]{12}$`));
    expect(existsSync(path.join(runtimeParent, build!, "pocketbase", "bin", "pocketbase"))).toBe(true);
    expect(existsSync(path.join(dir, "shop-data", "data.db"))).toBe(true);
    expect(existsSync(path.join(dir, ".secrets", "shop-data.credentials-key"))).toBe(true);

    // An older build's folder goes once this one is in place.
    mkdirSync(path.join(runtimeParent, "0.0.1-0000000-000000000000", "pocketbase"), { recursive: true });
    const shop = await serve();
    try {
      // Printed, not asserted: a shared CI machine under load takes longer (the lead decides).
      console.log(
        `Start to serving, already extracted: ${(shop.startMs / 1000).toFixed(1)} s (goal ${START_GOAL_MS / 1000} s: ${shop.startMs <= START_GOAL_MS ? "ok" : "over"}; load average ${os.loadavg()[0]!.toFixed(1)})`,
      );
      expect(shop.output()).not.toContain("Extracted proxy-shop");
      expect(readdirSync(runtimeParent)).toEqual([build]);

      const home = await fetch(`${shop.url}/`);
      expect(home.status).toBe(200);
      const html = await home.text();
      expect(html).toContain("<title>Premium Proxy Services");
      expect(html).toContain("Premium proxies for");

      const health = await fetch(`${shop.url}/api/health`);
      expect(health.status).toBe(200);
      expect(((await health.json()) as { code: number }).code).toBe(200);

      const email = `release-${Date.now()}@example.test`;
      const signup = await fetch(`${shop.url}/api/shop/signup`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ first_name: "Rel", last_name: "Ease", email, country: "Chile", ref: "" }),
      });
      const body = (await signup.json()) as { token?: string; record?: { email?: string } };
      expect(signup.status, JSON.stringify(body)).toBe(200);
      expect(body.token).toBeTruthy();
      expect(body.record?.email).toBe(email);
      // The mail sink prints the verification mail to the console.
      await expect
        .poll(() => shop.output(), { timeout: 15_000 })
        .toMatch(new RegExp(`\\[mail\\] to ${email.replace(/\./g, "\\.")}: .*verify`, "i"));
    } finally {
      expect(await shop.stop()).toBe(0);
    }
    expect(await stopWhileStarting()).toEqual({ code: 0, pocketbaseAlive: false });
  });
});
