// Security review (issue #13), the operations findings: demo accounts cannot be changed or
// spend while demo mode is on (finding 5); a proxy's owner, status and term are written by
// the server only, never through the records API (finding 6); no secret in process
// arguments or request logs, and no mail sink on a public host (finding 9); and `npm start`
// refuses a half-configured Stripe and says which payment provider runs (finding 2).
import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type PocketBase from "pocketbase";
import type { RecordModel } from "pocketbase";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { MIGRATIONS_DIR, ROOT, startPocketBase } from "../../server/pocketbase-process.ts";
import { paymentProvider, paymentsBannerLine, paymentsTestMode, startupProblems } from "../../server/start-checks.ts";
import { adminSend } from "../support/admin.ts";
import {
  createTestUser,
  errorOf,
  freePort,
  startTestPocketBase,
  TEST_CREDENTIALS_KEY,
  TEST_PAYMENTS_ENV,
  TEST_RATE_LIMIT_ENV,
  type TestPocketBase,
} from "../support/pocketbase.ts";
import { addStock, customer, expectEveryBalanceMatchesItsLedger, purchase, shopClients, type Shop } from "../support/shop.ts";
import { linkFrom, smtpEnv, startTestMailbox, waitForMail, type TestMailbox } from "../support/smtp-sink.ts";

const PROXY_FIELDS_MESSAGE = /cannot be set through the records API: change them in the console's Proxy Management/;

describe("finding 6: a proxy's owner, status and term are never written through the records API", () => {
  let tpb: TestPocketBase;
  let shop: Shop;

  beforeAll(async () => {
    tpb = await startTestPocketBase();
    shop = await shopClients(tpb);
  });
  afterAll(async () => {
    await tpb?.stop();
  });
  afterEach(async () => {
    await expectEveryBalanceMatchesItsLedger(shop.su);
  });

  /** A proxy a new customer bought (ASSIGNED, theirs, 30 days, auto-renew off). */
  async function ownedProxy(): Promise<{ proxy: RecordModel; owner: string }> {
    const country = `F${Date.now().toString(36).slice(-4).toUpperCase()}`;
    await addStock(shop, { country, count: 1 });
    const buyer = await customer(shop, 5000);
    const res = await purchase(buyer.pb, { type: "RESIDENTIAL", country, quantity: 1 });
    return { proxy: res.proxies[0]!, owner: buyer.id };
  }

  const stockBody = (tag: string) => ({
    host: `f6-${tag}-${Date.now()}.test`,
    port: 8080,
    username: "u",
    password: "Secret#1",
    type: "HTTP",
    country: "US",
  });

  it("finding 6: creating a proxy with an owner, a status other than Available, an expiry or auto-renew is refused, superusers included", async () => {
    const { owner } = await ownedProxy();
    for (const [who, pb] of [
      ["superuser", shop.su],
      ["admin", shop.admin],
    ] as const) {
      for (const extra of [
        { status: "ASSIGNED", assigned_to_user_id: owner, expires_at: "2099-01-01 00:00:00.000Z" },
        { status: "AVAILABLE", assigned_to_user_id: owner },
        { status: "MAINTENANCE" },
        { status: "AVAILABLE", expires_at: "2099-01-01 00:00:00.000Z" },
        { status: "AVAILABLE", auto_renew: true },
        { status: "AVAILABLE", expiry_notice_sent_at: "2099-01-01 00:00:00.000Z" },
      ]) {
        const body = { ...stockBody(who), ...extra };
        const err = await errorOf(() => pb.collection("proxies").create(body));
        expect(err.status, `${who} ${JSON.stringify(extra)}`).toBe(403);
        expect(err.response["message"]).toMatch(/A new proxy starts Available, with no owner, expiry or auto-renewal/);
        const stored = await shop.su.collection("proxies").getList(1, 1, { filter: shop.su.filter("host = {:h}", { h: body.host }) });
        expect(stored.totalItems).toBe(0);
      }
      // Stock is still made through the API.
      const stock = await pb.collection("proxies").create({ ...stockBody(`${who}-ok`), status: "AVAILABLE" });
      expect(stock).toMatchObject({ status: "AVAILABLE", assigned_to_user_id: "", expires_at: "", auto_renew: false });
    }
  });

  it("finding 6: an update never changes a proxy's owner, status, expiry, auto-renew or notice, superusers included (403, row unchanged)", async () => {
    const { proxy, owner } = await ownedProxy();
    const other = await customer(shop);
    const before = await shop.su.collection("proxies").getOne(proxy.id);
    expect(before).toMatchObject({ status: "ASSIGNED", assigned_to_user_id: owner });
    for (const [who, pb] of [
      ["superuser", shop.su],
      ["admin", shop.admin],
    ] as const) {
      for (const body of [
        { assigned_to_user_id: other.id },
        { assigned_to_user_id: "" },
        { status: "AVAILABLE" },
        { status: "EXPIRED" },
        { expires_at: "2099-01-01 00:00:00.000Z" },
        { auto_renew: true },
        { expiry_notice_sent_at: "2026-01-01 00:00:00.000Z" },
        { city: "Springfield", status: "AVAILABLE", assigned_to_user_id: "", expires_at: "" },
      ]) {
        const err = await errorOf(() => pb.collection("proxies").update(proxy.id, body));
        expect(err.status, `${who} ${JSON.stringify(body)}`).toBe(403);
        expect(err.response["message"]).toMatch(PROXY_FIELDS_MESSAGE);
      }
    }
    expect(await shop.su.collection("proxies").getOne(proxy.id)).toEqual(before);
    // Other fields still change (the password through the records API is sealed and audited).
    const updated = await shop.admin.collection("proxies").update(proxy.id, { city: "Springfield" });
    expect(updated).toMatchObject({ city: "Springfield", status: "ASSIGNED", assigned_to_user_id: owner });
  });

  it("finding 6: the console's audited route releases a customer's proxy with a new password", async () => {
    const { proxy, owner } = await ownedProxy();
    const released = await adminSend<RecordModel>(shop.admin, `/api/admin/proxies/${proxy.id}`, { status: "AVAILABLE" }, "PATCH");
    expect(released).toMatchObject({ status: "AVAILABLE", assigned_to_user_id: "", expires_at: "", auto_renew: false });
    expect(released["password"]).not.toBe(proxy["password"]);
    const audit = await shop.su.collection("audit_logs").getFirstListItem(shop.su.filter("target_id = {:id}", { id: proxy.id }));
    expect(audit).toMatchObject({ action: "proxies.update" });
    expect(audit["details"]).toMatchObject({
      changes: { status: { from: "ASSIGNED", to: "AVAILABLE" }, assigned_to_user_id: { from: owner, to: "" }, password: { changed: true } },
    });
  });
});

const DEMO = {
  admin: { email: "admin@demo.test", password: "DemoAdmin#Test2026" },
  customer: { email: "customer@demo.test", password: "DemoCustomer#Test2026" },
};
const DEMO_ENV = {
  SHOP_DEMO_SEED: "true",
  SHOP_DEMO_ADMIN_EMAIL: DEMO.admin.email,
  SHOP_DEMO_ADMIN_PASSWORD: DEMO.admin.password,
  SHOP_DEMO_CUSTOMER_EMAIL: DEMO.customer.email,
  SHOP_DEMO_CUSTOMER_PASSWORD: DEMO.customer.password,
};
const DEMO_ACCOUNT_MESSAGE =
  "Demo mode is on: the demo accounts cannot change their profile, e-mail or password, buy proxies or buy credits. Sign up for an account of your own to do that.";

describe("finding 5: in demo mode the demo accounts cannot be changed and cannot buy", () => {
  let tpb: TestPocketBase;
  let mailbox: TestMailbox;
  let su: PocketBase;
  let demoCustomer: PocketBase;
  let demoAdmin: PocketBase;

  const setDemoMode = async (on: boolean) => {
    const row = await su.collection("settings").getFirstListItem('key = "demo_mode"');
    await su.collection("settings").update(row.id, { value: on ? "true" : "false" });
  };
  const signInDemo = async (who: { email: string; password: string }) => {
    const pb = tpb.client();
    await pb.collection("users").authWithPassword(who.email, who.password);
    return pb;
  };
  const userRow = (email: string) => su.collection("users").getFirstListItem(su.filter("email = {:email}", { email }));
  const expectDemoRefusal = async (run: () => Promise<unknown>, what: string) => {
    const err = await errorOf(run);
    expect(err.status, what).toBe(403);
    expect(err.response["message"], what).toBe(DEMO_ACCOUNT_MESSAGE);
  };

  beforeAll(async () => {
    mailbox = await startTestMailbox();
    tpb = await startTestPocketBase({ ...DEMO_ENV, SHOP_APP_URL: "http://shop.test:4321", ...smtpEnv(mailbox.sink) });
    su = await tpb.superuser();
    await setDemoMode(true);
    demoCustomer = await signInDemo(DEMO.customer);
    demoAdmin = await signInDemo(DEMO.admin);
  });
  afterAll(async () => {
    await tpb?.stop();
    await mailbox?.stop();
  });

  it("finding 5: the seed marks both demo accounts (users.is_demo, hidden from them)", async () => {
    expect(await userRow(DEMO.admin.email)).toMatchObject({ is_demo: true, is_admin: true });
    expect(await userRow(DEMO.customer.email)).toMatchObject({ is_demo: true });
    const own = await demoCustomer.collection("users").getOne(demoCustomer.authStore.record!.id);
    expect(own).not.toHaveProperty("is_demo");
  });

  it("finding 5: no records-API change of a demo account's profile, password or e-mail, by itself or by an admin", async () => {
    const customerRow = await userRow(DEMO.customer.email);
    const adminRow = await userRow(DEMO.admin.email);
    for (const [who, pb, id] of [
      ["demo customer", demoCustomer, customerRow.id],
      ["demo admin", demoAdmin, adminRow.id],
    ] as const) {
      for (const body of [
        { first_name: "Mallory" },
        { last_name: "Locked" },
        { country: "Nowhere" },
        { onboarding_completed: false },
        {
          password: "Taken#Over2026",
          passwordConfirm: "Taken#Over2026",
          oldPassword: who === "demo admin" ? DEMO.admin.password : DEMO.customer.password,
        },
      ]) {
        await expectDemoRefusal(() => pb.collection("users").update(id, body), `${who} ${JSON.stringify(body)}`);
      }
      // Refused to every non-superuser already ("Contact support ..."), demo or not.
      expect((await errorOf(() => pb.collection("users").requestEmailChange("taken@over.test"))).status, `${who} e-mail change`).toBe(403);
    }
    // Another admin, or the demo admin, cannot change the demo customer either (the update
    // rule already limits every caller to their own row: 404).
    const otherAdmin = await signInDemo(await createTestUser(su, { is_admin: true }));
    for (const pb of [otherAdmin, demoAdmin]) {
      const err = await errorOf(() =>
        pb
          .collection("users")
          .update(customerRow.id, { first_name: "Mallory", password: "Taken#Over2026", passwordConfirm: "Taken#Over2026" }),
      );
      expect([403, 404]).toContain(err.status);
    }
    expect(await userRow(DEMO.customer.email)).toEqual(customerRow);
    expect(await userRow(DEMO.admin.email)).toEqual(adminRow);
    // The published passwords still sign in.
    await signInDemo(DEMO.customer);
    await signInDemo(DEMO.admin);
  });

  it("finding 5: a password reset link cannot change a demo account's password", async () => {
    const after = Date.now() - 1000;
    await tpb.client().collection("users").requestPasswordReset(DEMO.customer.email);
    const mail = await waitForMail(mailbox.sink, DEMO.customer.email, /password/i, { after });
    const token = new URL(linkFrom(mail, "/reset-password?token=")).searchParams.get("token") ?? "";
    await expectDemoRefusal(
      () => tpb.client().collection("users").confirmPasswordReset(token, "Taken#Over2026", "Taken#Over2026"),
      "reset",
    );
    await signInDemo(DEMO.customer);
    expect((await errorOf(() => signInDemo({ email: DEMO.customer.email, password: "Taken#Over2026" }))).status).toBe(400);
  });

  it("finding 5: the demo customer cannot buy, renew, regenerate, toggle auto-renew or buy credits; reads and support work", async () => {
    const me = demoCustomer.authStore.record!.id;
    const proxies = await demoCustomer.collection("proxies").getFullList();
    expect(proxies.length).toBeGreaterThan(0);
    const proxy = proxies[0]!;
    const balanceBefore = (await su.collection("balances").getFirstListItem(su.filter("user_id = {:me}", { me })))["balance_cents"];
    const ordersBefore = (await su.collection("proxy_orders").getList(1, 1, { filter: su.filter("user_id = {:me}", { me }) })).totalItems;
    const key = () => ({ "Idempotency-Key": randomUUID() });
    const calls: [string, string, unknown][] = [
      ["POST", "/api/v1/proxies/purchase", { type: "RESIDENTIAL", country: "US", quantity: 1 }],
      ["POST", "/api/v1/proxies/renew", { proxy_ids: [proxy.id] }],
      ["PATCH", `/api/v1/proxies/${proxy.id}`, { auto_renew: !proxy["auto_renew"] }],
      ["POST", `/api/v1/proxies/${proxy.id}/regenerate-credentials`, {}],
      ["POST", "/api/v1/credits/checkout", { package_id: "package-10" }],
    ];
    for (const [method, url, body] of calls) {
      await expectDemoRefusal(
        () => demoCustomer.send(url, { method, body: body as Record<string, unknown>, headers: key() }),
        `${method} ${url}`,
      );
    }
    expect(await demoCustomer.collection("proxies").getOne(proxy.id)).toEqual(proxy);
    expect((await su.collection("balances").getFirstListItem(su.filter("user_id = {:me}", { me })))["balance_cents"]).toBe(balanceBefore);
    expect((await su.collection("proxy_orders").getList(1, 1, { filter: su.filter("user_id = {:me}", { me }) })).totalItems).toBe(
      ordersBefore,
    );
    expect(
      (await su.collection("payments").getList(1, 50, { filter: su.filter("user_id = {:me}", { me }) })).items.every(
        (p) => p["status"] !== "pending",
      ),
    ).toBe(true);

    // Reading works, and so does support.
    expect(await demoCustomer.send("/api/v1/proxies/prices", { method: "GET" })).toHaveProperty("RESIDENTIAL");
    const ticket = await demoCustomer.collection("support_tickets").create({ user_id: me, subject: "Demo question", priority: "low" });
    expect(ticket).toMatchObject({ subject: "Demo question" });
    // The demo admin cannot buy either.
    await expectDemoRefusal(
      () => demoAdmin.send("/api/v1/credits/checkout", { method: "POST", body: { package_id: "package-10" }, headers: key() }),
      "demo admin checkout",
    );
  });

  it("finding 5: other accounts are unaffected, a superuser may still change a demo account, and demo mode off lifts the lock", async () => {
    const someone = await customer(await shopClients(tpb), 0);
    expect(await someone.pb.collection("users").update(someone.id, { first_name: "Robin" })).toMatchObject({ first_name: "Robin" });

    const row = await userRow(DEMO.customer.email);
    expect(await su.collection("users").update(row.id, { last_name: "Customer" })).toMatchObject({ last_name: "Customer" });

    await setDemoMode(false);
    try {
      expect(await demoCustomer.collection("users").update(row.id, { first_name: "Casey" })).toMatchObject({ first_name: "Casey" });
    } finally {
      await setDemoMode(true);
    }
  });
});

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
      tpb = await startTestPocketBase(DEMO_ENV, { dataDir });
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
    let tpb: TestPocketBase;
    let shop: Shop;
    beforeAll(async () => {
      tpb = await startTestPocketBase();
      shop = await shopClients(tpb);
      const row = await shop.su.collection("settings").getFirstListItem('key = "admin_registration_enabled"');
      await shop.su.collection("settings").update(row.id, { value: "true" });
    });
    afterAll(async () => {
      await tpb?.stop();
    });

    it("finding 9: POST {token} checks the link; the old query form answers 405; the request log never holds the token", async () => {
      const made = await adminSend<{ url: string; expires_at: string }>(shop.admin, "/api/admin/invitations", {});
      const token = new URL(made.url).searchParams.get("token") ?? "";
      expect(token).not.toBe("");
      const checked = await tpb.client().send("/api/shop/admin-invitations/check", { method: "POST", body: { token } });
      expect(checked).toEqual({ valid: true, email: null, expires_at: made.expires_at });

      const decoy = "d".repeat(43);
      const old = await errorOf(() => tpb.client().send("/api/shop/admin-invitations/check", { method: "GET", query: { token: decoy } }));
      expect(old.status).toBe(405);
      expect(old.response["message"]).toMatch(/Send the invitation token in a JSON body/);
      expect((await errorOf(() => tpb.client().send("/api/shop/admin-invitations/check", { method: "POST", body: {} }))).status).toBe(404);

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
