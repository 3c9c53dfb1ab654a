import net from "node:net";
import { expect, test } from "@playwright/test";
import { EventSource } from "eventsource";
import PocketBase from "pocketbase";
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
