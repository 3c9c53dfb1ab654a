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
