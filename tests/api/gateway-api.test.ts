// What a gateway token may do on /api/gateway (security review #26, pocketbase/gatewayapi):
// - finding 5: a usage batch writes each row to the proxy's own owner (never the batch's
//   owner_id), skips proxies that do not exist, is refused whole when its hour is more than
//   2 hours from the shop's clock or it holds more than a gateway can move since the token's
//   previous batches (10 Gbit/s each way), and rows near SQLite's integer limit neither
//   overflow nor break the month's usage (it saturates);
// - finding 8: calls with a valid token are not held to PocketBase's per-IP rate limit (a
//   wrong-password flood at a remote gateway made it spend its address's limit), calls
//   without one still are, and each token has its own limit (GATEWAY_TOKEN_RATE_LIMIT a
//   second): 429 with Retry-After past it.
import { execFileSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { HOOKS_DIR, MIGRATIONS_DIR, POCKETBASE_BIN } from "../../server/pocketbase-process.ts";
import { adminSend } from "../support/admin.ts";
import { forwardedFrom, REAL_RATE_LIMITS, TEST_CREDENTIALS_KEY, type TestPocketBase } from "../support/pocketbase.ts";
import { customer, proxyBuyer, setProxyColumns, type Shop } from "../support/shop.ts";
import { usePocketBase, useShop } from "../support/use-shop.ts";
import { insertUsageRows } from "../support/usage-rows.ts";

const HOUR = 3_600_000;
const TB = 1e12;
const MAX_ROW_COUNT = 2 ** 50;

interface ProxyCounts {
  owner_id?: string;
  bytes_up?: number;
  bytes_down?: number;
  connections?: number;
  failed?: number;
}

const thisHour = () => Math.floor(Date.now() / HOUR) * HOUR;
const monthStart = () => Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), 1);

/** A gateway's call to the shop with `token`, from `ip` (as the web server forwards it) when given. */
async function gatewayCall(
  tpb: TestPocketBase,
  token: string,
  path: string,
  body?: unknown,
  ip?: string,
): Promise<{ status: number; headers: Headers; json: Record<string, unknown> }> {
  const res = await fetch(`${tpb.url}/api/gateway${path}`, {
    method: body === undefined ? "GET" : "POST",
    headers: {
      Authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { "Content-Type": "application/json" }),
      ...(ip ? forwardedFrom(tpb, ip) : {}),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, json: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
}

describe("usage batches (finding 5)", () => {
  const shop = useShop();
  const newToken = async () =>
    (await adminSend<{ token: string }>(shop.admin, "/api/admin/gateway-tokens", { name: `usage-${randomUUID().slice(0, 8)}` })).token;
  const flush = (token: string, proxies: Record<string, ProxyCounts>, hour: number = thisHour()) =>
    gatewayCall(shop.tpb, token, "/usage", {
      gateway: "finding-5",
      hour: new Date(hour).toISOString(),
      proxies,
      counts: { ok: 1, failed: 0, histogram: [] },
      up_seconds: 5,
    });
  const rowsOf = (su: Shop["su"], proxyId: string) =>
    su.collection("proxy_usage").getFullList({ filter: su.filter("proxy_id = {:id}", { id: proxyId }), sort: "user_id" });
  const monthUsage = (token: string) =>
    gatewayCall(shop.tpb, token, `/month-usage?month=${encodeURIComponent(new Date(monthStart()).toISOString())}`);

  it("finding 5: writes each row to the proxy's owner whatever owner_id the batch names, and skips proxies that do not exist", async () => {
    const token = await newToken();
    const { user, proxies } = await proxyBuyer(shop, { count: 1 });
    const id = proxies[0]!.id;
    const stranger = await customer(shop);
    const missing = `zz${randomUUID().replaceAll("-", "").slice(0, 13)}`;
    const answer = await flush(token, {
      [id]: { owner_id: stranger.id, bytes_up: 100, bytes_down: 200, connections: 1 },
      [missing]: { owner_id: stranger.id, bytes_up: 1, connections: 1 },
    });
    expect(answer.status).toBe(200);
    const rows = await rowsOf(shop.su, id);
    expect(rows.map((r) => [r["user_id"], r["bytes_up"], r["bytes_down"], r["connections"]])).toEqual([[user.id, 100, 200, 1]]);
    expect(await rowsOf(shop.su, missing)).toEqual([]);
    expect(await stranger.pb.collection("proxy_usage").getFullList()).toEqual([]);
    expect((await user.pb.send<Record<string, { bytes: number }>>("/api/v1/proxies/usage-summary", {}))[id]?.bytes).toBe(300);
  });

  it("finding 5: refuses a batch whose hour is more than 2 hours from the shop's clock, or not an hour's start; nothing is written", async () => {
    const token = await newToken();
    const { proxies } = await proxyBuyer(shop, { count: 1 });
    const id = proxies[0]!.id;
    for (const hour of [thisHour() - 3 * HOUR, thisHour() + 3 * HOUR, thisHour() - 400 * 24 * HOUR, thisHour() + 30 * 60_000]) {
      const refused = await flush(token, { [id]: { bytes_down: 10 } }, hour);
      expect(refused.status, new Date(hour).toISOString()).toBe(400);
      expect(refused.json["message"]).toBe(
        "The batch's hour must be the start of a UTC hour within 2 hours of the shop's clock (check the gateway's clock).",
      );
    }
    expect(await rowsOf(shop.su, id)).toEqual([]);
    // The hour before this one is still the gateway's to write (a flush late in the hour).
    expect((await flush(token, { [id]: { bytes_down: 10 } }, thisHour() - HOUR)).status).toBe(200);
    expect((await rowsOf(shop.su, id)).map((r) => r["bytes_down"])).toEqual([10]);
  });

  it("finding 5: refuses more than a gateway can move since the token's previous batches (10 Gbit/s each way), whole", async () => {
    const token = await newToken();
    const { proxies } = await proxyBuyer(shop, { count: 2 });
    const [id, other] = proxies.map((p) => p.id) as [string, string];
    const message =
      "This usage batch holds more than a gateway can move since this token's previous batches (10 Gbit/s each way and 100,000 connections a second, at most an hour of it at once): nothing was written.";
    // 10 PB in one hour (the review's batch), and one spread over two proxies.
    for (const batch of [
      { [id]: { bytes_down: 10_000 * TB } },
      { [id]: { bytes_up: 5 * TB }, [other]: { bytes_down: 5 * TB } },
      { [id]: { connections: 400_000_000 } },
    ]) {
      const refused = await flush(token, batch);
      expect(refused.status).toBe(400);
      expect(refused.json["message"]).toBe(message);
    }
    expect([...(await rowsOf(shop.su, id)), ...(await rowsOf(shop.su, other))]).toEqual([]);

    // A fresh token may write an hour of 10 Gbit/s each way (9 TB) at once, then only what
    // the seconds since refill (2.5 GB a second): 2 TB right after 8 TB is refused.
    expect((await flush(token, { [id]: { bytes_up: 4 * TB, bytes_down: 4 * TB } })).status).toBe(200);
    expect((await flush(token, { [id]: { bytes_down: 2 * TB } })).status).toBe(400);
    expect((await flush(token, { [id]: { bytes_down: 10 ** 9 } })).status).toBe(200);
    expect((await rowsOf(shop.su, id)).map((r) => [r["bytes_up"], r["bytes_down"]])).toEqual([[4 * TB, 4 * TB + 10 ** 9]]);
    // Another token's budget is its own.
    expect((await flush(await newToken(), { [other]: { bytes_down: 2 * TB } })).status).toBe(200);
  });

  it("finding 5: rows near SQLite's integer limit neither overflow nor break the month's usage: it saturates", async () => {
    const token = await newToken();
    const { user, proxies } = await proxyBuyer(shop, { count: 1 });
    const id = proxies[0]!.id;
    setProxyColumns(shop.tpb, [id], { bandwidth_quota_bytes: 1000 });
    // What two huge batches left before the bound: two rows of this month that add up past 2^63.
    insertUsageRows(shop.tpb, [
      { proxy_id: id, user_id: user.id, hour: thisHour(), bytes_down: 2 ** 62 },
      { proxy_id: id, user_id: user.id, hour: thisHour() + HOUR, bytes_down: 2 ** 62 },
    ]);
    const month = await monthUsage(token);
    expect(month.status).toBe(200);
    expect((month.json["used"] as Record<string, number>)[id]).toBe(2 ** 63); // 9223372036854775807 as a JS number
    const summary = await user.pb.send<Record<string, { bytes: number; quota_reached: boolean }>>("/api/v1/proxies/usage-summary", {});
    expect(summary[id]).toMatchObject({ bytes: 2 ** 63, quota_reached: true });
    expect((await user.pb.send<{ totals: { bytes: number } }>(`/api/v1/proxies/${id}/usage`, {})).totals.bytes).toBeGreaterThanOrEqual(
      2 ** 62,
    );

    // A batch adding to such a row holds it at 2^50 (a PiB) instead of overflowing it.
    expect((await flush(token, { [id]: { bytes_down: 10, connections: 1 } })).status).toBe(200);
    const row = (await rowsOf(shop.su, id)).find((r) => r["hour"] === new Date(thisHour()).toISOString().replace("T", " "));
    expect(row?.["bytes_down"]).toBe(MAX_ROW_COUNT);
    expect((await monthUsage(token)).status).toBe(200);
  });
});

describe("rate limits of gateway tokens (finding 8)", () => {
  const pocketbase = usePocketBase({ env: { ...REAL_RATE_LIMITS, GATEWAY_TOKEN_RATE_LIMIT: "40" }, ledger: false });
  const makeToken = (name: string) =>
    execFileSync(
      POCKETBASE_BIN,
      ["gateway-token", name, `--dir=${pocketbase.tpb.dataDir}`, `--hooksDir=${HOOKS_DIR}`, `--migrationsDir=${MIGRATIONS_DIR}`],
      { env: { ...process.env, SHOP_CREDENTIALS_KEY: TEST_CREDENTIALS_KEY }, encoding: "utf8" },
    ).trim();
  const call = (token: string, ip?: string) => gatewayCall(pocketbase.tpb, token, "/changes?since=0", undefined, ip);

  it("finding 8: a valid gateway token is not held to its address's rate limit; calls without one still are", async () => {
    const token = makeToken(`flooded-${randomUUID().slice(0, 8)}`);
    const ip = "203.0.113.80";
    // Wrong tokens from the gateway's address until PocketBase's per-IP limit (/api/: 300 in 10 s) refuses them.
    const statuses: number[] = [];
    for (let i = 0; i < 400 && statuses.at(-1) !== 429; i++) statuses.push((await call(`gwt_wrong${i}`, ip)).status);
    expect(statuses.at(-1)).toBe(429);
    expect(new Set(statuses.slice(0, -1))).toEqual(new Set([401]));
    expect((await call("", ip)).status).toBe(429);
    // The gateway itself, from the same address, is still served.
    for (let i = 0; i < 20; i++) expect((await call(token, ip)).status).toBe(200);
  });

  it("finding 8: each token has its own limit, 429 with Retry-After past it, while another token is served", async () => {
    const busy = makeToken(`busy-${randomUUID().slice(0, 8)}`);
    const calm = makeToken(`calm-${randomUUID().slice(0, 8)}`);
    const answers = await Promise.all(Array.from({ length: 150 }, (_, i) => call(busy, `198.51.100.${i % 200}`)));
    const refused = answers.filter((a) => a.status === 429);
    const served = answers.filter((a) => a.status === 200);
    expect(refused.length + served.length).toBe(answers.length);
    expect(refused.length).toBeGreaterThan(0);
    expect(served.length).toBeGreaterThanOrEqual(40);
    for (const answer of refused) {
      expect(Number(answer.headers.get("Retry-After"))).toBeGreaterThanOrEqual(1);
      expect(answer.headers.get("RateLimit-Limit")).toBe("40");
      expect(answer.json["message"]).toMatch(
        /^Too many requests for this gateway token: at most 40 a second \(GATEWAY_TOKEN_RATE_LIMIT\)\. Wait \d+ seconds and try again\.$/,
      );
    }
    expect((await call(calm)).status).toBe(200);
    // Served again once its second is over.
    let status = 429;
    for (let i = 0; i < 100 && status !== 200; i++) {
      status = (await call(busy)).status;
      if (status !== 200) await new Promise((r) => setTimeout(r, 50));
    }
    expect(status).toBe(200);
  });
});
