// API key abuse (issue #18) against a PocketBase whose per-key rate limit is small
// (API_KEY_RATE_LIMIT): a brute force of random psk_live_ keys, and near misses of a real
// one, get only 401 problem details (never a 5xx, never anyone's account, no row written);
// a burst on one key is cut off with 429s (RateLimit headers, Retry-After, a readable
// problem) and the refused purchases buy nothing, while another key of the same customer is
// served; garbage and oversize Authorization headers get a readable 4xx.
import { randomBytes, randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestPocketBase, type TestPocketBase } from "../support/pocketbase.ts";
import { addStock, customer, shopClients, type Customer, type Shop } from "../support/shop.ts";
import { changedTables, dbSnapshotter, type DbSnapshotter } from "./support/db-snapshot.ts";
import { FULL } from "./support/fuzz-kit.ts";
import { errorBodyProblems, pool, sendRaw, type HostileResponse } from "./support/http.ts";

/** Requests a key may make a minute on this shop. */
const PER_MINUTE = 5;
/** Random keys the brute force tries (HOSTILE_PROFILE=full: more). */
const GUESSES = FULL ? 2_000 : 200;
const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

let tpb: TestPocketBase;
let shop: Shop;
let db: DbSnapshotter;
let owner: Customer;
/** Keys of `owner`: a read key kept for the checks, one for the burst, one that buys. */
const keys = { read: "", burst: "", buyer: "" };

function randomKey(): string {
  const bytes = randomBytes(32);
  return `psk_live_${[...bytes].map((b) => ALPHABET[b % ALPHABET.length]).join("")}`;
}

function get(path: string, authorization: string | undefined, headers: Record<string, string> = {}): Promise<HostileResponse> {
  return sendRaw(tpb.url, {
    method: "GET",
    url: path,
    headers: { ...(authorization === undefined ? {} : { Authorization: authorization }), ...headers },
    target: path,
  });
}

function buy(key: string, body: unknown): Promise<HostileResponse> {
  return sendRaw(tpb.url, {
    method: "POST",
    url: "/api/v1/proxies/purchase",
    headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json", "Idempotency-Key": randomUUID() },
    body: JSON.stringify(body),
    target: "purchase",
  });
}

/** A readable refusal: the status expected, a problem-details body a person can read, nothing of `owner`. */
function expectRefusal(res: HostileResponse, statuses: number[], what: string): void {
  expect(statuses, `${what}: ${res.status} ${res.text.slice(0, 200)}`).toContain(res.status);
  expect(errorBodyProblems(res, { custom: true }), what).toEqual([]);
  for (const secret of [owner.email, owner.id]) expect(res.text.includes(secret), `${what} shows the owner's account`).toBe(false);
}

beforeAll(async () => {
  tpb = await startTestPocketBase({ API_KEY_RATE_LIMIT: String(PER_MINUTE) });
  shop = await shopClients(tpb);
  owner = await customer(shop, 10_000);
  for (const [name, scopes] of [
    ["read", ["read"]],
    ["burst", ["read"]],
    ["buyer", ["read", "purchase"]],
  ] as const) {
    const made = await owner.pb.send<{ key: string }>("/api/v1/api-keys", { method: "POST", body: { name, scopes } });
    keys[name] = made.key;
  }
  db = dbSnapshotter(tpb.dataDir);
}, 120_000);

afterAll(async () => {
  (db as DbSnapshotter | undefined)?.close();
  await tpb?.stop();
});

describe("guessing API keys", () => {
  it("a brute force of random psk_live_ keys gets only 401s and changes nothing", async () => {
    const before = await db.take();
    const paths = ["/api/v1/account", "/api/v1/proxies", "/api/v1/api-keys", "/api/v1/transactions"];
    const tasks = Array.from({ length: GUESSES }, (_, i) => () => {
      const key = randomKey();
      const path = paths[i % paths.length]!;
      return i % 7 === 0
        ? buy(key, { type: "RESIDENTIAL", country: "US", quantity: 1 })
        : get(path, i % 2 === 0 ? `Bearer ${key}` : key, { "X-Forwarded-For": `203.0.113.${i % 250}` });
    });
    const answers = await pool(tasks, 8);
    const statuses = new Map<number, number>();
    for (const res of answers) statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
    expect([...statuses.keys()], JSON.stringify([...statuses])).toEqual([401]);
    for (const res of answers.slice(0, 40)) {
      expectRefusal(res, [401], "a random key");
      expect((res.json as { code?: string }).code).toBe("invalid_api_key");
    }
    expect(changedTables(before, await db.take())).toEqual([]);
  });

  it("near misses of a real key (one character changed, cut, lengthened, another case or prefix) are 401", async () => {
    const real = keys.read;
    const flip = (i: number) => real.slice(0, i) + (real[i] === "A" ? "B" : "A") + real.slice(i + 1);
    const misses = [
      flip(real.length - 1),
      flip(9),
      flip(real.length >> 1),
      real.slice(0, -1),
      `${real}A`,
      real.toUpperCase(),
      real.replace("psk_live_", "psk_test_"),
      real.replace("psk_live_", "psk_"),
      real.slice("psk_live_".length),
      ` ${real}x `,
    ];
    const before = await db.take();
    for (const miss of misses) {
      for (const authorization of [`Bearer ${miss}`, miss]) {
        expectRefusal(await get("/api/v1/account", authorization), [401], `near miss ${miss.slice(0, 14)}…`);
      }
    }
    expect(changedTables(before, await db.take())).toEqual([]);
    // The real key still works (the control).
    expect((await get("/api/v1/account", `Bearer ${real}`)).status).toBe(200);
  });
});

describe("the per-key rate limit", () => {
  it("answers 429 to a burst on one key while another key is served", async () => {
    const burst = await Promise.all(Array.from({ length: PER_MINUTE * 3 }, () => get("/api/v1/account", `Bearer ${keys.burst}`)));
    const ok = burst.filter((r) => r.status === 200);
    const limited = burst.filter((r) => r.status === 429);
    expect(ok.length + limited.length, burst.map((r) => r.status).join()).toBe(burst.length);
    expect(ok.length).toBe(PER_MINUTE);
    const refused = await get("/api/v1/account", `Bearer ${keys.burst}`);
    expectRefusal(refused, [429], "a key over its minute");
    expect(refused.json).toMatchObject({ status: 429, code: "rate_limited" });
    expect((refused.json as { detail: string }).detail).toMatch(/at most 5 a minute/);
    // The other key of the same customer, from the same address, is served meanwhile.
    const other = await get("/api/v1/account", `Bearer ${keys.read}`);
    expect(other.status, other.text).toBe(200);
    expect((other.json as { email?: string }).email).toBe(owner.email);
  });

  it("purchases refused by the limit buy nothing", async () => {
    const country = `RL${randomUUID().slice(0, 4)}`;
    await addStock(shop, { type: "DATACENTER", country, count: PER_MINUTE * 3 });
    const answers = await Promise.all(
      Array.from({ length: PER_MINUTE * 3 }, () => buy(keys.buyer, { type: "DATACENTER", country, quantity: 1 })),
    );
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s === 200).length, statuses.join()).toBe(PER_MINUTE);
    expect(statuses.filter((s) => s === 429).length, statuses.join()).toBe(PER_MINUTE * 2);
    for (const res of answers.filter((r) => r.status === 429)) expectRefusal(res, [429], "a limited purchase");
    const orders = await shop.su.collection("proxy_orders").getFullList({ filter: shop.su.filter("country = {:c}", { c: country }) });
    expect(orders.length).toBe(PER_MINUTE);
    const sold = await shop.su
      .collection("proxies")
      .getFullList({ filter: shop.su.filter("country = {:c} && status = 'ASSIGNED'", { c: country }) });
    expect(sold.length).toBe(PER_MINUTE);
  });
});

describe("garbage in Authorization", () => {
  it("gets a readable 4xx, never a 5xx, and changes nothing", async () => {
    const values = [
      "Bearer",
      "Bearer ",
      "Bearer psk_",
      "Bearer psk_live_",
      `Bearer psk_live_${"A".repeat(8_000)}`,
      `psk_live_${"x".repeat(60_000)}`,
      `Bearer ${"psk_live_".repeat(3_000)}`,
      `Bearer ${keys.read}, Bearer ${keys.burst}`,
      `Bearer ${keys.read} ${keys.read}`,
      `Bearer\t${randomKey()}`,
      `Basic ${Buffer.from(`${owner.email}:${owner.password}`).toString("base64")}`,
      "Bearer psk_live_ÿÿÿ€€€😀😀😀",
      "Bearer psk_live_\u0000\t\t",
      "Bearer psk_live_' OR 1=1 --",
      'Bearer psk_live_"},{"id":"',
      "Bearer psk_live_%00%0d%0a",
      "Bearer eyJhbGciOiJub25lIn0.eyJpZCI6ImFkbWluIn0.",
    ];
    const before = await db.take();
    for (const value of values) {
      for (const path of ["/api/v1/account", "/api/v1/proxies?limit=1"]) {
        const res = await get(path, value);
        const what = `Authorization ${JSON.stringify(value.slice(0, 40))} (${value.length} characters) on ${path}`;
        expect(res.status, `${what}: ${res.text.slice(0, 200)}`).toBeGreaterThanOrEqual(400);
        expect(res.status, what).toBeLessThan(500);
        expect(errorBodyProblems(res, { custom: true }), what).toEqual([]);
        expect(res.text.includes(owner.email), `${what} shows the owner's account`).toBe(false);
      }
    }
    expect(changedTables(before, await db.take())).toEqual([]);
  });
});
