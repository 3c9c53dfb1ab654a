// The rate limiter answers 429 to bursts on public write and auth endpoints, per client
// IP as forwarded by the web server. No address is exempt, loopback included (behind a
// same-host proxy it would be every visitor). Its own PocketBase with the real default
// limits (REAL_RATE_LIMITS), so neither the other files' traffic nor the raised test
// limits count.
import type PocketBase from "pocketbase";
import type { ClientResponseError } from "pocketbase";
import { beforeAll, describe, expect, it } from "vitest";
import { clientFrom, createTestUser, errorOf, forwardedFrom, REAL_RATE_LIMITS, statusOf, type TestUser } from "../support/pocketbase.ts";
import { usePocketBase } from "../support/use-shop.ts";

const pocketbase = usePocketBase({ env: REAL_RATE_LIMITS, ledger: false });
let user: TestUser;

beforeAll(async () => {
  user = await createTestUser(pocketbase.su);
});

const contact = (pb: PocketBase, n: number) =>
  pb.collection("contact_messages").create({
    name: "Burst Sender",
    email: "burst@example.com",
    subject: `Burst ${n}`,
    message: "Sending many messages quickly.",
    type: "general",
  });

it("limits contact form submissions to 5 a minute per IP", async () => {
  const pb = clientFrom(pocketbase.tpb, "203.0.113.10");
  const statuses: number[] = [];
  for (let i = 0; i < 7; i++) statuses.push(await statusOf(() => contact(pb, i)));
  expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429]);
  // Another client is not affected.
  expect(await statusOf(() => contact(clientFrom(pocketbase.tpb, "203.0.113.11"), 99))).toBe(200);
});

it("limits sign-in attempts to 10 a minute per IP, right or wrong password", async () => {
  const pb = clientFrom(pocketbase.tpb, "203.0.113.20");
  const statuses: number[] = [];
  for (let i = 0; i < 10; i++) statuses.push(await statusOf(() => pb.collection("users").authWithPassword(user.email, "wrong-password")));
  expect(statuses.every((s) => s === 400)).toBe(true);
  expect(await statusOf(() => pb.collection("users").authWithPassword(user.email, user.password))).toBe(429);
  expect(
    await statusOf(() => clientFrom(pocketbase.tpb, "203.0.113.21").collection("users").authWithPassword(user.email, user.password)),
  ).toBe(200);
});

it("limits password reset requests", async () => {
  const pb = clientFrom(pocketbase.tpb, "203.0.113.30");
  const statuses: number[] = [];
  for (let i = 0; i < 6; i++) statuses.push(await statusOf(() => pb.collection("users").requestPasswordReset(user.email)));
  expect(statuses.slice(0, 5).every((s) => s === 200 || s === 204)).toBe(true);
  expect(statuses[5]).toBe(429);
});

it("limits the sign-up route by path", async () => {
  const pb = clientFrom(pocketbase.tpb, "203.0.113.40");
  const statuses: number[] = [];
  for (let i = 0; i < 11; i++) {
    statuses.push(await statusOf(() => pb.send("/api/shop/signup", { method: "POST", body: {} })));
  }
  expect(statuses.slice(0, 10)).not.toContain(429);
  expect(statuses[10]).toBe(429);
});

it("limits loopback clients like any other address", async () => {
  const settings = await (await pocketbase.tpb.superuser()).settings.getAll();
  expect(settings["rateLimits"]["excludedIPs"]).toEqual([]);
  const pb = pocketbase.tpb.client();
  const statuses: number[] = [];
  for (let i = 0; i < 7; i++) statuses.push(await statusOf(() => contact(pb, 100 + i)));
  expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429]);
});

it("limits purchases to 30 per 10 seconds per IP; refused ones buy nothing", async () => {
  const su = await pocketbase.tpb.superuser();
  const buyer = await createTestUser(su);
  const pb = clientFrom(pocketbase.tpb, "203.0.113.50");
  await pb.collection("users").authWithPassword(buyer.email, buyer.password);
  const statuses: number[] = [];
  // No balance and no stock: every purchase the limiter lets through is refused by the route
  // itself (409), the rest get 429 before the route runs.
  for (let i = 0; i < 32; i++) {
    statuses.push(
      await statusOf(() =>
        pb.send("/api/v1/proxies/purchase", {
          method: "POST",
          headers: { "Idempotency-Key": `burst-${i}` },
          body: { type: "RESIDENTIAL", country: "NO", quantity: 1 },
        }),
      ),
    );
  }
  expect(statuses.slice(0, 30).every((s) => s === 409)).toBe(true);
  expect(statuses.slice(30)).toEqual([429, 429]);
  const other = clientFrom(pocketbase.tpb, "203.0.113.51");
  other.authStore.save(pb.authStore.token, pb.authStore.record);
  expect(
    await statusOf(() =>
      other.send("/api/v1/proxies/purchase", {
        method: "POST",
        headers: { "Idempotency-Key": "other" },
        body: { type: "RESIDENTIAL", country: "NO", quantity: 1 },
      }),
    ),
  ).toBe(409);
});

// Moved from accounts.test.ts (the account routes' limits).
describe("rate limits", () => {
  // A PocketBase of its own with the real default limits and SHOP_AUTH_RATE_LIMIT=4 (4
  // sign-ins, 2 mails a minute per client).
  const limitedShop = usePocketBase({
    mail: true,
    env: { ...REAL_RATE_LIMITS, SHOP_APP_URL: "http://shop.test:4321", SHOP_AUTH_RATE_LIMIT: "4" },
    ledger: false,
  });

  it("answers repeated failed sign-ins from one client with 429 Too Many Requests", async () => {
    const headers = forwardedFrom(limitedShop.tpb, "203.0.113.7");
    const client = limitedShop.tpb.client();
    const statuses: number[] = [];
    let last: ClientResponseError | null = null;
    for (let i = 0; i < 6; i++) {
      last = await errorOf(() => client.collection("users").authWithPassword("nobody@api.test", "Wrong#Pass0", { headers }));
      statuses.push(last.status);
    }
    expect(statuses.slice(0, 4)).toEqual([400, 400, 400, 400]);
    expect(statuses.slice(4)).toEqual([429, 429]);
    expect(last?.response["message"]).toMatch(/too many requests/i);
    // Another client is not affected.
    const other = await errorOf(() =>
      client
        .collection("users")
        .authWithPassword("nobody@api.test", "Wrong#Pass0", { headers: forwardedFrom(limitedShop.tpb, "203.0.113.8") }),
    );
    expect(other.status).toBe(400);
  });

  it("limits sign-ups and code requests too", async () => {
    const headers = forwardedFrom(limitedShop.tpb, "203.0.113.9");
    const client = limitedShop.tpb.client();
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) {
      statuses.push(await statusOf(() => client.collection("users").requestOTP("nobody@api.test", { headers })));
    }
    expect(statuses).toEqual([200, 200, 429]);
  });
});
