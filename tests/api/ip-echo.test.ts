// GET /api/ip, the shop's IP-echo endpoint (issue #16, pb_hooks/lib/gateway/ip-echo.js):
// the caller's address as text ("<ip>\n") or JSON ({ip}) with Accept: application/json,
// no auth, never cached. Asked directly of PocketBase it is the TCP peer; asked through the
// web server it is the address that connected to the web server (what a proxy's exit is),
// never the web server's own 127.0.0.1 and never what the client claims in
// X-Forwarded-For; behind a trusted reverse proxy, the client that proxy saw. Each caller
// comes from its own loopback address (127.0.0.x) so the answer cannot be a constant.
// Last, the whole journey: a bought proxy's curl command (src/lib/connection-lines.ts, as
// its card and the dashboard show it) run by sh and curl through the shop's gateway prints
// the proxy's exit address. Needs the built site (`npm run build`) for the web server.
import { execFile } from "node:child_process";
import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { curlCommand, shellWord, socksUrl, type Connectable } from "@/lib/connection-lines";
import { startWebServer, type WebServer } from "../../server/web-server.ts";
import { freePort } from "../support/pocketbase.ts";
import { adminSend } from "../support/admin.ts";
import { customer, purchase, setProxyColumns } from "../support/shop.ts";
import { useShop } from "../support/use-shop.ts";
import { OTHER_MACHINE, portOf, send, startReverseProxy } from "./cases/web-server-kit.ts";

const WEB_PORT = await freePort();
const shop = useShop({
  env: {
    // Proxies' host is the shop's host name (127.0.0.1), where the gateway listens.
    SHOP_APP_URL: `http://127.0.0.1:${WEB_PORT}`,
    GATEWAY_HOST: "127.0.0.1",
    GATEWAY_HTTP_PORT: String(await freePort()),
    GATEWAY_SOCKS_PORT: String(await freePort()),
  },
});
const pbPort = () => Number(new URL(shop.tpb.url).port);

describe("GET /api/ip straight to PocketBase", () => {
  it("answers the caller's address as text, uncached, without signing in", async () => {
    for (const from of ["127.0.0.1", "127.0.0.7"]) {
      const res = await send("127.0.0.1", pbPort(), { path: "/api/ip", localAddress: from });
      expect(res.status).toBe(200);
      expect(res.body).toBe(`${from}\n`);
      expect(res.headers["content-type"]).toMatch(/^text\/plain/);
      expect(res.headers["cache-control"]).toBe("no-store");
    }
  });

  it.each([
    ["application/json", "json"],
    ["application/json, text/plain, */*", "json"],
    ["text/plain;q=0.9, application/json", "json"],
    ["*/*", "text"],
    ["", "text"],
    ["text/plain, application/json;q=0.5", "text"],
    ["application/json;q=0", "text"],
    ["text/html,application/xhtml+xml", "text"],
  ])("Accept %j gets %s", async (accept, kind) => {
    const res = await send("127.0.0.1", pbPort(), {
      path: "/api/ip",
      localAddress: "127.0.0.8",
      ...(accept ? { headers: { accept } } : {}),
    });
    expect(res.status).toBe(200);
    expect(res.headers["cache-control"]).toBe("no-store");
    if (kind === "json") {
      expect(res.headers["content-type"]).toMatch(/^application\/json/);
      expect(JSON.parse(res.body)).toEqual({ ip: "127.0.0.8" });
    } else {
      expect(res.headers["content-type"]).toMatch(/^text\/plain/);
      expect(res.body).toBe("127.0.0.8\n");
    }
  });

  it("answers a signed-in caller the same, and only GET (PocketBase's router: 404 for another method)", async () => {
    const su = await shop.tpb.superuser();
    const signedIn = await send("127.0.0.1", pbPort(), {
      path: "/api/ip",
      localAddress: "127.0.0.9",
      headers: { authorization: su.authStore.token },
    });
    expect(signedIn.body).toBe("127.0.0.9\n");
    const post = await send("127.0.0.1", pbPort(), { method: "POST", path: "/api/ip", body: "{}" });
    expect(post.status).toBe(404);
    expect(post.body).not.toContain("127.0.0.1");
  });
});

describe("GET /api/ip through the web server", () => {
  let direct: WebServer;
  let behindProxy: WebServer;
  let proxy: http.Server;

  beforeAll(async () => {
    const pocketbase = { pocketbaseUrl: shop.tpb.url, forwardingSecret: shop.tpb.process.forwardingSecret };
    direct = await startWebServer({ port: WEB_PORT, host: "0.0.0.0", ...pocketbase });
    behindProxy = await startWebServer({ port: 0, host: "0.0.0.0", ...pocketbase, trustForwardedFor: true });
    proxy = await startReverseProxy(portOf(behindProxy.server));
  });
  afterAll(async () => {
    (proxy as http.Server | undefined)?.close();
    await (behindProxy as WebServer | undefined)?.stop();
    await (direct as WebServer | undefined)?.stop();
  });

  it("answers the address that connected to the web server, not the web server's own, whatever the client claims", async () => {
    const res = await send("127.0.0.1", portOf(direct.server), {
      path: "/api/ip",
      localAddress: "127.0.0.3",
      headers: { "x-forwarded-for": "203.0.113.9", "x-real-ip": "203.0.113.9", forwarded: "for=203.0.113.9" },
    });
    expect(res.status).toBe(200);
    expect(res.body).toBe("127.0.0.3\n");
    expect(res.headers["cache-control"]).toBe("no-store");
    const json = await send("127.0.0.1", portOf(direct.server), {
      path: "/api/ip",
      localAddress: "127.0.0.4",
      headers: { accept: "application/json" },
    });
    expect(JSON.parse(json.body)).toEqual({ ip: "127.0.0.4" });
  });

  it("answers another machine's address (a gateway's exit on this network)", async (ctx) => {
    if (!OTHER_MACHINE) ctx.skip();
    const res = await send(OTHER_MACHINE!, portOf(direct.server), { path: "/api/ip", localAddress: OTHER_MACHINE! });
    expect(res.body).toBe(`${OTHER_MACHINE}\n`);
  });

  it("behind a trusted reverse proxy, answers the client that proxy saw", async () => {
    const res = await send("127.0.0.1", portOf(proxy), {
      path: "/api/ip",
      localAddress: "127.0.0.5",
      headers: { "x-forwarded-for": "203.0.113.9" },
    });
    expect(res.status).toBe(200);
    expect(res.body).toBe("127.0.0.5\n");
  });

  it("a bought proxy's curl command, run through the gateway, prints the proxy's exit address", async () => {
    const sh = (command: string) =>
      new Promise<string>((resolve, reject) =>
        execFile("sh", ["-c", `${command} -sS --max-time 10`], (error, stdout, stderr) =>
          error ? reject(new Error(`${command}: ${stderr}`)) : resolve(stdout),
        ),
      );
    const origin = `http://127.0.0.1:${WEB_PORT}`;
    const buyer = await customer(shop, 10_000);
    for (const [type, exit] of [
      ["DATACENTER", "127.0.0.6"],
      ["SOCKS5", "127.0.0.7"],
    ] as const) {
      // Made by Generate: a gateway proxy (the shop's host, the gateway's port), exit direct ...
      const { ids } = await adminSend<{ ids: string[] }>(shop.admin, "/api/admin/proxies/generate", { type, country: "US", quantity: 1 });
      // ... bound to a local address of its own, so the answer names the exit.
      setProxyColumns(shop.tpb, ids, { exit: "direct", bind_address: exit });
      const [bought] = (await purchase(buyer.pb, { type, country: "US", quantity: 1 })).proxies as unknown as Connectable[];
      const command = curlCommand(bought!, origin);
      expect(command).toContain(type === "SOCKS5" ? "--socks5-hostname" : "-x http://");
      // The gateway follows the database within a second.
      await expect.poll(() => sh(command).catch((e: Error) => e.message), { timeout: 5_000 }).toBe(`${exit}\n`);
      if (type === "DATACENTER") {
        const socks = socksUrl(bought!);
        if (socks) expect(await sh(`curl -x ${shellWord(socks)} ${origin}/api/ip`)).toBe(`${exit}\n`);
      }
    }
  });
});
