// Security review (issue #13), the start-up findings: the migration marks the demo accounts
// of a data dir seeded before it (finding 5); no secret in process arguments or request logs
// (finding 9); and `npm start` refuses a public host without SMTP and a half-configured
// Stripe, and says which payment provider runs (findings 9 and 2).
import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { RecordModel } from "pocketbase";
import { beforeAll, describe, expect, it } from "vitest";
import { MIGRATIONS_DIR, ROOT, startPocketBase } from "../../server/pocketbase-process.ts";
import { paymentProvider, paymentsBannerLine, paymentsTestMode, startupProblems } from "../../server/start-checks.ts";
import { adminSend, setSetting } from "../support/admin.ts";
import { DEMO, demoEnv } from "../support/demo.ts";
import {
  createTestUser,
  errorOf,
  freePort,
  startTestPocketBase,
  TEST_CREDENTIALS_KEY,
  TEST_PAYMENTS_ENV,
  TEST_RATE_LIMIT_ENV,
} from "../support/pocketbase.ts";
import { useShop } from "../support/use-shop.ts";

describe("finding 5: the migration marks the demo accounts of a data dir seeded before it", () => {
  it("finding 5: accounts whose e-mail is SHOP_DEMO_*_EMAIL get is_demo, others not", async () => {
    const oldMigrations = mkdtempSync(path.join(os.tmpdir(), "proxyshop-old-migrations-"));
    const dataDir = mkdtempSync(path.join(os.tmpdir(), "proxyshop-demo-marks-"));
    try {
      for (const file of readdirSync(MIGRATIONS_DIR)) {
        if (file < "1764400300") cpSync(path.join(MIGRATIONS_DIR, file), path.join(oldMigrations, file));
      }
      let tpb = await startTestPocketBase({}, { dataDir, migrationsDir: oldMigrations });
      try {
        const su = await tpb.superuser();
        await createTestUser(su, { email: DEMO.admin.email, is_admin: true });
        await createTestUser(su, { email: DEMO.customer.email });
        await createTestUser(su, { email: "someone@demo.test" });
      } finally {
        await tpb.stop();
      }
      tpb = await startTestPocketBase(demoEnv(), { dataDir });
      try {
        const su = await tpb.superuser();
        const rows = await su.collection("users").getFullList({ sort: "email" });
        expect(rows.map((r) => [r["email"], r["is_demo"]])).toEqual([
          [DEMO.admin.email, true],
          [DEMO.customer.email, true],
          ["someone@demo.test", false],
        ]);
      } finally {
        await tpb.stop();
      }
    } finally {
      rmSync(oldMigrations, { recursive: true, force: true });
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

/**
 * Watches every process's command line on this machine (python3, polling /proc) for
 * `secret`, which it reads from its stdin so its own command line does not hold it.
 */
function watchCommandLines(secret: string): { ready: Promise<void>; stop(): Promise<string[]> } {
  const stopFile = path.join(mkdtempSync(path.join(os.tmpdir(), "proxyshop-ps-")), "stop");
  const child = spawn(
    "python3",
    [
      "-c",
      `import os,sys
secret=sys.stdin.readline().strip().encode()
stop=sys.argv[1]
print("ready", flush=True)
seen=set()
while True:
    done=os.path.exists(stop)
    for pid in os.listdir("/proc"):
        if not pid.isdigit() or int(pid) == os.getpid(): continue
        try:
            with open("/proc/%s/cmdline" % pid, "rb") as f: cmd=f.read()
        except OSError: continue
        if secret in cmd and pid not in seen:
            seen.add(pid); print("FOUND", pid, cmd.replace(b"\\0", b" ").decode("utf8", "replace"), flush=True)
    if done: break`,
      stopFile,
    ],
    { stdio: ["pipe", "pipe", "inherit"] },
  );
  let output = "";
  const ready = new Promise<void>((resolve) => {
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes("ready")) resolve();
    });
  });
  child.stdin.end(`${secret}\n`);
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  return {
    ready,
    async stop() {
      writeFileSync(stopFile, "");
      await exited;
      rmSync(path.dirname(stopFile), { recursive: true, force: true });
      return output.split("\n").filter((line) => line.startsWith("FOUND"));
    },
  };
}

/** The ids of `pid` and every process below it. */
function processTree(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync("/proc").filter((d) => /^\d+$/.test(d))) {
    try {
      const ppid = Number(readFileSync(`/proc/${entry}/stat`, "utf8").split(") ")[1]!.split(" ")[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      // gone meanwhile
    }
  }
  const tree = [pid];
  for (let i = 0; i < tree.length; i++) tree.push(...(children.get(tree[i]!) ?? []));
  return tree;
}

describe("finding 9: secrets stay out of process arguments and request logs", () => {
  it("finding 9: while PocketBase starts and runs, no command line holds the superuser password, nor the server's environment", async () => {
    const password = `Sup3r#${randomUUID()}`;
    const dataDir = mkdtempSync(path.join(os.tmpdir(), "proxyshop-ps-pb-"));
    const watcher = watchCommandLines(password);
    await watcher.ready;
    let pb: Awaited<ReturnType<typeof startPocketBase>> | null = null;
    try {
      pb = await startPocketBase({
        dataDir,
        port: await freePort(),
        superuserEmail: "ps-check@test.local",
        superuserPassword: password,
        env: { ...TEST_RATE_LIMIT_ENV, ...TEST_PAYMENTS_ENV, SHOP_CREDENTIALS_KEY: TEST_CREDENTIALS_KEY, PB_SUPERUSER_PASSWORD: password },
      });
      // The password works, and neither PocketBase nor anything it started shows it.
      const res = await fetch(`${pb.url}/api/collections/_superusers/auth-with-password`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ identity: "ps-check@test.local", password }),
      });
      expect(res.status).toBe(200);
      const tree = processTree(pb.child.pid!);
      for (const pid of tree) {
        expect(readFileSync(`/proc/${pid}/cmdline`, "utf8")).not.toContain(password);
        expect(readFileSync(`/proc/${pid}/environ`, "utf8")).not.toContain(password);
      }
    } finally {
      const found = await watcher.stop();
      await pb?.stop();
      rmSync(dataDir, { recursive: true, force: true });
      expect(found).toEqual([]);
    }
  });

  describe("finding 9: the invitation check takes its token in a POST body", () => {
    const shop = useShop({ ledger: false });
    beforeAll(() => setSetting(shop.su, "admin_registration_enabled", "true"));

    it("finding 9: POST {token} checks the link; the old query form answers 405; the request log never holds the token", async () => {
      const made = await adminSend<{ url: string; expires_at: string }>(shop.admin, "/api/admin/invitations", {});
      const token = new URL(made.url).searchParams.get("token") ?? "";
      expect(token).not.toBe("");
      const checked = await shop.tpb.client().send("/api/shop/admin-invitations/check", { method: "POST", body: { token } });
      expect(checked).toEqual({ valid: true, email: null, expires_at: made.expires_at });

      const decoy = "d".repeat(43);
      const old = await errorOf(() =>
        shop.tpb.client().send("/api/shop/admin-invitations/check", { method: "GET", query: { token: decoy } }),
      );
      expect(old.status).toBe(405);
      expect(old.response["message"]).toMatch(/Send the invitation token in a JSON body/);
      expect((await errorOf(() => shop.tpb.client().send("/api/shop/admin-invitations/check", { method: "POST", body: {} }))).status).toBe(
        404,
      );

      // PocketBase writes its request log in batches: wait for the check's row, then look.
      let logs: RecordModel[] = [];
      for (let i = 0; i < 100; i++) {
        logs = (await shop.su.logs.getList(1, 200, { filter: 'data.url ~ "admin-invitations/check"' })).items as unknown as RecordModel[];
        if (logs.some((l) => String(l["data"]?.["method"]) === "POST")) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(logs.some((l) => String(l["data"]?.["method"]) === "POST")).toBe(true);
      expect(JSON.stringify(logs)).not.toContain(token);
    });
  });
});

/** Runs `npm start` (scripts/start.ts) with `env` on a temporary data dir; resolves with its exit code and output. */
async function runStart(env: Record<string, string>): Promise<{ code: number | null; output: string; dataDirMade: boolean }> {
  const base = mkdtempSync(path.join(os.tmpdir(), "proxyshop-start-"));
  const dataDir = path.join(base, "pb_data");
  const clean = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !/^(SMTP_|STRIPE_|PAYMENTS_TEST_MODE|HOST$|PORT$|PB_|DEMO_|LITESTREAM_)/.test(k)),
  );
  const child = spawn(
    process.execPath,
    [path.join(ROOT, "node_modules", "tsx", "dist", "cli.mjs"), path.join(ROOT, "scripts", "start.ts")],
    {
      cwd: ROOT,
      env: { ...clean, PB_DATA_DIR: dataDir, PORT: String(await freePort()), PB_PORT: String(await freePort()), ...env },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let output = "";
  child.stdout.on("data", (c: Buffer) => (output += c.toString()));
  child.stderr.on("data", (c: Buffer) => (output += c.toString()));
  const timer = setTimeout(() => child.kill("SIGTERM"), 60_000);
  const code = await new Promise<number | null>((resolve) => child.once("exit", (c) => resolve(c)));
  clearTimeout(timer);
  const dataDirMade = existsSync(dataDir);
  rmSync(base, { recursive: true, force: true });
  return { code, output, dataDirMade };
}

describe("npm start refuses risky configurations before starting anything", () => {
  it("finding 9: a HOST that is not loopback without SMTP_HOST is refused (the mail sink would print codes and links)", async () => {
    const { code, output, dataDirMade } = await runStart({ HOST: "0.0.0.0" });
    expect(code).toBe(1);
    expect(output).toContain("HOST=0.0.0.0 is reachable from other machines, but SMTP_HOST is not set");
    expect(dataDirMade).toBe(false);
  });

  it("finding 2: one Stripe variable without the other is refused, naming the missing one", async () => {
    const onlyKey = await runStart({ HOST: "127.0.0.1", STRIPE_SECRET_KEY: "sk_test_half" });
    expect(onlyKey.code).toBe(1);
    expect(onlyKey.output).toContain("STRIPE_SECRET_KEY is set but STRIPE_WEBHOOK_SECRET is missing");
    const onlySecret = await runStart({ HOST: "127.0.0.1", STRIPE_WEBHOOK_SECRET: "whsec_half" });
    expect(onlySecret.code).toBe(1);
    expect(onlySecret.output).toContain("STRIPE_WEBHOOK_SECRET is set but STRIPE_SECRET_KEY is missing");
    expect(onlySecret.dataDirMade).toBe(false);
  });

  it("finding 2: the start-up decisions: PAYMENTS_TEST_MODE for the hooks, the provider and the banner line", () => {
    expect(startupProblems({ SMTP_HOST: "smtp.example.com" }, "0.0.0.0")).toEqual([]);
    expect(startupProblems({}, "127.0.0.1")).toEqual([]);
    expect(startupProblems({}, "localhost")).toEqual([]);
    expect(startupProblems({ STRIPE_SECRET_KEY: "sk", STRIPE_WEBHOOK_SECRET: "wh" }, "127.0.0.1")).toEqual([]);

    expect(paymentsTestMode({}, "127.0.0.1")).toBe("true");
    expect(paymentsTestMode({ PAYMENTS_TEST_MODE: "" }, "::1")).toBe("true");
    expect(paymentsTestMode({}, "0.0.0.0")).toBeUndefined();
    expect(paymentsTestMode({ PAYMENTS_TEST_MODE: "false" }, "127.0.0.1")).toBe("false");
    expect(paymentsTestMode({ PAYMENTS_TEST_MODE: "true" }, "0.0.0.0")).toBe("true");

    const stripe = { STRIPE_SECRET_KEY: "sk", STRIPE_WEBHOOK_SECRET: "wh" };
    expect(paymentProvider(stripe, "true")).toBe("stripe");
    expect(paymentProvider({}, "true")).toBe("test");
    expect(paymentProvider({}, undefined)).toBe("none");
    expect(paymentProvider({}, "false")).toBe("none");

    expect(paymentsBannerLine("stripe", "https://shop.example")).toBe(
      "Payments: Stripe Checkout; Stripe's webhook goes to https://shop.example/api/v1/payments/stripe/webhook.",
    );
    expect(paymentsBannerLine("test", "x")).toMatch(/^Payments: the TEST provider \(PAYMENTS_TEST_MODE=true\): no money moves/);
    expect(paymentsBannerLine("none", "x")).toMatch(
      /^Payments: none, .*Set STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET .* or PAYMENTS_TEST_MODE=true/,
    );
  });
});
