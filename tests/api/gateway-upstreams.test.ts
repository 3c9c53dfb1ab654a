// The gateway when it listens beyond loopback, with upstreams imported in the console
// (issue #16): a private target is refused until the gateway_allowed_ranges setting names
// it; an imported upstream carries the customer's traffic with the upstream's own
// credentials (the customer never holds them); a RESIDENTIAL proxy rotates across its
// location's upstreams per connection and sticks to one with -session-<id>. Targets and
// upstreams are small servers on loopback; the customer side is curl.
import { execFile } from "node:child_process";
import { createServer as createHttpServer, type IncomingMessage, type Server } from "node:http";
import { connect, type Socket } from "node:net";
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminSend, setSetting } from "../support/admin.ts";
import { freePort } from "../support/pocketbase.ts";
import { customer, purchase } from "../support/shop.ts";
import { useShop } from "../support/use-shop.ts";

const HTTP_PORT = await freePort();
// 0.0.0.0: the gateway counts as reachable from outside, so the guard is on.
const shop = useShop({ env: { GATEWAY_HOST: "0.0.0.0", GATEWAY_HTTP_PORT: String(HTTP_PORT) } });

let target: Server;
let targetPort = 0;
let targetHits = 0;

/** An upstream HTTP proxy with its own credentials: CONNECT only, counting what it carried. */
interface Upstream {
  port: number;
  username: string;
  password: string;
  tunnels: number;
  server: Server;
}
const upstreams: Upstream[] = [];

async function startUpstream(): Promise<Upstream> {
  const up: Upstream = {
    port: 0,
    username: `up-${randomUUID().slice(0, 8)}`,
    password: `UpSecret-${randomUUID()}`,
    tunnels: 0,
    server: createHttpServer(),
  };
  up.server.on("connect", (req: IncomingMessage, client: Socket, head: Buffer) => {
    const expected = `Basic ${Buffer.from(`${up.username}:${up.password}`).toString("base64")}`;
    if (req.headers["proxy-authorization"] !== expected) {
      client.end("HTTP/1.1 407 Proxy Authentication Required\r\nContent-Length: 0\r\n\r\n");
      return;
    }
    up.tunnels += 1;
    const [host, port] = (req.url ?? "").split(":");
    const out = connect(Number(port), host, () => {
      client.write("HTTP/1.1 200 Connection established\r\n\r\n");
      out.write(head);
      out.pipe(client);
      client.pipe(out);
    });
    out.on("error", () => client.destroy());
    client.on("error", () => out.destroy());
  });
  await new Promise<void>((resolve) => up.server.listen(0, "127.0.0.1", resolve));
  up.port = (up.server.address() as { port: number }).port;
  upstreams.push(up);
  return up;
}

beforeAll(async () => {
  target = createHttpServer((_req, res) => {
    targetHits += 1;
    res.end("hello from the target");
  });
  await new Promise<void>((resolve) => target.listen(0, "127.0.0.1", resolve));
  targetPort = (target.address() as { port: number }).port;
});

afterAll(async () => {
  for (const s of [target, ...upstreams.map((u) => u.server)]) {
    s.closeAllConnections();
    await new Promise((resolve) => s.close(resolve));
  }
});

function curlVia(username: string, password: string): Promise<{ status: number; body: string }> {
  const proxy = `http://${encodeURIComponent(username)}:${encodeURIComponent(password)}@127.0.0.1:${HTTP_PORT}`;
  return new Promise((resolve) => {
    execFile(
      "curl",
      ["-sS", "-p", "--max-time", "10", "-x", proxy, "-w", "\n%{http_code} %{http_connect}", `http://127.0.0.1:${targetPort}/`],
      (_e, stdout) => {
        const lines = stdout.split("\n");
        const [code = "0", connectCode = "0"] = (lines.pop() ?? "").split(" ");
        resolve({ status: Number(code) || Number(connectCode), body: lines.join("\n") });
      },
    );
  });
}

/** Polls `check` until it holds (the gateway follows changes within a second; settings within two). */
async function eventually(check: () => Promise<boolean>, limitMs = 5000): Promise<void> {
  const deadline = Date.now() + limitMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`not within ${limitMs} ms`);
}

async function importAndBuy(lines: string[], type: string, country: string, quantity: number) {
  const res = await adminSend<{ imported: number }>(shop.admin, "/api/admin/proxies/import", { text: lines.join("\n"), type, country });
  expect(res.imported).toBe(lines.length);
  const buyer = await customer(shop, 100_000);
  const bought = await purchase(buyer.pb, { type, country, quantity });
  return bought.proxies.map((p) => ({ username: p.username, password: String(p["password"]) }));
}

describe("the gateway beyond loopback, with upstreams", () => {
  it("refuses a private target, dialling nothing, until gateway_allowed_ranges names it", async () => {
    const generated = await adminSend<{ ids: string[] }>(shop.admin, "/api/admin/proxies/generate", {
      type: "DATACENTER",
      country: "FR",
      quantity: 1,
    });
    expect(generated.ids).toHaveLength(1);
    const buyer = await customer(shop, 10_000);
    const [proxy] = (await purchase(buyer.pb, { type: "DATACENTER", country: "FR", quantity: 1 })).proxies;
    const hits = targetHits;
    const refused = await curlVia(proxy!.username, String(proxy!["password"]));
    expect(refused.status).toBe(403);
    expect(targetHits).toBe(hits);

    await setSetting(shop.su, "gateway_allowed_ranges", "127.0.0.0/8");
    await eventually(async () => (await curlVia(proxy!.username, String(proxy!["password"]))).status === 200);
    expect(targetHits).toBeGreaterThan(hits);
  });

  it("carries a customer through an imported upstream with the upstream's own credentials", async () => {
    const up = await startUpstream();
    const [proxy] = await importAndBuy([`127.0.0.1:${up.port}:${up.username}:${up.password}`], "DATACENTER", "NL", 1);
    expect(proxy!.username).not.toBe(up.username);
    expect(proxy!.password).not.toBe(up.password);
    const res = await curlVia(proxy!.username, proxy!.password);
    expect(res.status).toBe(200);
    expect(res.body).toBe("hello from the target");
    expect(up.tunnels).toBe(1);
    // The upstream's own credentials open nothing on the gateway.
    expect((await curlVia(up.username, up.password)).status).toBe(407);
  });

  it("rotates a RESIDENTIAL proxy across its location's upstreams, and sticks with -session-<id>", async () => {
    const pool = [await startUpstream(), await startUpstream(), await startUpstream()];
    const [proxy] = await importAndBuy(
      pool.map((u) => `127.0.0.1:${u.port}:${u.username}:${u.password}`),
      "RESIDENTIAL",
      "SE",
      1,
    );
    for (let i = 0; i < 15; i++) expect((await curlVia(proxy!.username, proxy!.password)).status).toBe(200);
    expect(pool.filter((u) => u.tunnels > 0).length).toBeGreaterThanOrEqual(2);

    const before = pool.map((u) => u.tunnels);
    for (let i = 0; i < 8; i++) expect((await curlVia(`${proxy!.username}-session-s1`, proxy!.password)).status).toBe(200);
    const grew = pool.filter((u, i) => u.tunnels > before[i]!);
    expect(grew).toHaveLength(1);
    expect(grew[0]!.tunnels - before[pool.indexOf(grew[0]!)]!).toBe(8);
  });
});
