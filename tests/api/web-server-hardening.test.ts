// The public port under hostile clients (issue #8 "Hostile input", the web-server part),
// every claim asserted through the port itself against a real PocketBase with the real
// rate limits: slow-request protection (slowloris, slow uploads) without cutting realtime
// streams, hop-by-hop headers, forged X-Forwarded-For, the PocketBase dashboard and
// superuser sign-in closed to other machines (directly and behind a reverse proxy on this
// machine), security headers on every kind of answer, HSTS and Secure cookies only behind
// TLS, and the session cookie endpoint's CSRF guard. Needs the built site (`npm run build`).
import http, { type IncomingHttpHeaders } from "node:http";
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startWebServer, type WebServer } from "../../server/web-server.ts";
import PocketBase from "pocketbase";
import { createTestUser, forwardedFrom, SUPERUSER } from "../support/pocketbase.ts";
import { securityHeaderCases } from "./cases/web-server-headers.ts";
import { customerSignIn, LIMITS, OTHER_MACHINE, portOf, send, useWebServers } from "./cases/web-server-kit.ts";

const web = useWebServers();

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
    const { data, closedAfterMs } = await rawClient(web.directPort(), (socket) => {
      socket.write("GET / HTTP/1.1\r\nHost: shop\r\n");
      every(200, socket, (i) => `X-Dribble-${i}: ${"a".repeat(10)}\r\n`);
    });
    expect(data).toMatch(/^HTTP\/1\.1 408/);
    expect(closedAfterMs).toBeGreaterThanOrEqual(LIMITS.headersTimeoutMs - 100);
  });

  it("cuts off a client dribbling its body, and nothing of it reaches PocketBase", async () => {
    const su = await web.tpb.superuser();
    const before = (await su.collection("contact_messages").getList(1, 1)).totalItems;
    const body = JSON.stringify({ name: "Slow", email: "slow@example.com", subject: "slow", message: "x".repeat(500), type: "general" });
    const { data, closedAfterMs } = await rawClient(web.directPort(), (socket) => {
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
      const req = http.get({ host: "127.0.0.1", port: web.directPort(), path: "/api/realtime", agent: false }, (res) => {
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
    const subscribe = await send("127.0.0.1", web.directPort(), {
      method: "POST",
      path: "/api/realtime",
      body: JSON.stringify({ clientId: stream.clientId, subscriptions: ["public_content"] }),
    });
    expect(subscribe.status).toBe(204);
    stream.res.destroy();
  });
});

const HOP_SECRET = "the-backend's-forwarding-secret-0123456789";

describe("hop-by-hop headers", () => {
  // A stand-in backend that echoes what it received and names a header of its own in Connection.
  let backend: http.Server;
  let hop: WebServer;
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
    hop = await startWebServer({
      port: 0,
      pocketbaseUrl: `http://127.0.0.1:${portOf(backend)}`,
      forwardingSecret: HOP_SECRET,
      limits: LIMITS,
    });
    // startWebServer points the Astro side at its backend; put it back on the real PocketBase.
    process.env["POCKETBASE_URL"] = web.tpb.url;
    process.env["SHOP_FORWARDING_SECRET"] = web.tpb.process.forwardingSecret;
  });

  afterAll(async () => {
    await hop.stop();
    backend.close();
  });

  it("drops the headers the client names in Connection, and never lets that strip ours", async () => {
    const answer = await send("127.0.0.1", portOf(hop.server), {
      path: "/api/health",
      headers: {
        connection: "keep-alive, X-Client-Hop, X-Forwarded-For, Host",
        "x-client-hop": "secret",
        "x-end-to-end": "kept",
        "proxy-connection": "keep-alive",
        "x-forwarded-for": "6.6.6.6",
        "x-real-ip": "6.6.6.6",
        forwarded: "for=6.6.6.6",
        "x-shop-forwarding-secret": "forged",
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
    // The secret that makes PocketBase believe our X-Forwarded-For: ours, never the client's.
    expect(received["x-shop-forwarding-secret"]).toBe(HOP_SECRET);
    expect(received["host"]).toBe(`127.0.0.1:${portOf(backend)}`);
  });

  it("drops the headers the backend names in Connection", async () => {
    const answer = await send("127.0.0.1", portOf(hop.server), { path: "/api/health" });
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
        body: wrongPassword(web.customer.email),
        localAddress,
      });
      statuses.push(answer.status);
    }
    return statuses;
  }

  it("changes no rate limit when the web server faces clients itself", async () => {
    const statuses = await rotatingSignIns(web.directPort(), "127.0.0.11");
    // The real limit: 10 sign-in attempts a minute per address, then 429.
    expect(statuses.slice(0, 10).every((s) => s === 400)).toBe(true);
    expect(statuses.slice(10)).toEqual([429, 429, 429, 429, 429]);
    // Another address is not affected (the limiter counts the socket's address).
    const other = await customerSignIn(web, web.directPort(), "127.0.0.12");
    expect(other.status).toBe(200);
  });

  it("finding 6: changes no rate limit when sent straight to PocketBase's port (another local process, a gateway customer)", async () => {
    const statuses = await rotatingSignIns(Number(new URL(web.tpb.url).port), "127.0.0.41");
    expect(statuses.slice(0, 10).every((s) => s === 400)).toBe(true);
    expect(statuses.slice(10)).toEqual([429, 429, 429, 429, 429]);
    // Through the web server, another client is still served: PocketBase believes the web server.
    const other = await customerSignIn(web, web.directPort(), "127.0.0.42");
    expect(other.status).toBe(200);
  });

  it("changes no rate limit behind a trusted reverse proxy either (it appends the real address)", async () => {
    const statuses = await rotatingSignIns(web.proxyPort(), "127.0.0.21");
    expect(statuses.slice(10)).toEqual([429, 429, 429, 429, 429]);
    // The proxy's address is per client: another client behind it still signs in.
    const other = await customerSignIn(web, web.proxyPort(), "127.0.0.22");
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
    for (const port of [web.directPort(), web.proxyPort()]) {
      expect((await send("127.0.0.1", port, { path: "/_/" })).status).toBe(200);
      expect((await send("127.0.0.1", port, superuserSignIn())).status).toBe(200);
    }
  });

  it.skipIf(!OTHER_MACHINE)("are closed to another machine, whatever it claims, directly and through the reverse proxy", async () => {
    const host = OTHER_MACHINE as string;
    const claims = [{}, { "x-forwarded-for": "127.0.0.1" }, { "x-forwarded-for": "127.0.0.1", "x-real-ip": "127.0.0.1" }];
    for (const port of [web.directPort(), portOf(web.behindProxy.server), web.proxyPort()]) {
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
    expect((await send(host, web.directPort(), { path: "/api/health" })).status).toBe(200);
    expect((await send(host, web.proxyPort(), { path: "/login" })).status).toBe(200);
  });
});

describe("/login for a signed-in visitor (issue #28)", () => {
  const login = (path: string, token?: string) =>
    send("127.0.0.1", web.directPort(), {
      path,
      localAddress: "127.0.0.41",
      ...(token ? { headers: { cookie: `pb_auth=${token}` } } : {}),
    });

  it("is sent on to the dashboard by the server; everyone else gets the static page", async () => {
    // A customer of its own: earlier tests end the fixture customer's sessions.
    const user = await createTestUser(await web.tpb.superuser(), { onboarding_completed: true });
    const pb = new PocketBase(web.tpb.url);
    await pb.collection("users").authWithPassword(user.email, user.password, { headers: forwardedFrom(web.tpb, "198.51.100.41") });
    const token = pb.authStore.token;
    const signedIn = await login("/login", token);
    expect(signedIn.status).toBe(302);
    expect(signedIn.headers["location"]).toBe("/dashboard");
    expect(signedIn.headers["cache-control"]).toBe("no-store");
    expect((await login("/login?next=%2Fdashboard%2Fproxies", token)).headers["location"]).toBe("/dashboard/proxies");
    // A verification link is confirmed by the page itself, which then moves on.
    expect((await login("/login?verify=some-token", token)).status).toBe(200);
    for (const answer of [await login("/login"), await login("/login", "not-a-session")]) {
      expect(answer.status).toBe(200);
      expect(answer.body).toContain("Sign in to your account");
    }
  });
});

securityHeaderCases(web);
