// The web server under hostile clients: a raw HTTP client (what a browser or fetch would
// never send), a reverse proxy on this machine, and the fixture that starts PocketBase with
// the real rate limits and two web servers (one facing clients, one behind the proxy).
import http, { type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import { afterAll, beforeAll } from "vitest";
import { startWebServer, type WebServer } from "../../../server/web-server.ts";
import { createTestUser, REAL_RATE_LIMITS, startTestPocketBase, type TestPocketBase, type TestUser } from "../../support/pocketbase.ts";

// Short limits so the slow-client tests take seconds; production values are in SLOW_REQUEST_LIMITS.
export const LIMITS = { headersTimeoutMs: 1500, requestTimeoutMs: 3000, checkIntervalMs: 250 };

/** This machine's first non-loopback IPv4 address: connecting to it makes us "another machine". */
export const OTHER_MACHINE = Object.values(os.networkInterfaces())
  .flat()
  .find((i) => i && i.family === "IPv4" && !i.internal)?.address;

export interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface RequestOptions {
  method?: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
  /** The address we connect from (127.0.0.x are all loopback on Linux: one rate-limit bucket each). */
  localAddress?: string;
}

export function send(host: string, port: number, options: RequestOptions): Promise<Answer> {
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

export const portOf = (server: { address(): AddressInfo | string | null }) => (server.address() as AddressInfo).port;

/**
 * A reverse proxy on this machine in front of `target`, as nginx would be: it terminates TLS
 * (so it says X-Forwarded-Proto: https) and appends the address it saw to X-Forwarded-For.
 */
export async function startReverseProxy(target: number): Promise<http.Server> {
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

export interface WebServers {
  tpb: TestPocketBase;
  /** Faces clients itself (trusts no forwarded header), on every interface. */
  direct: WebServer;
  /** trustForwardedFor: true, on every interface. */
  behindProxy: WebServer;
  /** The reverse proxy in front of behindProxy, on every interface. */
  proxy: http.Server;
  customer: TestUser;
  directPort(): number;
  proxyPort(): number;
}

/** The fixture customer's password sign-in through `port`, sent from `localAddress`. */
export const customerSignIn = (web: WebServers, port: number, localAddress: string) =>
  send("127.0.0.1", port, {
    method: "POST",
    path: "/api/collections/users/auth-with-password",
    body: JSON.stringify({ identity: web.customer.email, password: web.customer.password }),
    localAddress,
  });

/** Starts PocketBase (real rate limits) and the web servers before the file's tests, stops them after. */
export function useWebServers(): WebServers {
  const web = {
    directPort: () => portOf(web.direct.server),
    proxyPort: () => portOf(web.proxy),
  } as WebServers;
  beforeAll(async () => {
    web.tpb = await startTestPocketBase(REAL_RATE_LIMITS);
    const su = await web.tpb.superuser();
    web.customer = await createTestUser(su, { onboarding_completed: true });
    const pocketbase = { pocketbaseUrl: web.tpb.url, forwardingSecret: web.tpb.process.forwardingSecret };
    web.direct = await startWebServer({ port: 0, host: "0.0.0.0", ...pocketbase, limits: LIMITS });
    web.behindProxy = await startWebServer({
      port: 0,
      host: "0.0.0.0",
      ...pocketbase,
      trustForwardedFor: true,
      limits: LIMITS,
    });
    web.proxy = await startReverseProxy(portOf(web.behindProxy.server));
  });
  afterAll(async () => {
    (web.proxy as http.Server | undefined)?.close();
    await (web.behindProxy as WebServer | undefined)?.stop();
    await (web.direct as WebServer | undefined)?.stop();
    await (web.tpb as TestPocketBase | undefined)?.stop();
  });
  return web;
}
