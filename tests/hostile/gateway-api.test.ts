// A stolen or misbehaving gateway token (security review #26, findings 5 and 8), against a
// PocketBase with the real default rate limits: fast-check sends forged usage batches to
// POST /api/gateway/usage (other customers' ids as owner_id, proxies that do not exist,
// counts up to and past 2^63, negative, fractional and wrong-typed counts, hours far from now
// or not on the hour, garbage bodies). Each is answered 200 or a readable 4xx, never a 5xx;
// afterwards every usage row belongs to its proxy's owner, none holds more than 2^50, what the
// token wrote fits what a gateway can move (10 Gbit/s each way, an hour of it at once), and
// the month's usage still answers for every proxy. Then a flood of wrong tokens from the
// gateway's address walls that address off, while the gateway (a valid token from the same
// address) is still served.
import { randomUUID } from "node:crypto";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminSend } from "../support/admin.ts";
import { forwardedFrom, REAL_RATE_LIMITS, startTestPocketBase, type TestPocketBase } from "../support/pocketbase.ts";
import { addStock, proxyBuyer, shopClients, type Shop } from "../support/shop.ts";
import { check, FULL, runs } from "./support/fuzz-kit.ts";
import { describeRequest, errorBodyProblems, sendRaw, type HostileRequest, type HostileResponse } from "./support/http.ts";

const HOUR = 3_600_000;
const MAX_ROW_COUNT = 2 ** 50;
/** What one token may have written by `seconds` after its first batch: an hour of 10 Gbit/s each way, then that rate. */
const budgetAfter = (seconds: number) => 2.5e9 * (3600 + seconds);

let tpb: TestPocketBase;
let shop: Shop;
let token = "";
/** Proxy id -> its owner ("" for one in stock). */
const owners = new Map<string, string>();
const GATEWAY_IP = "198.51.100.26";

beforeAll(async () => {
  tpb = await startTestPocketBase({ ...REAL_RATE_LIMITS, GATEWAY_TOKEN_RATE_LIMIT: "100000" });
  shop = await shopClients(tpb);
  for (const prefix of ["A", "B"]) {
    const { user, proxies } = await proxyBuyer(shop, { count: 1, prefix });
    owners.set(proxies[0]!.id, user.id);
  }
  const [available] = await addStock(shop, { type: "DATACENTER", country: `S${randomUUID().slice(0, 6)}`, count: 1 });
  owners.set(available!, "");
  token = (await adminSend<{ token: string }>(shop.admin, "/api/admin/gateway-tokens", { name: "hostile" })).token;
}, 120_000);

afterAll(async () => {
  await tpb?.stop();
});

const usageRequest = (body: string, bearer = token, ip = GATEWAY_IP): HostileRequest => ({
  method: "POST",
  url: "/api/gateway/usage",
  headers: { Authorization: `Bearer ${bearer}`, "Content-Type": "application/json", ...forwardedFrom(tpb, ip) },
  body,
  target: "POST /api/gateway/usage",
});

/** Numbers as JSON text, so values past what a JS number holds exactly go out as written. */
const count = fc.oneof(
  { weight: 12, arbitrary: fc.integer({ min: 0, max: 5_000_000_000 }).map(String) },
  { weight: 2, arbitrary: fc.constantFrom("0", "1", "9007199254740993", "1125899906842624", "4611686018427387904", "9223372036854775807") },
  { weight: 1, arbitrary: fc.bigInt({ min: 0n, max: 2n ** 63n - 1n }).map(String) },
  { weight: 1, arbitrary: fc.constantFrom("9223372036854775808", "1e400", "-1", "1.5", '"12"', "null", "true", "[]") },
);
const hourText = fc.oneof(
  { weight: 3, arbitrary: fc.constant(0).map(() => JSON.stringify(new Date(Math.floor(Date.now() / HOUR) * HOUR).toISOString())) },
  fc.integer({ min: -6, max: 6 }).map((k) => JSON.stringify(new Date(Math.floor(Date.now() / HOUR) * HOUR + k * HOUR).toISOString())),
  fc.integer({ min: 1, max: 59 }).map((m) => JSON.stringify(new Date(Math.floor(Date.now() / HOUR) * HOUR + m * 60_000).toISOString())),
  fc.constantFrom('"1970-01-01T00:00:00Z"', '"9999-12-31T23:00:00Z"', '"yesterday"', "0", "null", '""'),
);

/** A batch as JSON text (built once the proxies exist). */
function batchBody(): fc.Arbitrary<string> {
  const proxyKey = fc.oneof(
    fc.constantFrom(...owners.keys()),
    fc.constantFrom("nosuchproxy0000", "", "'; DROP TABLE proxy_usage; --", "x".repeat(300)),
    fc.string({ maxLength: 20 }),
  );
  const proxyCounts = fc
    .record({
      owner: fc.oneof(fc.constantFrom(...[...owners.values()].filter(Boolean), "", "someoneelse0000"), fc.string({ maxLength: 20 })),
      up: count,
      down: count,
      connections: count,
      failed: count,
    })
    .map(
      (c) =>
        `{"owner_id":${JSON.stringify(c.owner)},"bytes_up":${c.up},"bytes_down":${c.down},"connections":${c.connections},"failed":${c.failed}}`,
    );
  const proxies = fc
    .array(fc.tuple(proxyKey, proxyCounts), { maxLength: 4 })
    .map((entries) => `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(",")}}`);
  const whole = fc
    .record({ gateway: fc.oneof(fc.constant("gw-hostile"), fc.string({ maxLength: 120 })), hour: hourText, proxies, ok: count, up: count })
    .map(
      (b) =>
        `{"gateway":${JSON.stringify(b.gateway)},"hour":${b.hour},"proxies":${b.proxies},"counts":{"ok":${b.ok},"failed":0,"histogram":[${b.ok}]},"up_seconds":${b.up}}`,
    );
  return fc.oneof({ weight: 8, arbitrary: whole }, { weight: 1, arbitrary: fc.constantFrom("", "[]", "{", "null", '{"proxies":[]}') });
}

interface UsageRow {
  proxy_id: string;
  user_id: string;
  bytes_up: number;
  bytes_down: number;
  connections: number;
  failed_connections: number;
}

describe("a hostile gateway token", () => {
  it("finding 5: forged usage batches are answered 200 or a readable 4xx, and leave only bounded rows of the proxies' own owners", async () => {
    const started = Date.now();
    let accepted = 0;
    await check(
      batchBody().map((body) => async () => {
        const req = usageRequest(body);
        const res: HostileResponse = await sendRaw(tpb.url, req);
        const problems = res.status >= 500 ? [`a ${res.status}`] : errorBodyProblems(res, { custom: false });
        if (res.status !== 200 && (res.status < 400 || res.status >= 500)) problems.push(`answered ${res.status}`);
        if (problems.length > 0)
          throw new Error(`${describeRequest(req)} -> ${res.status} ${res.text.slice(0, 300)}: ${problems.join("; ")}`);
        if (res.status === 200) accepted += 1;
      }),
      runs(300, 3_000),
    );
    console.info(`gateway usage fuzz: ${accepted} forged batches written, the others refused`);
    expect(accepted, "some forged batches were plausible enough to be written").toBeGreaterThan(0);

    const rows = (await shop.su.collection("proxy_usage").getFullList({ batch: 1000 })) as unknown as UsageRow[];
    let bytes = 0;
    for (const row of rows) {
      expect(owners.has(row.proxy_id), `a row for ${row.proxy_id}, which is no proxy`).toBe(true);
      expect(row.user_id, `the owner of ${row.proxy_id}'s row`).toBe(owners.get(row.proxy_id));
      for (const n of [row.bytes_up, row.bytes_down, row.connections, row.failed_connections]) {
        expect(Number.isInteger(n) && n >= 0 && n <= MAX_ROW_COUNT, `a count of ${n}`).toBe(true);
      }
      bytes += row.bytes_up + row.bytes_down;
    }
    expect(bytes).toBeLessThanOrEqual(budgetAfter((Date.now() - started) / 1000));

    const month = await sendRaw(tpb.url, {
      method: "GET",
      url: `/api/gateway/month-usage?month=${encodeURIComponent(new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), 1)).toISOString())}`,
      headers: { Authorization: `Bearer ${token}`, ...forwardedFrom(tpb, GATEWAY_IP) },
      target: "GET /api/gateway/month-usage",
    });
    expect(month.status).toBe(200);
  }, 300_000);

  it("finding 8: a flood of wrong tokens walls off the gateway's address, not the gateway", async () => {
    const wrong = FULL ? 2_000 : 400;
    const statuses: number[] = [];
    for (let i = 0; i < wrong; i += 20) {
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, j) =>
          sendRaw(tpb.url, {
            method: "GET",
            url: "/api/gateway/changes?since=0",
            headers: { Authorization: `Bearer gwt_${randomUUID().replaceAll("-", "")}${i + j}`, ...forwardedFrom(tpb, GATEWAY_IP) },
            target: "GET /api/gateway/changes",
          }),
        ),
      );
      for (const res of answers) {
        expect(errorBodyProblems(res, { custom: false })).toEqual([]);
        statuses.push(res.status);
      }
    }
    expect(new Set(statuses)).toEqual(new Set([401, 429]));
    // The gateway itself, from the same address: it follows changes and writes usage.
    const changes = await sendRaw(tpb.url, {
      method: "GET",
      url: "/api/gateway/changes?since=0",
      headers: { Authorization: `Bearer ${token}`, ...forwardedFrom(tpb, GATEWAY_IP) },
      target: "GET /api/gateway/changes",
    });
    expect(changes.status).toBe(200);
    const body = JSON.stringify({
      gateway: "gw-hostile",
      hour: new Date(Math.floor(Date.now() / HOUR) * HOUR).toISOString(),
      proxies: {},
      counts: { ok: 0, failed: 0, histogram: [] },
      up_seconds: 1,
    });
    expect((await sendRaw(tpb.url, usageRequest(body))).status).toBe(200);
  });
});
