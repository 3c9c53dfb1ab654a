// What the HTTPS and SOCKS5 plans sell, through the shop's own gateway (issue #28): the
// HTTPS proxy port (TLS to the gateway, its self-signed certificate made in the data dir on
// first start) carries plain HTTP and CONNECT for the types that have it, with the real
// curl as a customer runs it; SOCKS5 UDP ASSOCIATE relays a datagram to a loopback echo
// and back, metered into the owner's usage rows.
import { execFile } from "node:child_process";
import { X509Certificate } from "node:crypto";
import { createSocket, type Socket as UdpSocket } from "node:dgram";
import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { connect, type Socket } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gatewayCertFile } from "../../server/gateway-tls.ts";
import { useGatewayShop } from "../support/gateway-shop.ts";

const shop = await useGatewayShop();
let web: Server;
let webPort = 0;
let echo: UdpSocket;
let echoPort = 0;

beforeAll(async () => {
  web = createServer((req, res) => res.end(`hello ${req.url}`));
  echo = createSocket("udp4", (msg, from) => echo.send(msg, from.port, from.address));
  await new Promise<void>((resolve) => web.listen(0, "127.0.0.1", resolve));
  await new Promise<void>((resolve) => echo.bind(0, "127.0.0.1", resolve));
  webPort = (web.address() as { port: number }).port;
  echoPort = echo.address().port;
});

afterAll(async () => {
  await new Promise((resolve) => web.close(resolve));
  echo.close();
});

/** curl's output and exit code (0: it worked). */
function curl(args: string[]): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    execFile("curl", ["-sS", "--max-time", "10", ...args], (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code ?? 1) : 0, out: `${stdout}${stderr}` }),
    );
  });
}

describe("the HTTPS proxy port", () => {
  it("serves an HTTPS proxy's plain HTTP and CONNECT inside TLS, with the certificate the gateway made", async () => {
    const proxy = await shop.buy("HTTPS");
    const answer = await proxy.owner.pb.collection("proxies").getOne(proxy.id);
    expect(answer["ports"]).toEqual({ http: shop.gateway.http, https: shop.gateway.https });
    const cert = gatewayCertFile({}, shop.tpb.dataDir);
    expect(new X509Certificate(readFileSync(cert)).subjectAltName).toContain("DNS:localhost");
    const url = `https://${proxy.username}:${proxy.password}@127.0.0.1:${shop.gateway.https}`;
    const target = `http://127.0.0.1:${webPort}/through-tls`;
    expect(await curl(["--proxy", url, "--proxy-cacert", cert, target])).toEqual({ code: 0, out: "hello /through-tls" });
    expect(await curl(["--proxy", url, "--proxy-insecure", "--proxytunnel", target])).toEqual({ code: 0, out: "hello /through-tls" });
    // Without trusting the certificate curl refuses the port, as a client should.
    expect((await curl(["--proxy", url, target])).code).not.toBe(0);
    expect(path.dirname(cert)).toBe(shop.tpb.dataDir);
  });

  it("refuses a proxy whose type has no HTTPS port (SOCKS5)", async () => {
    const proxy = await shop.buy("SOCKS5");
    const url = `https://${proxy.username}:${proxy.password}@127.0.0.1:${shop.gateway.https}`;
    const res = await curl(["--proxy", url, "--proxy-insecure", "-o", "/dev/null", "-w", "%{http_code}", `http://127.0.0.1:${webPort}/`]);
    expect(res.out).toBe("407");
  });
});

/** Reads exactly n bytes from a socket. */
function readBytes(socket: Socket, n: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    let got = Buffer.alloc(0);
    const onData = (chunk: Buffer) => {
      got = Buffer.concat([got, chunk]);
      if (got.length >= n) {
        socket.off("data", onData);
        resolve(got);
      }
    };
    socket.on("data", onData);
    socket.once("close", () => reject(new Error(`closed after ${got.length} of ${n} bytes`)));
  });
}

describe("SOCKS5 UDP ASSOCIATE", () => {
  it("relays a datagram to a loopback echo and back, metered into the owner's usage rows", async () => {
    const proxy = await shop.buy("SOCKS5");
    const control = connect(shop.gateway.socks, "127.0.0.1");
    await new Promise((resolve) => control.once("connect", resolve));
    const user = Buffer.from(proxy.username);
    const pass = Buffer.from(proxy.password);
    const reply = readBytes(control, 2 + 2 + 10);
    control.write(Buffer.concat([Buffer.from([5, 1, 2, 1, user.length]), user, Buffer.from([pass.length]), pass]));
    control.write(Buffer.from([5, 3, 0, 1, 0, 0, 0, 0, 0, 0])); // the client's address: not known yet
    const answer = await reply;
    expect([...answer.subarray(0, 6)]).toEqual([5, 2, 1, 0, 5, 0]);
    const relayPort = answer.readUInt16BE(12);

    const client = createSocket("udp4");
    const back = new Promise<Buffer>((resolve) => client.once("message", resolve));
    const header = Buffer.from([0, 0, 0, 1, 127, 0, 0, 1, echoPort >> 8, echoPort & 0xff]);
    client.send(Buffer.concat([header, Buffer.from("ping over udp")]), relayPort, "127.0.0.1");
    const datagram = await back;
    expect(datagram.subarray(0, 10)).toEqual(header);
    expect(datagram.subarray(10).toString()).toBe("ping over udp");
    client.close();
    control.destroy();

    let rows: { bytes_up: number; bytes_down: number; connections: number }[] = [];
    for (let i = 0; i < 60 && rows.length === 0; i++) {
      rows = await proxy.owner.pb.collection("proxy_usage").getFullList({ filter: `proxy_id = "${proxy.id}"` });
      if (rows.length === 0) await new Promise((r) => setTimeout(r, 100));
    }
    expect(rows).toMatchObject([{ bytes_up: 13, bytes_down: 13, connections: 1 }]);
  });
});
