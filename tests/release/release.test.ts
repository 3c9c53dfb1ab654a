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
import {
  chmodSync,
  existsSync,
  copyFileSync,
  readFileSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readSync,
  closeSync,
  rmSync,
  statSync,
} from "node:fs";
import os from "node:os";
import path from "node:path";
import { randomUUID } from "node:crypto";
import PocketBase from "pocketbase";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { releaseFile, SIZE_GOAL_BYTES } from "../../scripts/release.ts";
import { builtVersion, startServe, stopAll } from "./support.ts";
import { freePort } from "../support/pocketbase.ts";
import { smtpEnv, startTestMailbox, waitForMail } from "../support/smtp-sink.ts";
import { readZip } from "../../server/zip.ts";

const version = builtVersion();
const x64 = releaseFile(version, "x64");
const arm64 = releaseFile(version, "arm64");
/** Start to serving with the runtime folder already extracted (issue #17's goal, on this machine). */
const START_GOAL_MS = 5_000;

let dir = "";
let binary = "";
let env: NodeJS.ProcessEnv = {};

function run(args: string[], more: NodeJS.ProcessEnv = {}): { code: number | null; output: string } {
  const result = spawnSync(binary, args, { cwd: dir, env: { ...env, ...more }, encoding: "utf8", timeout: 60_000 });
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

interface ServeOptions {
  /** The web server's host (default 127.0.0.1, asked for as localhost: APP_URL's default). */
  host?: string;
  port?: number;
  /** More environment (a real host's settings). */
  env?: NodeJS.ProcessEnv;
  /** --data (default: none, so ./shop-data). */
  data?: string;
}

async function serve(options: ServeOptions = {}): Promise<Served> {
  const port = options.port ?? (await freePort());
  const host = options.host ?? "127.0.0.1";
  const origin = host === "127.0.0.1" ? `http://localhost:${port}` : `http://${host}:${port}`;
  const started = Date.now();
  const { child, output, exited } = await startServe(binary, {
    cwd: dir,
    env: { ...env, ...options.env },
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
async function stopWhileStarting(): Promise<{ code: number | null; pocketbaseAlive: boolean }> {
  let sent = false;
  const started = await startServe(binary, {
    cwd: dir,
    env,
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
function runAsync(args: string[], more: NodeJS.ProcessEnv = {}): Promise<{ code: number | null; output: string }> {
  const child = spawn(binary, args, { cwd: dir, env: { ...env, ...more }, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout.on("data", (c: Buffer) => (output += c.toString()));
  child.stderr.on("data", (c: Buffer) => (output += c.toString()));
  return new Promise((resolve) => child.once("close", (code) => resolve({ code, output })));
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
  await stopAll();
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

describe("the release file's trusted folders", () => {
  it("finding 11: refuses a runtime folder or a credentials key file others may write to, saying how to fix it", () => {
    // The folder and the key the test above made.
    const runtime = path.join(dir, ".proxy-shop-runtime", readdirSync(path.join(dir, ".proxy-shop-runtime"))[0]!);
    chmodSync(runtime, 0o777);
    const doctor = run(["doctor"]);
    chmodSync(runtime, 0o700);
    expect(doctor.code, doctor.output).toBe(1);
    expect(doctor.output).toContain(`Refusing to go on: The runtime folder ${runtime} is writable by its group and every user (mode 0777)`);
    expect(doctor.output).toContain(`chmod -R go-w '${runtime}'`);

    const keyFile = path.join(dir, ".secrets", "shop-data.credentials-key");
    chmodSync(keyFile, 0o666);
    const serving = run(["serve", "--http", "127.0.0.1:1"]);
    const admin = run(["admin", "create", "owner@example.test"]);
    chmodSync(keyFile, 0o600);
    const refusal = `Refusing to go on: The credentials key file ${keyFile} is writable by its group and every user (mode 0666)`;
    expect(serving.code, serving.output).toBe(1);
    expect(serving.output).toContain(`The shop did not start: ${refusal}`);
    expect(admin.code, admin.output).toBe(1);
    expect(admin.output).toContain(refusal);
  });
});

describe("the release file on a real host", () => {
  it("prints a setup link that makes the first admin, sells to a customer, and backs up and restores that data", async () => {
    const began = Date.now();
    const mailbox = await startTestMailbox();
    try {
      const port = await freePort();
      // 127.0.0.2: not loopback to the shop (only 127.0.0.1, localhost and ::1 are), yet local.
      const host = "127.0.0.2";
      const appUrl = `http://${host}:${port}`;
      const realEnv = {
        ...smtpEnv(mailbox.sink),
        APP_URL: appUrl,
        PAYMENTS_TEST_MODE: "true",
        // The same key for the shop and its restored copy (a restore needs the key it had).
        SHOP_CREDENTIALS_KEY: "release-test-key-0123456789abcde",
      };
      // The first shop replicates with Litestream too (a replica to restore from below).
      const replicaUrl = `file://${path.join(dir, "replica")}`;
      const shop = await serve({ host, port, env: { ...realEnv, LITESTREAM_REPLICA: replicaUrl }, data: "real-data" });
      let customerId = "";
      let customerToken = "";
      let balance = 0;
      let proxyIds: string[] = [];
      const balanceOf = async (client: PocketBase) =>
        (await client.collection("balances").getFirstListItem<{ balance_cents: number }>(`user_id = "${customerId}"`)).balance_cents;
      try {
        const banner = shop.output();
        expect(banner).toContain("Demo data is off");
        // The doctor's missing items: the test provider (and the administrator); APP_URL, SMTP and Litestream are set.
        expect(banner).toContain("Missing for a real shop");
        expect(banner).toMatch(/missing {2}Payments/);
        expect(banner).toMatch(/missing {2}Administrator/);
        expect(banner).not.toMatch(/missing {2}(APP_URL|SMTP|Litestream|Credentials key)/);
        const link = new RegExp(
          `No administrator yet: open (${appUrl.replace(/\./g, "\\.")}/console/setup\\?token=\\S+) within 30 minutes`,
        ).exec(banner)?.[1];
        expect(link, banner).toBeTruthy();
        const setupToken = new URL(link!).searchParams.get("token")!;

        // The link's page: check, then the first admin with their own e-mail and password.
        const pb = () => new PocketBase(shop.url);
        expect(await pb().send("/api/setup/check", { method: "POST", body: { token: setupToken } })).toMatchObject({ valid: true });
        const owner = { email: `owner-${Date.now()}@example.test`, password: "Release#Owner2026" };
        await pb().send("/api/setup/admin", {
          method: "POST",
          body: { token: setupToken, first_name: "Ada", last_name: "Owner", ...owner },
        });
        await expect(
          pb().send("/api/setup/admin", {
            method: "POST",
            body: {
              token: setupToken,
              first_name: "Eve",
              last_name: "Again",
              email: `again-${Date.now()}@example.test`,
              password: owner.password,
            },
          }),
        ).rejects.toMatchObject({ status: expect.any(Number) as number });
        const admin = pb();
        await admin.collection("users").authWithPassword(owner.email, owner.password);
        const users = await admin.send<{ items: { email: string }[] }>("/api/admin/users", {});
        expect(users.items.map((u) => u.email)).toContain(owner.email);
        await admin.send("/api/admin/proxies/generate", { method: "POST", body: { type: "DATACENTER", country: "US", quantity: 3 } });

        // A customer signs up, verifies from the mail, buys credits (test provider) and a proxy.
        const email = `buyer-${Date.now()}@example.test`;
        const signup = await pb().send<{ token: string; record: { id: string } }>("/api/shop/signup", {
          method: "POST",
          body: { first_name: "Rel", last_name: "Ease", email, country: "Chile", ref: "" },
        });
        customerId = signup.record.id;
        customerToken = signup.token;
        const mail = await waitForMail(mailbox.sink, email, /verif/i, { timeoutMs: 15_000 });
        const verifyToken = /[?&]verify=([\w.-]+)/.exec(mail.text)?.[1];
        expect(verifyToken, mail.text).toBeTruthy();
        // Opening the link without the sign-up session signs the owner in anew (the old session ends).
        const verified = await pb().send<{ token: string; record: { verified: boolean } }>("/api/collections/users/confirm-verification", {
          method: "POST",
          body: { token: verifyToken },
        });
        expect(verified.record.verified).toBe(true);
        customerToken = verified.token;
        const buyer = pb();
        buyer.authStore.save(customerToken, null);
        const paid = await buyer.send<{ checkout_url: string | null; balance_cents: number }>("/api/v1/credits/checkout", {
          method: "POST",
          body: { package_id: "package-10" },
          headers: { "Idempotency-Key": randomUUID() },
        });
        expect(paid.checkout_url).toBeNull();
        expect(paid.balance_cents).toBeGreaterThan(0);
        const bought = await buyer.send<{ balance_cents: number }>("/api/v1/proxies/purchase", {
          method: "POST",
          body: { type: "DATACENTER", country: "US", quantity: 1 },
          headers: { "Idempotency-Key": randomUUID() },
        });
        balance = await balanceOf(buyer);
        expect(balance).toBe(bought.balance_cents);
        expect(balance).toBeLessThan(paid.balance_cents);
        proxyIds = (await buyer.collection("proxies").getFullList()).map((p) => p.id);
        expect(proxyIds).toHaveLength(1);

        // A backup while the shop runs: its own PocketBase makes it.
        const live = await runAsync(["backup", "--data", "real-data"], realEnv);
        expect(live.output).toContain("The shop is running on");
        expect(live.code, live.output).toBe(0);
      } finally {
        expect(await shop.stop()).toBe(0);
      }

      // The commands beside a stopped shop.
      expect(run(["admin", "create"], realEnv)).toMatchObject({ code: 2, output: expect.stringContaining("one e-mail address") as string });
      expect(run(["admin", "create", "not-an-address"], realEnv)).toMatchObject({
        code: 2,
        output: expect.stringContaining("is not an e-mail address") as string,
      });
      const another = run(["admin", "create", "second@example.test", "--data", "real-data"], realEnv);
      expect(another.code, another.output).toBe(0);
      expect(another.output).toMatch(new RegExp(`${appUrl.replace(/\./g, "\\.")}/console/setup\\?token=[A-Za-z0-9]+`));
      const doctor = run(["doctor", "--data", "real-data"], { ...realEnv, HOST: host });
      expect(doctor.code).toBe(0);
      expect(doctor.output).toMatch(/ok {7}APP_URL {10}http:\/\/127\.0\.0\.2:/);
      expect(doctor.output).toMatch(/ok {7}SMTP/);
      expect(doctor.output).toMatch(/ok {7}Administrator/);
      expect(doctor.output).toMatch(/missing {2}Litestream/);

      // A backup of the stopped shop: a PocketBase started for it alone.
      const made = run(["backup", "--data", "real-data"], realEnv);
      expect(made.code, made.output).toBe(0);
      const zipFile = /Backup written: (\S+\.zip)/.exec(made.output)?.[1] ?? "";
      // To the millisecond, with a random part: never the name of the backup made above in the same second (#26 finding 13).
      expect(path.basename(zipFile)).toMatch(/^real-data-backup-\d{8}T\d{6}\.\d{3}Z-[0-9a-f]{6}\.zip$/);
      expect(readdirSync(dir).filter((f) => f.startsWith("real-data-backup-"))).toHaveLength(2);
      expect(path.dirname(zipFile)).toBe(dir);
      const names = readZip(readFileSync(zipFile)).map((e) => e.name);
      expect(names).toContain("data.db");
      expect(names).not.toContain(".superuser-password");
      expect(names.some((n) => n.startsWith("backups/"))).toBe(false);

      // From the Litestream replica, into a data dir of its own.
      const fromReplica = run(["restore", replicaUrl, "--data", "replica-data"], realEnv);
      expect(fromReplica.code, fromReplica.output).toBe(0);
      expect(fromReplica.output).toContain(`from the Litestream replica ${replicaUrl} into ${path.join(dir, "replica-data")}`);
      expect(statSync(path.join(dir, "replica-data", "data.db")).size).toBeGreaterThan(0);

      // Restore: never over data; into a new data dir, which then serves the same data.
      const over = run(["restore", zipFile, "--data", "real-data"], realEnv);
      expect(over.code).toBe(1);
      expect(over.output).toContain("is not empty");
      const restored = run(["restore", zipFile, "--data", "restored-data"], realEnv);
      expect(restored.code, restored.output).toBe(0);
      expect(restored.output).toContain(`into ${path.join(dir, "restored-data")}`);
      expect(restored.output).toContain("same credentials key");
      const copy = await serve({ host, port, env: realEnv, data: "restored-data" });
      try {
        // An administrator exists there: no setup link.
        expect(copy.output()).not.toContain("No administrator yet");
        const buyer = new PocketBase(copy.url);
        buyer.authStore.save(customerToken, null);
        expect(await balanceOf(buyer)).toBe(balance);
        expect((await buyer.collection("proxies").getFullList()).map((p) => p.id)).toEqual(proxyIds);
      } finally {
        expect(await copy.stop()).toBe(0);
      }
    } finally {
      await mailbox.stop();
      console.log(`Real host test: ${((Date.now() - began) / 1000).toFixed(1)} s`);
    }
  });
});
