// The public port under hostile clients (issue #8 "Hostile input", the web-server part),
// every claim asserted through the port itself against a real PocketBase with the real
// rate limits: slow-request protection (slowloris, slow uploads) without cutting realtime
// streams, hop-by-hop headers, forged X-Forwarded-For, the PocketBase dashboard and
// superuser sign-in closed to other machines (directly and behind a reverse proxy on this
// machine), security headers on every kind of answer, HSTS and Secure cookies only behind
// TLS, and the session cookie endpoint's CSRF guard. Needs the built site (`npm run build`).
import http, { type IncomingHttpHeaders } from "node:http";
import net, { type AddressInfo } from "node:net";
import os from "node:os";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startWebServer, type WebServer } from "../../server/web-server.ts";
import {
  createTestUser,
  REAL_RATE_LIMITS,
  startTestPocketBase,
  SUPERUSER,
  type TestPocketBase,
  type TestUser,
} from "../support/pocketbase.ts";

// Short limits so the slow-client tests take seconds; production values are in SLOW_REQUEST_LIMITS.
const LIMITS = { headersTimeoutMs: 1500, requestTimeoutMs: 3000, checkIntervalMs: 250 };

/** This machine's first non-loopback IPv4 address: connecting to it makes us "another machine". */
const OTHER_MACHINE = Object.values(os.networkInterfaces())
  .flat()
  .find((i) => i && i.family === "IPv4" && !i.internal)?.address;

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

interface RequestOptions {
  method?: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
  /** The address we connect from (127.0.0.x are all loopback on Linux: one rate-limit bucket each). */
  localAddress?: string;
}

function send(host: string, port: number, options: RequestOptions): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host,
        port,
        method: options.method ?? "GET",
        path: options.path,
        headers: {
          ...(options.body !== undefined
            ? { "content-type": "application/json", "content-length": String(Buffer.byteLength(options.body)) }
            : {}),
          ...options.headers,
        },
        agent: false,
        ...(options.localAddress ? { localAddress: options.localAddress } : {}),
      },
      (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (c: string) => (body += c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on("error", reject);
    req.end(options.body);
  });
}

const portOf = (server: { address(): AddressInfo | string | null }) => (server.address() as AddressInfo).port;

/**
 * A reverse proxy on this machine in front of `target`, as nginx would be: it terminates TLS
 * (so it says X-Forwarded-Proto: https) and appends the address it saw to X-Forwarded-For.
 */
async function startReverseProxy(target: number): Promise<http.Server> {
  const proxy = http.createServer((req, res) => {
    const forwarded = [req.headers["x-forwarded-for"], req.socket.remoteAddress].filter(Boolean).join(", ");
    const upstream = http.request(
      {
        host: "127.0.0.1",
        port: target,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, "x-forwarded-for": forwarded, "x-forwarded-proto": "https" },
        agent: false,
      },
      (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      },
    );
    upstream.on("error", () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((r) => proxy.listen(0, "0.0.0.0", () => r()));
  return proxy;
}

let tpb: TestPocketBase;
let direct: WebServer; // faces clients itself (trusts no forwarded header), on every interface
let behindProxy: WebServer; // trustForwardedFor: true, on every interface
let proxy: http.Server; // the reverse proxy in front of behindProxy, on every interface
let customer: TestUser;

beforeAll(async () => {
  tpb = await startTestPocketBase(REAL_RATE_LIMITS);
  const su = await tpb.superuser();
  customer = await createTestUser(su, { onboarding_completed: true });
  direct = await startWebServer({ port: 0, host: "0.0.0.0", pocketbaseUrl: tpb.url, limits: LIMITS });
  behindProxy = await startWebServer({ port: 0, host: "0.0.0.0", pocketbaseUrl: tpb.url, trustForwardedFor: true, limits: LIMITS });
  proxy = await startReverseProxy(portOf(behindProxy.server));
});

afterAll(async () => {
  proxy?.close();
  await behindProxy?.stop();
  await direct?.stop();
  await tpb?.stop();
});

const directPort = () => portOf(direct.server);
const proxyPort = () => portOf(proxy);

describe("slow-request protection", () => {
  /** Opens a raw connection, runs `dribble` on it, and resolves with what came back and when the server hung up. */
  function rawClient(port: number, dribble: (socket: net.Socket) => void): Promise<{ data: string; closedAfterMs: number }> {
    return new Promise((resolve, reject) => {
      const started = Date.now();
      const socket = net.connect(port, "127.0.0.1", () => dribble(socket));
      let data = "";
      socket.on("data", (c) => (data += c.toString()));
      socket.on("close", () => resolve({ data, closedAfterMs: Date.now() - started }));
      socket.on("error", () => {});
      setTimeout(() => reject(new Error(`still open after 15 s; got: ${data}`)), 15_000).unref();
    });
  }

  function every(ms: number, socket: net.Socket, write: (i: number) => string): void {
    let i = 0;
    const timer = setInterval(() => {
      if (socket.destroyed) return clearInterval(timer);
      socket.write(write(i++), () => {});
    }, ms);
    socket.on("close", () => clearInterval(timer));
  }

  it("cuts off a client dribbling its headers (slowloris)", async () => {
    const { data, closedAfterMs } = await rawClient(directPort(), (socket) => {
      socket.write("GET / HTTP/1.1\r\nHost: shop\r\n");
      every(200, socket, (i) => `X-Dribble-${i}: ${"a".repeat(10)}\r\n`);
    });
    expect(data).toMatch(/^HTTP\/1\.1 408/);
    expect(closedAfterMs).toBeGreaterThanOrEqual(LIMITS.headersTimeoutMs - 100);
  });

  it("cuts off a client dribbling its body, and nothing of it reaches PocketBase", async () => {
    const su = await tpb.superuser();
    const before = (await su.collection("contact_messages").getList(1, 1)).totalItems;
    const body = JSON.stringify({ name: "Slow", email: "slow@example.com", subject: "slow", message: "x".repeat(500), type: "general" });
    const { data, closedAfterMs } = await rawClient(directPort(), (socket) => {
      socket.write(
        "POST /api/collections/contact_messages/records HTTP/1.1\r\nHost: shop\r\nContent-Type: application/json\r\n" +
          `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n`,
      );
      every(200, socket, (i) => body.slice(i * 5, i * 5 + 5));
    });
    expect(data).toMatch(/^HTTP\/1\.1 408/);
    expect(closedAfterMs).toBeGreaterThanOrEqual(LIMITS.requestTimeoutMs - 100);
    expect(closedAfterMs).toBeLessThan(((body.length / 5) * 200) / 2); // long before the body was done
    expect((await su.collection("contact_messages").getList(1, 1)).totalItems).toBe(before);
  });

  it("keeps a realtime stream open well past the request timeout", async () => {
    const stream = await new Promise<{ clientId: string; res: http.IncomingMessage; closed: () => boolean }>((resolve, reject) => {
      const req = http.get({ host: "127.0.0.1", port: directPort(), path: "/api/realtime", agent: false }, (res) => {
        let closed = false;
        res.on("close", () => (closed = true));
        let buffer = "";
        res.setEncoding("utf8");
        res.on("data", function onData(chunk: string) {
          buffer += chunk;
          const id = /id:\s*(\S+)/.exec(buffer)?.[1];
          if (id) {
            res.off("data", onData);
            res.resume();
            resolve({ clientId: id, res, closed: () => closed });
          }
        });
      });
      req.on("error", reject);
    });
    expect(stream.res.headers["content-type"]).toContain("text/event-stream");
    await new Promise((r) => setTimeout(r, LIMITS.requestTimeoutMs * 2 + LIMITS.checkIntervalMs * 2));
    expect(stream.closed()).toBe(false);
    // PocketBase still knows the client: it accepts subscriptions for it.
    const subscribe = await send("127.0.0.1", directPort(), {
      method: "POST",
      path: "/api/realtime",
      body: JSON.stringify({ clientId: stream.clientId, subscriptions: ["public_content"] }),
    });
    expect(subscribe.status).toBe(204);
    stream.res.destroy();
  });
});

describe("hop-by-hop headers", () => {
  // A stand-in backend that echoes what it received and names a header of its own in Connection.
  let backend: http.Server;
  let web: WebServer;
  let received: IncomingHttpHeaders = {};

  beforeAll(async () => {
    backend = http.createServer((req, res) => {
      received = req.headers;
      req.resume();
      res.writeHead(200, {
        "content-type": "application/json",
        connection: "keep-alive, X-Upstream-Hop",
        "x-upstream-hop": "secret",
        "keep-alive": "timeout=5",
        "x-end-to-end": "kept",
      });
      res.end("{}");
    });
    await new Promise<void>((r) => backend.listen(0, "127.0.0.1", () => r()));
    web = await startWebServer({ port: 0, pocketbaseUrl: `http://127.0.0.1:${portOf(backend)}`, limits: LIMITS });
    // startWebServer points the Astro side at its backend; put it back on the real PocketBase.
    process.env["POCKETBASE_URL"] = tpb.url;
  });

  afterAll(async () => {
    await web.stop();
    backend.close();
  });

  it("drops the headers the client names in Connection, and never lets that strip ours", async () => {
    const answer = await send("127.0.0.1", portOf(web.server), {
      path: "/api/health",
      headers: {
        connection: "keep-alive, X-Client-Hop, X-Forwarded-For, Host",
        "x-client-hop": "secret",
        "x-end-to-end": "kept",
        "proxy-connection": "keep-alive",
        "x-forwarded-for": "6.6.6.6",
        "x-real-ip": "6.6.6.6",
        forwarded: "for=6.6.6.6",
      },
    });
    expect(answer.status).toBe(200);
    expect(received["x-client-hop"]).toBeUndefined();
    expect(received["proxy-connection"]).toBeUndefined();
    expect(received["x-end-to-end"]).toBe("kept");
    // Our own forwarding headers, set after the stripping: the client's claims are gone.
    expect(received["x-forwarded-for"]).toBe("127.0.0.1");
    expect(received["x-real-ip"]).toBeUndefined();
    expect(received["forwarded"]).toBeUndefined();
    expect(received["host"]).toBe(`127.0.0.1:${portOf(backend)}`);
  });

  it("drops the headers the backend names in Connection", async () => {
    const answer = await send("127.0.0.1", portOf(web.server), { path: "/api/health" });
    expect(answer.headers["x-upstream-hop"]).toBeUndefined();
    expect(answer.headers["x-end-to-end"]).toBe("kept");
    expect(answer.headers["connection"]).not.toMatch(/x-upstream-hop/i);
  });
});

describe("forged X-Forwarded-For", () => {
  const wrongPassword = (email: string) => JSON.stringify({ identity: email, password: "not-the-password" });

  /** 15 wrong sign-ins, each claiming another address; the statuses in order. */
  async function rotatingSignIns(port: number, localAddress: string): Promise<number[]> {
    const statuses: number[] = [];
    for (let i = 0; i < 15; i++) {
      const forged = `${10 + i}.${i}.${i * 7}.${i + 1}`;
      const answer = await send("127.0.0.1", port, {
        method: "POST",
        path: "/api/collections/users/auth-with-password",
        headers: { "x-forwarded-for": forged, "x-real-ip": forged, forwarded: `for=${forged}` },
        body: wrongPassword(customer.email),
        localAddress,
      });
      statuses.push(answer.status);
    }
    return statuses;
  }

  it("changes no rate limit when the web server faces clients itself", async () => {
    const statuses = await rotatingSignIns(directPort(), "127.0.0.11");
    // The real limit: 10 sign-in attempts a minute per address, then 429.
    expect(statuses.slice(0, 10).every((s) => s === 400)).toBe(true);
    expect(statuses.slice(10)).toEqual([429, 429, 429, 429, 429]);
    // Another address is not affected (the limiter counts the socket's address).
    const other = await send("127.0.0.1", directPort(), {
      method: "POST",
      path: "/api/collections/users/auth-with-password",
      body: JSON.stringify({ identity: customer.email, password: customer.password }),
      localAddress: "127.0.0.12",
    });
    expect(other.status).toBe(200);
  });

  it("changes no rate limit behind a trusted reverse proxy either (it appends the real address)", async () => {
    const statuses = await rotatingSignIns(proxyPort(), "127.0.0.21");
    expect(statuses.slice(10)).toEqual([429, 429, 429, 429, 429]);
    // The proxy's address is per client: another client behind it still signs in.
    const other = await send("127.0.0.1", proxyPort(), {
      method: "POST",
      path: "/api/collections/users/auth-with-password",
      body: JSON.stringify({ identity: customer.email, password: customer.password }),
      localAddress: "127.0.0.22",
    });
    expect(other.status).toBe(200);
  });
});

describe("the PocketBase dashboard and superuser sign-in", () => {
  const superuserSignIn = (path = "/api/collections/_superusers/auth-with-password") => ({
    method: "POST",
    path,
    body: JSON.stringify({ identity: SUPERUSER.email, password: SUPERUSER.password }),
  });
  const SUPERUSER_PATHS = [
    "/api/collections/_superusers/auth-with-password",
    "/api/collections/%5Fsuperusers/auth-with-password",
    "/api/collections/_SUPERUSERS/auth-with-password",
    "/api/collections/pbc_3142635823/auth-with-password",
    "/api/collections/users/../_superusers/auth-with-password",
    "/api/collections/users/%2e%2e/_superusers/auth-with-password",
  ];

  it("are open to this machine, directly and through the local reverse proxy", async () => {
    for (const port of [directPort(), proxyPort()]) {
      expect((await send("127.0.0.1", port, { path: "/_/" })).status).toBe(200);
      expect((await send("127.0.0.1", port, superuserSignIn())).status).toBe(200);
    }
  });

  it.skipIf(!OTHER_MACHINE)("are closed to another machine, whatever it claims, directly and through the reverse proxy", async () => {
    const host = OTHER_MACHINE as string;
    const claims = [{}, { "x-forwarded-for": "127.0.0.1" }, { "x-forwarded-for": "127.0.0.1", "x-real-ip": "127.0.0.1" }];
    for (const port of [directPort(), portOf(behindProxy.server), proxyPort()]) {
      for (const headers of claims) {
        const dashboard = await send(host, port, { path: "/_/", headers });
        expect(dashboard.status, `/_/ on ${port} with ${JSON.stringify(headers)}`).toBe(404);
        expect(dashboard.body).not.toContain("PocketBase");
        for (const path of SUPERUSER_PATHS) {
          const answer = await send(host, port, { ...superuserSignIn(path), headers });
          expect(answer.status, `${path} on ${port}`).toBe(404);
          expect(answer.body).not.toContain("token");
        }
      }
    }
    // The shop itself still answers that machine.
    expect((await send(host, directPort(), { path: "/api/health" })).status).toBe(200);
    expect((await send(host, proxyPort(), { path: "/login" })).status).toBe(200);
  });
});

describe("security headers", () => {
  const PAGE_DIRECTIVES = ["object-src 'none'", "base-uri 'self'", "frame-ancestors 'none'", "form-action 'self'", "connect-src 'self'"];

  function expectCommonHeaders(answer: Answer, what: string): void {
    expect(answer.headers["x-content-type-options"], what).toBe("nosniff");
    expect(answer.headers["x-frame-options"], what).toBe("DENY");
    expect(answer.headers["referrer-policy"], what).toBe("strict-origin-when-cross-origin");
    expect(answer.headers["permissions-policy"], what).toContain("camera=()");
    expect(answer.headers["content-security-policy"], what).toContain("frame-ancestors 'none'");
  }

  it("are on every kind of answer: pages, app redirects, 404s, static files, API answers and errors", async () => {
    const pages = [
      "/",
      "/pricing",
      "/login",
      "/signup",
      "/dashboard",
      "/console/users",
      "/no-such-page",
      "/_astro/no-such-file.js",
      "/auth/session",
    ];
    for (const path of pages) {
      const answer = await send("127.0.0.1", directPort(), { path });
      expectCommonHeaders(answer, path);
      const csp = String(answer.headers["content-security-policy"]);
      for (const directive of PAGE_DIRECTIVES) expect(csp, `${path}: ${directive}`).toContain(directive);
      expect(/script-src[^;]*'unsafe-inline'/.test(csp), `${path}: no unsafe-inline script`).toBe(false);
      expect(answer.headers["strict-transport-security"], path).toBeUndefined();
    }
    const favicon = await send("127.0.0.1", directPort(), { path: "/favicon.svg" });
    expect(favicon.status).toBe(200);
    expectCommonHeaders(favicon, "/favicon.svg");

    for (const path of ["/api/health", "/api/collections/nope/records", "/api/collections/users/records"]) {
      const answer = await send("127.0.0.1", directPort(), { path });
      expectCommonHeaders(answer, path);
      expect(answer.headers["content-security-policy"], path).toMatch(/default-src 'none'.*sandbox/);
    }
  });

  it("are on the answer when PocketBase is down", async () => {
    const web = await startWebServer({ port: 0, pocketbaseUrl: "http://127.0.0.1:9", limits: LIMITS });
    process.env["POCKETBASE_URL"] = tpb.url;
    try {
      const answer = await send("127.0.0.1", portOf(web.server), { path: "/api/health" });
      expect(answer.status).toBe(502);
      expectCommonHeaders(answer, "502");
    } finally {
      await web.stop();
    }
  });

  it("add HSTS only behind a trusted proxy that terminated TLS, never for a client's own claim", async () => {
    const viaTls = await send("127.0.0.1", proxyPort(), { path: "/" });
    expect(viaTls.headers["strict-transport-security"]).toBe("max-age=31536000");
    const forged = await send("127.0.0.1", directPort(), { path: "/", headers: { "x-forwarded-proto": "https" } });
    expect(forged.headers["strict-transport-security"]).toBeUndefined();
  });
});

describe("cookies", () => {
  async function customerToken(): Promise<string> {
    const answer = await send("127.0.0.1", directPort(), {
      method: "POST",
      path: "/api/collections/users/auth-with-password",
      body: JSON.stringify({ identity: customer.email, password: customer.password }),
      localAddress: "127.0.0.31",
    });
    expect(answer.status).toBe(200);
    return (JSON.parse(answer.body) as { token: string }).token;
  }

  function startSession(port: number, token: string, headers: Record<string, string>): Promise<Answer> {
    return send("127.0.0.1", port, { method: "POST", path: "/auth/session", body: JSON.stringify({ token }), headers });
  }

  it("the session cookie is set by the server, HttpOnly and SameSite=Lax, living as long as the token", async () => {
    const token = await customerToken();
    const answer = await startSession(directPort(), token, { origin: `http://127.0.0.1:${directPort()}`, "sec-fetch-site": "same-origin" });
    expect(answer.status).toBe(200);
    const cookie = String(answer.headers["set-cookie"]);
    expect(cookie).toMatch(/^pb_auth=[\w-]+\.[\w-]+\.[\w-]+; /);
    expect(cookie).toContain("; HttpOnly");
    expect(cookie).toContain("; SameSite=Lax");
    expect(cookie).toContain("; Path=/");
    expect(cookie).not.toContain("Secure");
    const maxAge = Number(/Max-Age=(\d+)/.exec(cookie)?.[1]);
    expect(maxAge).toBeGreaterThan(6 * 24 * 3600); // users' tokens live 7 days
    expect(maxAge).toBeLessThanOrEqual(7 * 24 * 3600);
    expect(answer.headers["cache-control"]).toBe("no-store");
    // The answer hands the browser the refreshed session; the cookie opens app pages.
    const session = JSON.parse(answer.body) as { token: string; record: { email: string } };
    expect(session.record.email).toBe(customer.email);
    const page = await send("127.0.0.1", directPort(), { path: "/dashboard/settings", headers: { cookie: cookie.split(";")[0] ?? "" } });
    expect(page.status).toBe(200);
  });

  it("refuses cross-site callers (CSRF) and tokens PocketBase does not confirm", async () => {
    const token = await customerToken();
    const host = `http://127.0.0.1:${directPort()}`;
    const refusals: Array<[Record<string, string>, number]> = [
      [{}, 403], // no Origin, no Sec-Fetch-Site
      [{ "sec-fetch-site": "cross-site", origin: "https://evil.example" }, 403],
      [{ "sec-fetch-site": "same-site", origin: "https://sub.127.0.0.1" }, 403],
      [{ origin: "https://evil.example" }, 403],
      [{ origin: "null" }, 403],
    ];
    for (const [headers, status] of refusals) {
      const answer = await startSession(directPort(), token, headers);
      expect(answer.status, JSON.stringify(headers)).toBe(status);
      expect(answer.headers["set-cookie"]).toBeUndefined();
    }
    const del = await send("127.0.0.1", directPort(), {
      method: "DELETE",
      path: "/auth/session",
      body: "{}",
      headers: { origin: "https://evil.example" },
    });
    expect(del.status).toBe(403);

    const forged = await startSession(directPort(), `${token.slice(0, -4)}AAAA`, { origin: host });
    expect(forged.status).toBe(401);
    expect(String(forged.headers["set-cookie"])).toMatch(/^pb_auth=; Max-Age=0;.*HttpOnly/);
    expect((await startSession(directPort(), "", { origin: host })).status).toBe(400);
    expect((await send("127.0.0.1", directPort(), { path: "/auth/session" })).status).toBe(405);
  });

  it("sign-out clears the session cookie", async () => {
    const answer = await send("127.0.0.1", directPort(), {
      method: "DELETE",
      path: "/auth/session",
      body: "{}",
      headers: { "sec-fetch-site": "same-origin" },
    });
    expect(answer.status).toBe(204);
    expect(String(answer.headers["set-cookie"])).toBe("pb_auth=; Max-Age=0; Path=/; HttpOnly; SameSite=Lax");
  });

  it("are Secure behind a trusted proxy that terminated TLS, and never for a client's own claim", async () => {
    const token = await customerToken();
    const viaTls = await startSession(proxyPort(), token, { origin: `https://127.0.0.1:${proxyPort()}` });
    expect(viaTls.status).toBe(200);
    expect(String(viaTls.headers["set-cookie"])).toMatch(/; HttpOnly; SameSite=Lax; Secure$/);
    const ref = await send("127.0.0.1", proxyPort(), { path: "/pricing?ref=ABCD1234" });
    expect(String(ref.headers["set-cookie"])).toBe("shop_ref=ABCD1234; Max-Age=2592000; Path=/; SameSite=Lax; Secure");

    const claimed = await send("127.0.0.1", directPort(), { path: "/pricing?ref=ABCD1234", headers: { "x-forwarded-proto": "https" } });
    expect(String(claimed.headers["set-cookie"])).toBe("shop_ref=ABCD1234; Max-Age=2592000; Path=/; SameSite=Lax");
  });
});
