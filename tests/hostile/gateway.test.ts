// The proxy gateway under hostile input (issue #16), on its two ports inside the shop's
// PocketBase: malformed SOCKS5 handshakes (bad versions, empty and oversized method lists,
// truncated RFC 1929 frames, length bytes that lie, unknown address types, BIND, a
// truncated UDP ASSOCIATE, port 0), malformed HTTP proxy requests (garbage, absolute-form https, CONNECT
// without a port, heads over 32 KB, a thousand headers, credentials that are not base64,
// Content-Lengths that lie), slow clients trickling a byte every few seconds from another
// address (the 3 s deadline for the credentials, 10 s for the whole handshake, must close
// them, and one address holds at most 128 unfinished handshakes) and random bytes from
// fast-check on both ports.
//
// Most malformed requests carry the credentials of a live proxy, so they reach the code
// after authentication. Every one must be refused in its protocol (a 4xx; SOCKS5's failure
// replies) or closed, never answered 200 or "succeeded", and never dial: the only target
// the requests name is a loopback server that counts its connections, and its count must
// equal the number of valid requests this file sent. Afterwards PocketBase is alive and
// answers /api/health, the gateway serves a valid proxy on both ports, and its resident
// memory grew by less than 50 MB.
//
// `npm test` runs the short form (under 20 s: 100 slow clients per port, 200 random
// inputs); `npm run test:hostile` the full one (HOSTILE_PROFILE=full: thousands of
// connections). A random-input failure prints fast-check's seed and path; replay it with
// HOSTILE_SEED=<seed> HOSTILE_PATH=<path>.
import fc from "fast-check";
import { createServer } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useGatewayShop, type GatewayProxy } from "../support/gateway-shop.ts";
import { FULL, REPLAY_PATH, runs, SEED } from "./support/fuzz-kit.ts";
import {
  basic,
  bytes,
  dialCounter,
  httpBody,
  httpStatus,
  rawExchange,
  rssBytes,
  slowClients,
  socksAuth,
  socksReply,
  socksRequest,
  SOCKS_GREETING,
  type DialCounter,
  type SlowClient,
} from "./support/gateway-kit.ts";
import { get, httpCases, httpProblems, randomInputs, socksCases, socksProblems } from "./support/gateway-cases.ts";

const shop = await useGatewayShop({
  env: {
    // The malformed tables refuse credentials from 127.0.0.1 hundreds of times, as the
    // controls sign in from there: the per-address throttle is proven in gateway-floods.test.ts.
    GATEWAY_AUTH_FAILURE_LIMIT: "0",
  },
  ledger: false,
});
const [HTTP_PORT, SOCKS_PORT] = [shop.gateway.http, shop.gateway.socks];

const PROFILE = {
  /** Each table of malformed requests is sent this many times. */
  repeats: FULL ? 20 : 1,
  /** Slow clients per port (half of the SOCKS5 ones authenticated before they stall). */
  slowPerPort: FULL ? 1500 : 100,
  slowEveryMs: FULL ? 3000 : 2000,
  randomRuns: runs(200, 4000),
};
/** The gateway's handshake deadline (gateway.Config.HandshakeTimeout) and what a busy machine may add. */
const HANDSHAKE_DEADLINE_MS = 10_000;
/** The slow clients' address. */
const SLOW_FROM = "127.0.0.2";
const DEADLINE_SLACK_MS = 4000;
const RSS_GROWTH_LIMIT = 50 * 1024 * 1024;

let target: DialCounter;
/** Valid requests this file sent (expectServed): each one is exactly one dial of the target. */
let served = 0;
/** A DATACENTER proxy (both ports), an HTTPS one (HTTP port only), a SOCKS5 one (SOCKS5 port only). */
let dc: GatewayProxy;
let httpsOnly: GatewayProxy;
let socksOnly: GatewayProxy;
let pid = 0;
let rssBefore = 0;
let rssPeak = 0;
let sampler: NodeJS.Timeout | undefined;
let slow: Promise<{ http: SlowClient[]; socks: SlowClient[] }>;
let connections = 0;

const exchange = (port: number, chunks: Buffer[], end = true) => {
  connections += 1;
  return rawExchange(port, chunks, { end });
};

// ---- Valid requests (the controls) ------------------------------------------------------

const GET = () => get(target.port);

/** Plain HTTP, CONNECT and SOCKS5 through the gateway with `dc`'s credentials; each must reach the target once. */
async function expectServed(): Promise<void> {
  const dials = target.hits();
  const plain = await exchange(HTTP_PORT, [
    Buffer.from(
      `GET http://127.0.0.1:${target.port}/ HTTP/1.1\r\nHost: 127.0.0.1:${target.port}\r\nProxy-Authorization: ${basic(dc.username, dc.password)}\r\n\r\n`,
    ),
  ]);
  const tunnel = await exchange(HTTP_PORT, [
    Buffer.from(
      `CONNECT 127.0.0.1:${target.port} HTTP/1.1\r\nHost: 127.0.0.1:${target.port}\r\nProxy-Authorization: ${basic(dc.username, dc.password)}\r\n\r\n${GET()}`,
    ),
  ]);
  const socks = await exchange(SOCKS_PORT, [
    SOCKS_GREETING,
    socksAuth(dc.username, dc.password),
    socksRequest(1, target.port),
    Buffer.from(GET()),
  ]);
  expect(httpStatus(plain.data), plain.data.toString()).toBe(200);
  expect(httpBody(plain.data)).toBe("from the target");
  expect(tunnel.data.toString(), "CONNECT").toMatch(
    /^HTTP\/1\.1 200 Connection established\r\n\r\nHTTP\/1\.1 200 OK\r\n[^]*from the target$/,
  );
  expect(socks.data.subarray(0, 14)).toEqual(Buffer.concat([bytes(5, 2, 1, 0), socksReply(0)]));
  expect(socks.data.subarray(14).toString()).toMatch(/^HTTP\/1\.1 200 OK\r\n[^]*from the target$/);
  served += 3;
  expect(target.hits(), "dials of the target").toBe(dials + 3);
}

// ---- The suite -----------------------------------------------------------------------------

beforeAll(async () => {
  target = await dialCounter();
  [dc, httpsOnly, socksOnly] = [await shop.buy("DATACENTER"), await shop.buy("HTTPS"), await shop.buy("SOCKS5")];
  pid = shop.tpb.process.child.pid!;
  await expectServed(); // the first dials allocate what every later one reuses
  rssBefore = rssBytes(pid);
  rssPeak = rssBefore;
  sampler = setInterval(() => {
    rssPeak = Math.max(rssPeak, rssBytes(pid));
  }, 200);
  // Slow clients start now and stall while the other tests run; the slowloris test awaits them.
  const giveUpMs = HANDSHAKE_DEADLINE_MS + DEADLINE_SLACK_MS + (FULL ? 10_000 : 2000);
  // From 127.0.0.2: one address's unfinished handshakes are capped (#26 finding 3), and the
  // controls from 127.0.0.1 must be served meanwhile.
  const every = { everyMs: PROFILE.slowEveryMs, giveUpMs, from: SLOW_FROM };
  const n = PROFILE.slowPerPort;
  connections += 2 * n;
  slow = (async () => {
    const [http, socksGreeting, socksRequestStall] = await Promise.all([
      // A proxy request one byte every few seconds, its head never finished.
      slowClients(HTTP_PORT, {
        count: n,
        prefix: Buffer.from(
          `CONNECT 127.0.0.1:${target.port} HTTP/1.1\r\nProxy-Authorization: ${basic(dc.username, dc.password)}\r\nX-Slow: `,
        ),
        trickle: Buffer.from("abcdefghijklmnopqrstuvwxyz"),
        ...every,
      }),
      // A greeting announcing 255 methods, sent one method at a time.
      slowClients(SOCKS_PORT, { count: Math.ceil(n / 2), prefix: bytes(5, 255), trickle: bytes(0, 1, 3, 4), ...every }),
      // Authenticated with a live proxy's credentials, then a CONNECT request a byte at a time.
      slowClients(SOCKS_PORT, {
        count: Math.floor(n / 2),
        prefix: Buffer.concat([SOCKS_GREETING, socksAuth(dc.username, dc.password)]),
        trickle: socksRequest(1, target.port),
        ...every,
      }),
    ]);
    return { http, socks: [...socksGreeting, ...socksRequestStall] };
  })();
}, 60_000);

afterAll(async () => {
  clearInterval(sampler);
  await target?.close();
});

const REPEATS = Array.from({ length: PROFILE.repeats }, (_, i) => i);

describe("SOCKS5 port", () => {
  const cases = () => socksCases({ dc, httpsOnly, targetPort: target.port });

  it("refuses or closes every malformed handshake at once, answering nothing else, and dials nothing", async () => {
    const dials = target.hits();
    const failures: string[] = [];
    for (const _ of REPEATS) {
      for (const [name, chunks, expected] of cases()) {
        const res = await exchange(SOCKS_PORT, chunks);
        if (!res.data.equals(expected) || !res.closed || res.ms > 3000)
          failures.push(
            `${name}: answered ${res.data.toString("hex") || "nothing"} (expected ${expected.toString("hex") || "nothing"}), closed ${res.closed} after ${res.ms} ms`,
          );
      }
    }
    expect(failures).toEqual([]);
    expect(target.hits(), "dials of the target").toBe(dials);
  });

  it("does not serve HTTP-only or SOCKS5-only proxies across ports, dialling nothing", async () => {
    const dials = target.hits();
    const socks = await exchange(SOCKS_PORT, [
      SOCKS_GREETING,
      socksAuth(httpsOnly.username, httpsOnly.password),
      socksRequest(1, target.port),
    ]);
    expect(socks.data).toEqual(bytes(5, 2, 1, 1));
    const http = await exchange(HTTP_PORT, [
      Buffer.from(
        `CONNECT 127.0.0.1:${target.port} HTTP/1.1\r\nProxy-Authorization: ${basic(socksOnly.username, socksOnly.password)}\r\n\r\n`,
      ),
    ]);
    expect(httpStatus(http.data)).toBe(407);
    expect(httpBody(http.data)).toContain("This proxy's type is not served on this port.");
    expect(target.hits(), "dials of the target").toBe(dials);
  });
});

describe("HTTP proxy port", () => {
  const cases = () => httpCases({ dc, httpsOnly, targetPort: target.port });

  it("answers every malformed proxy request with its 4xx and a text at once, and dials nothing", async () => {
    const dials = target.hits();
    const failures: string[] = [];
    for (const _ of REPEATS) {
      for (const [name, request, status, text] of cases()) {
        const res = await exchange(HTTP_PORT, [request]);
        const got = httpStatus(res.data);
        if (got !== status || !httpBody(res.data).includes(text) || !res.closed || res.ms > 3000)
          failures.push(
            `${name}: answered ${JSON.stringify(res.data.toString("latin1").slice(0, 160))} (expected ${status} ${text}), closed ${res.closed} after ${res.ms} ms`,
          );
        if (got === 407 && !/\r\nProxy-Authenticate: Basic realm="[^"]+"\r\n/.test(res.data.toString("latin1")))
          failures.push(`${name}: a 407 without Proxy-Authenticate`);
      }
    }
    expect(failures).toEqual([]);
    expect(target.hits(), "dials of the target").toBe(dials);
  });

  it("closes, or answers 400, when the client ends before its head is complete", async () => {
    const dials = target.hits();
    const cases: [string, string][] = [
      ["", ""],
      ["CONNECT 127.0.0.1", "400"],
      [`CONNECT 127.0.0.1:${target.port} HTTP/1.1\r\nProxy-Authorization: ${basic(dc.username, dc.password)}\r\n`, ""],
      [`GET http://127.0.0.1:${target.port}/ HTTP/1.1\r\nProxy-Authorization: ${basic(dc.username, dc.password)}`, ""],
      ["\u0005\u0001\u0002", "400"],
    ];
    for (const [request, answer] of cases) {
      const res = await exchange(HTTP_PORT, [Buffer.from(request)]);
      expect(httpProblems(res), JSON.stringify(request)).toEqual([]);
      expect(String(httpStatus(res.data) || ""), JSON.stringify(request)).toBe(answer);
    }
    expect(target.hits(), "dials of the target").toBe(dials);
  });
});

describe("random bytes (fast-check)", () => {
  it("are refused or closed on both ports, never answered with success, never dialled", async () => {
    const arb = randomInputs({ dc, httpsOnly, targetPort: target.port });
    let sent = 0;
    const dials = target.hits();
    await fc.assert(
      fc.asyncProperty(arb, async ({ port, prefix, body }) => {
        sent += 1;
        const res = await exchange(port === "http" ? HTTP_PORT : SOCKS_PORT, [Buffer.concat([prefix, body])]);
        const problems = port === "http" ? httpProblems(res) : socksProblems(res);
        if (target.hits() !== dials) problems.push("the target was dialled");
        if (problems.length > 0)
          throw new Error(`${port}: ${Buffer.concat([prefix, body]).toString("hex").slice(0, 600)}\n${problems.join("\n")}`);
      }),
      { seed: SEED, numRuns: PROFILE.randomRuns, ...(REPLAY_PATH ? { path: REPLAY_PATH } : {}), endOnFailure: true },
    );
    expect(sent).toBeGreaterThanOrEqual(PROFILE.randomRuns);
  });
});

describe("metering", () => {
  // A plain HTTP request (head and body) goes to the target in the tunnel's greeting,
  // outside the relay: it must still reach bytes_up and so the monthly quota.
  it("counts a plain HTTP upload in the proxy's bytes_up, so no traffic passes the quota unmetered", async () => {
    const proxy = await shop.buy("HTTPS"); // its own usage row
    const size = 1024 * 1024;
    let received = 0;
    const sink = createServer((socket) => {
      socket.on("data", (chunk: Buffer) => {
        received += chunk.length;
        if (received >= size) socket.end("HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok");
      });
      socket.on("error", () => undefined);
    });
    await new Promise<void>((resolve) => sink.listen(0, "127.0.0.1", resolve));
    const port = (sink.address() as { port: number }).port;
    try {
      const res = await rawExchange(HTTP_PORT, [
        Buffer.from(
          `POST http://127.0.0.1:${port}/upload HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nProxy-Authorization: ${basic(proxy.username, proxy.password)}\r\nContent-Length: ${size}\r\n\r\n`,
        ),
        Buffer.alloc(size, 0x75),
      ]);
      expect(httpStatus(res.data)).toBe(200);
      expect(received).toBeGreaterThan(size);
      let row: { bytes_up: number; connections: number } | undefined;
      for (let i = 0; i < 50 && !row; i++) {
        const rows = await shop.su.collection("proxy_usage").getFullList({ filter: shop.su.filter("proxy_id = {:id}", { id: proxy.id }) });
        row = rows[0] as unknown as typeof row;
        if (!row) await new Promise((r) => setTimeout(r, 100));
      }
      expect(row?.connections).toBe(1);
      expect(row?.bytes_up).toBeGreaterThanOrEqual(size);
    } finally {
      await new Promise((resolve) => sink.close(resolve));
    }
  });
});

describe("slow clients (slowloris)", () => {
  it("are all closed by the handshake deadlines, none served, while customers on another address are served", async () => {
    await expectServed(); // the slow clients are stalling now
    const { http, socks } = await slow;
    const closedAfter = [...http, ...socks].map((c) => c.closedAfterMs);
    console.info(
      `gateway slowloris: ${closedAfter.length} slow clients closed after ${Math.min(...closedAfter)}-${Math.max(...closedAfter)} ms`,
    );
    const late = closedAfter.filter((ms) => ms > HANDSHAKE_DEADLINE_MS + DEADLINE_SLACK_MS);
    expect(late, "slow clients still open past the deadline").toEqual([]);
    const badHttp = http.map((c) => httpProblems({ data: c.data, closed: true, ms: c.closedAfterMs })).filter((p) => p.length > 0);
    expect(badHttp).toEqual([]);
    const badSocks = socks.map((c) => socksProblems({ data: c.data, closed: true, ms: c.closedAfterMs })).filter((p) => p.length > 0);
    expect(badSocks).toEqual([]);
    expect(target.hits(), "dials of the target (every one by a valid request)").toBe(served);
  }, 60_000);
});

describe("afterwards", () => {
  it("PocketBase is alive and healthy, the gateway serves a valid proxy on both ports, and memory stayed bounded", async () => {
    expect(shop.tpb.process.child.exitCode).toBeNull();
    expect(shop.tpb.process.child.signalCode).toBeNull();
    const health = await fetch(`${shop.tpb.url}/api/health`);
    expect(health.status).toBe(200);
    await expectServed();
    expect(target.hits(), "dials of the target over the whole file (every one by a valid request)").toBe(served);
    clearInterval(sampler);
    const rssAfter = rssBytes(pid);
    const mb = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MB`;
    console.info(
      `gateway hostile (${FULL ? "full" : "short"}): ${connections} connections; PocketBase RSS ${mb(rssBefore)} before, ${mb(rssPeak)} at most, ${mb(rssAfter)} after`,
    );
    expect(rssAfter - rssBefore).toBeLessThan(RSS_GROWTH_LIMIT);
    expect(rssPeak - rssBefore).toBeLessThan(RSS_GROWTH_LIMIT);
  });
});
