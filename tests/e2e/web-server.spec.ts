import http from "node:http";
import net, { type AddressInfo } from "node:net";
import { expect, test } from "@playwright/test";
import { EventSource } from "eventsource";
import PocketBase from "pocketbase";
import { startWebServer } from "../../server/web-server.ts";
import { E2E } from "./support/env.ts";
import { superuserClient } from "./support/pocketbase.ts";

test("pages carry the security headers", async ({ request }) => {
  const res = await request.get("/");
  expect(res.status()).toBe(200);
  expect(res.headers()["x-content-type-options"]).toBe("nosniff");
  expect(res.headers()["x-frame-options"]).toBe("DENY");
  expect(res.headers()["referrer-policy"]).toBe("strict-origin-when-cross-origin");
});

test("the PocketBase API is served through the web server's port", async ({ request }) => {
  const res = await request.get("/api/health");
  expect(res.status()).toBe(200);
  expect((await res.json()).message).toBe("API is healthy.");
});

test("realtime events stream through the web server unbuffered", async () => {
  (globalThis as { EventSource?: unknown }).EventSource ??= EventSource;
  const client = new PocketBase(E2E.baseUrl);
  const received = new Promise<void>((resolve) => {
    void client.realtime.subscribe("public_content", () => resolve());
  });
  await expect.poll(() => client.realtime.isConnected, { timeout: 10_000 }).toBe(true);

  const pb = await superuserClient();
  const row = await pb.collection("settings").getFirstListItem('key = "contact_phone"');
  await pb.collection("settings").update(row.id, { value: row["value"] });
  await expect(received).resolves.toBeUndefined();
  await client.realtime.unsubscribe();
});

test("a body on a GET-like request cannot smuggle a second request to PocketBase", async () => {
  const marker = `Smuggled ${Date.now()}`;
  const body = JSON.stringify({
    name: "Mallory",
    email: "mallory@example.com",
    subject: marker,
    message: "This request should never reach PocketBase.",
    type: "general",
  });
  const inner =
    `POST /api/collections/contact_messages/records HTTP/1.1\r\nHost: x\r\n` +
    `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
  const raw =
    `DELETE /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n` +
    `${Buffer.byteLength(inner).toString(16)}\r\n${inner}\r\n0\r\n\r\n`;

  const response = await new Promise<string>((resolve, reject) => {
    const socket = net.connect(E2E.webPort, "127.0.0.1", () => socket.write(raw));
    let data = "";
    socket.on("data", (chunk) => (data += chunk.toString()));
    socket.on("end", () => resolve(data));
    socket.on("error", reject);
  });
  expect(response).toMatch(/^HTTP\/1\.1 \d{3}/);

  // Give a smuggled request time to land, then check that it never did.
  await new Promise((r) => setTimeout(r, 1000));
  const pb = await superuserClient();
  const rows = await pb.collection("contact_messages").getFullList({ filter: pb.filter("subject = {:s}", { s: marker }) });
  expect(rows).toHaveLength(0);
});

test("a session check PocketBase cannot answer shows a retry page and keeps the visitor signed in", async ({ request }) => {
  // A second web server in front of a stand-in backend that answers auth-refresh with a
  // chosen status (the real one is hard to push into 429 or 5xx on purpose).
  let refreshStatus = 429;
  const backend = http.createServer((req, res) => {
    req.resume();
    const status = req.url?.startsWith("/api/collections/users/auth-refresh") ? refreshStatus : 503;
    res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify({ status, message: "stand-in", data: {} }));
  });
  await new Promise<void>((r) => backend.listen(0, "127.0.0.1", () => r()));
  const web = await startWebServer({ port: 0, pocketbaseUrl: `http://127.0.0.1:${(backend.address() as AddressInfo).port}` });
  const payload = Buffer.from(JSON.stringify({ exp: Math.floor(Date.now() / 1000) + 3600, type: "auth" })).toString("base64url");
  const cookie = `pb_auth=${encodeURIComponent(JSON.stringify({ token: `x.${payload}.y`, record: { id: "u1", collectionName: "users" } }))}`;
  try {
    for (const status of [429, 500, 503]) {
      refreshStatus = status;
      const res = await request.get(`${web.url}/dashboard/proxies?page=2`, { headers: { cookie }, maxRedirects: 0 });
      expect(res.status()).toBe(503);
      expect(res.headers()["retry-after"]).toBe("5");
      expect(res.headers()["set-cookie"]).toBeUndefined();
      const html = await res.text();
      expect(html).toContain("We could not load your account just now");
      expect(html).toContain('href="/dashboard/proxies?page=2"');
    }
    refreshStatus = 401;
    const res = await request.get(`${web.url}/dashboard`, { headers: { cookie }, maxRedirects: 0 });
    expect(res.status()).toBe(302);
    expect(res.headers()["location"]).toBe("/login?next=%2Fdashboard");
  } finally {
    await web.stop();
    backend.close();
  }
});
