// Brute force (issue #8) against a PocketBase with the real default rate limits
// (REAL_RATE_LIMITS), each client identified by X-Forwarded-For the way the web server
// forwards it: 1,000 wrong passwords for one account from one address are walled off with
// 429s that say why, while another address and the account's owner sign in normally
// (the limiter is per address, and there is no account lock-out an attacker could use to
// shut the owner out). The money and support routes have their own walls: a flood from one
// address is refused with 429 and buys nothing, while another address is served.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createTestUser,
  forwardedFrom,
  REAL_RATE_LIMITS,
  startTestPocketBase,
  type TestPocketBase,
  type TestUser,
} from "../support/pocketbase.ts";
import { changedTables, dbSnapshotter, type DbSnapshotter } from "./support/db-snapshot.ts";
import { errorBodyProblems, pool, sendRaw, type HostileResponse } from "./support/http.ts";

/** The default limits (pb_hooks/lib/settings/rate-limits.js DEFAULT_RULES) these tests prove. */
const AUTH_PER_MINUTE = 10;

let tpb: TestPocketBase;
let db: DbSnapshotter;
let victim: TestUser;
let buyer: TestUser;
let buyerToken: string;
let su: Awaited<ReturnType<TestPocketBase["superuser"]>>;

function signIn(ip: string, identity: string, password: string): Promise<HostileResponse> {
  return sendRaw(tpb.url, {
    method: "POST",
    url: "/api/collections/users/auth-with-password",
    headers: { "Content-Type": "application/json", ...forwardedFrom(tpb, ip) },
    body: JSON.stringify({ identity, password }),
    target: "sign-in",
  });
}

function expectClear429(res: HostileResponse, what: string): void {
  expect(res.status, what).toBe(429);
  expect(errorBodyProblems(res, { custom: false }), what).toEqual([]);
}

beforeAll(async () => {
  tpb = await startTestPocketBase({ ...REAL_RATE_LIMITS });
  su = await tpb.superuser();
  victim = await createTestUser(su, { email: `victim-${randomUUID().slice(0, 8)}@hostile.test` });
  buyer = await createTestUser(su, { email: `buyer-${randomUUID().slice(0, 8)}@hostile.test` });
  const auth = await signIn("198.51.100.99", buyer.email, buyer.password);
  buyerToken = (auth.json as { token: string }).token;
  db = dbSnapshotter(tpb.dataDir);
}, 120_000);

afterAll(async () => {
  db?.close();
  await tpb?.stop();
});

describe("sign-in brute force", () => {
  it("walls off 1,000 wrong passwords from one address with clear 429s; another address and the owner sign in meanwhile", async () => {
    const attacker = "203.0.113.66";
    const bystander = await createTestUser(su, { email: `bystander-${randomUUID().slice(0, 8)}@hostile.test` });

    // The flood is one queue of tasks: at its start, middle and near its end, a bystander's
    // address and the owner's own address sign in with the right password. Their place in
    // the queue, not a timer, puts them inside the flood, so a fast machine cannot finish
    // the flood first.
    let attemptsStarted = 0;
    let attemptsDone = 0;
    const results: HostileResponse[] = [];
    const meanwhile: { who: string; status: number; during: boolean }[] = [];
    const tasks: (() => Promise<unknown>)[] = [];
    const checkpoints = new Map([
      [50, 0],
      [500, 1],
      [700, 2],
    ]);
    for (let i = 0; i < 1000; i++) {
      tasks.push(async () => {
        attemptsStarted++;
        results[i] = await signIn(attacker, victim.email, `wrong-${i}-${randomUUID()}`);
        attemptsDone++;
      });
      const round = checkpoints.get(i);
      if (round === undefined) continue;
      tasks.push(async () => {
        const during = attemptsStarted > 0 && attemptsDone < 1000;
        const other = await signIn(`192.0.2.${10 + round}`, bystander.email, bystander.password);
        meanwhile.push({ who: "another address", status: other.status, during });
        const owner = await signIn("198.51.100.7", victim.email, victim.password);
        meanwhile.push({ who: "the owner", status: owner.status, during });
      });
    }
    await pool(tasks, 16);

    expect(meanwhile).toHaveLength(6);
    expect(
      meanwhile.every((m) => m.status === 200),
      JSON.stringify(meanwhile),
    ).toBe(true);
    expect(
      meanwhile.every((m) => m.during),
      "the other sign-ins happened during the flood",
    ).toBe(true);
    // None of the wrong passwords got in; the first ones within the limit were checked (400).
    expect(results.filter((r) => r.status === 200)).toHaveLength(0);
    const checked = results.filter((r) => r.status === 400);
    expect(checked.length).toBeGreaterThanOrEqual(1);
    for (const r of checked) expect(errorBodyProblems(r, { custom: false })).toEqual([]);
    const pastTheLimit = results.slice(AUTH_PER_MINUTE);
    const walled = pastTheLimit.filter((r) => r.status === 429);
    expect(walled.length / pastTheLimit.length, `${walled.length} of ${pastTheLimit.length} past the limit got 429`).toBeGreaterThanOrEqual(
      0.99,
    );
    for (const r of walled.slice(0, 20)) expectClear429(r, "a walled attempt");
    expect(
      results.every((r) => r.status === 400 || r.status === 429),
      [...new Set(results.map((r) => r.status))].join(","),
    ).toBe(true);

    // The attacker's address stays walled for the right password too (per address, not per guess).
    expect((await signIn(attacker, victim.email, victim.password)).status).toBe(429);
  });
});

describe("money and support routes", () => {
  interface Flood {
    name: string;
    path: string;
    body: unknown;
    limit: number;
    /** What an allowed (not rate-limited) request answers: every body here is refused by the route itself. */
    allowed: number[];
    auth: boolean;
  }
  const floods: Flood[] = [
    // No stock in NOWHERE: every purchase the limiter lets through is refused (409).
    {
      name: "proxy purchase",
      path: "/api/v1/proxies/purchase",
      body: { type: "RESIDENTIAL", country: "NO", quantity: 1 },
      limit: 30,
      allowed: [409],
      auth: true,
    },
    {
      name: "proxy renewal",
      path: "/api/v1/proxies/renew",
      body: { proxy_ids: ["nosuchproxy0001"] },
      limit: 30,
      allowed: [404, 409, 400],
      auth: true,
    },
    {
      name: "credit checkout",
      path: "/api/v1/credits/checkout",
      body: { package_id: "no-such-package" },
      limit: 10,
      allowed: [400],
      auth: true,
    },
    {
      name: "support ticket",
      path: "/api/v1/support/tickets",
      body: { subject: "x", message: "y" },
      limit: 10,
      allowed: [400],
      auth: true,
    },
    // Stripe calls the webhook from a few addresses: the catch-all /api/ limit (300 per 10 s
    // per address) walls off a flood of forged events; Stripe retries a 429 later, so no
    // payment is lost. (Stripe is not configured here: allowed calls are a 404.)
    {
      name: "Stripe webhook",
      path: "/api/v1/payments/stripe/webhook",
      body: { type: "checkout.session.completed" },
      limit: 300,
      allowed: [404, 400],
      auth: false,
    },
  ];

  for (const flood of floods) {
    it(`limits the ${flood.name} route per address (${flood.limit} then 429), buys nothing, and serves other addresses`, async () => {
      const before = await db.take();
      const ip = `203.0.113.${100 + floods.indexOf(flood)}`;
      const send = (from: string) =>
        sendRaw(tpb.url, {
          method: "POST",
          url: flood.path,
          headers: {
            "Content-Type": "application/json",
            ...forwardedFrom(tpb, from),
            "Idempotency-Key": randomUUID(),
            ...(flood.auth
              ? { Authorization: buyerToken }
              : { "Stripe-Signature": `t=${Math.floor(Date.now() / 1000)},v1=${"0".repeat(64)}` }),
          },
          body: JSON.stringify(flood.body),
          target: flood.name,
        });
      // All at once, so the burst fits in one window of the limiter.
      const results = await Promise.all(Array.from({ length: flood.limit + 5 }, () => send(ip)));
      const statuses = results.map((r) => r.status);
      const limited = results.filter((r) => r.status === 429);
      expect(limited.length, statuses.join(",")).toBe(5);
      for (const r of limited) expectClear429(r, flood.name);
      expect(
        results.filter((r) => r.status !== 429).every((r) => flood.allowed.includes(r.status)),
        statuses.join(","),
      ).toBe(true);
      // Another address (same account) is served.
      expect(flood.allowed).toContain((await send(`192.0.2.${200 + floods.indexOf(flood)}`)).status);
      expect(changedTables(before, await db.take())).toEqual([]);
    });
  }
});

// Last in the file: it walls off this process's own address (127.0.0.1) for sign-ins.
describe("finding 6: X-Forwarded-For straight to PocketBase's port", () => {
  it("finding 6: a sign-in flood claiming another address each time (no secret, or a guessed one) is walled off as the one address it comes from", async () => {
    const results: HostileResponse[] = [];
    for (let i = 0; i < 3 * AUTH_PER_MINUTE; i++) {
      const forged = `198.18.${i}.${i + 1}`;
      results.push(
        await sendRaw(tpb.url, {
          method: "POST",
          url: "/api/collections/users/auth-with-password",
          headers: {
            "Content-Type": "application/json",
            "X-Forwarded-For": forged,
            "X-Real-IP": forged,
            Forwarded: `for=${forged}`,
            ...(i % 2 === 1 ? { "X-Shop-Forwarding-Secret": randomUUID() } : {}),
          },
          body: JSON.stringify({ identity: victim.email, password: `wrong-${i}-${randomUUID()}` }),
          target: "sign-in",
        }),
      );
    }
    const statuses = results.map((r) => r.status);
    expect(
      statuses.slice(AUTH_PER_MINUTE).every((s) => s === 429),
      statuses.join(","),
    ).toBe(true);
    for (const r of results.slice(AUTH_PER_MINUTE, AUTH_PER_MINUTE + 3)) expectClear429(r, "a forged-address attempt");
    // Visitors the web server forwards are still told apart: the owner signs in.
    expect((await signIn("198.51.100.8", victim.email, victim.password)).status).toBe(200);
  });
});
