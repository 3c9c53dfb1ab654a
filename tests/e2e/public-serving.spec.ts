// Public pages at static-server speed, checked through the public port with raw HTTP (no
// client that decodes for us): codings per Accept-Encoding with the right bytes, 304s,
// an ETag that follows a settings change, realtime streams left unbuffered, robots.txt
// and the sitemap, build files, and the app and API paths that must not change.
import { readFileSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import zlib from "node:zlib";
import { expect, test } from "@playwright/test";
import { E2E } from "./support/env.ts";
import { rawRequest, type Raw } from "../support/raw-http.ts";
import { superuserClient } from "./support/pocketbase.ts";

/** A raw request to the public port (tests/support/raw-http.ts). */
const get = (pathname: string, headers: Record<string, string> = {}, method = "GET"): Promise<Raw> =>
  rawRequest(`${E2E.baseUrl}${pathname}`, headers, method);

function decode(raw: Raw): Buffer {
  const coding = raw.headers["content-encoding"];
  if (coding === "br") return zlib.brotliDecompressSync(raw.body);
  if (coding === "gzip") return zlib.gunzipSync(raw.body);
  expect(coding, "no other coding is ever sent").toBeUndefined();
  return raw.body;
}

const CODINGS = [
  { accept: "gzip, deflate, br", coding: "br" },
  { accept: "gzip", coding: "gzip" },
  { accept: "", coding: undefined },
  { accept: "br;q=0, gzip;q=0", coding: undefined },
] as const;

test("public pages and crawler documents are sent in the coding the client accepts, with the same bytes", async () => {
  for (const page of ["/", "/pricing", "/login", "/robots.txt", "/sitemap.xml"]) {
    const plain = await get(page);
    expect(plain.status, page).toBe(200);
    expect(plain.headers["content-encoding"], page).toBeUndefined();
    for (const { accept, coding } of CODINGS) {
      const raw = await get(page, accept ? { "accept-encoding": accept } : {});
      const label = `${page} with Accept-Encoding "${accept}"`;
      expect(raw.status, label).toBe(200);
      expect(raw.headers["content-encoding"], label).toBe(coding);
      expect(Number(raw.headers["content-length"]), label).toBe(raw.body.length);
      expect(raw.headers["vary"], label).toMatch(/accept-encoding/i);
      expect(raw.headers["cache-control"], label).toBe("public, max-age=0, s-maxage=10, must-revalidate");
      expect(raw.headers["content-type"], label).toBe(plain.headers["content-type"]);
      expect(decode(raw).equals(plain.body), label).toBe(true);
      if (coding && plain.body.length >= 1024) expect(raw.body.length, label).toBeLessThan(plain.body.length / 2);
    }
    // Each coding has its own validator.
    const tags = await Promise.all(CODINGS.slice(0, 3).map(({ accept }) => get(page, accept ? { "accept-encoding": accept } : {})));
    expect(new Set(tags.map((t) => t.headers["etag"])).size, page).toBe(3);
  }
});

test("a public page answers If-None-Match with 304, in any coding, and HEAD with its headers only", async () => {
  const first = await get("/pricing", { "accept-encoding": "br" });
  const etag = first.headers["etag"]!;
  expect(etag).toMatch(/^"[\w-]+-br"$/);

  const again = await get("/pricing", { "accept-encoding": "br", "if-none-match": etag });
  expect(again.status).toBe(304);
  expect(again.body.length).toBe(0);
  expect(again.headers["etag"]).toBe(etag);
  expect(again.headers["cache-control"]).toBe(first.headers["cache-control"]);

  // The identity tag of the same content still matches when the client now takes gzip.
  const identity = (await get("/pricing")).headers["etag"]!;
  expect((await get("/pricing", { "accept-encoding": "gzip", "if-none-match": identity })).status).toBe(304);
  expect((await get("/pricing", { "if-none-match": '"something-else"' })).status).toBe(200);
  // Another page's tag is not this page's.
  const home = (await get("/")).headers["etag"]!;
  expect((await get("/pricing", { "if-none-match": home })).status).toBe(200);

  const head = await get("/pricing", { "accept-encoding": "br" }, "HEAD");
  expect(head.status).toBe(200);
  expect(head.body.length).toBe(0);
  expect(head.headers["content-length"]).toBe(first.headers["content-length"]);
  expect(head.headers["etag"]).toBe(etag);
});

test("a settings change gives the public pages a new ETag and the new content within 15 seconds", async () => {
  const pb = await superuserClient();
  const setting = await pb.collection("settings").getFirstListItem('key = "site_name"');
  const original = setting["value"] as string;
  const renamed = `Serving Check ${Date.now().toString(36)}`;
  const before = await get("/docs", { "accept-encoding": "br" });
  const beforeTag = before.headers["etag"]!;
  try {
    await pb.collection("settings").update(setting.id, { value: renamed });
    const started = Date.now();
    await expect
      .poll(async () => (await get("/docs", { "accept-encoding": "br", "if-none-match": beforeTag })).status, {
        timeout: 15_000,
        intervals: [100],
      })
      .toBe(200);
    const after = await get("/docs", { "accept-encoding": "br" });
    expect(after.headers["etag"]).not.toBe(beforeTag);
    expect(decode(after).toString()).toContain(renamed);
    expect(Date.now() - started).toBeLessThan(15_000);
    // Every representation changed together.
    expect(decode(await get("/docs", { "accept-encoding": "gzip" })).toString()).toContain(renamed);
    expect((await get("/docs")).body.toString()).toContain(renamed);
  } finally {
    await pb.collection("settings").update(setting.id, { value: original });
  }
  await expect.poll(async () => (await get("/docs")).body.toString().includes(original), { timeout: 15_000 }).toBe(true);
});

test("realtime events stream through unbuffered and uncompressed when the client accepts compression", async () => {
  const events: string[] = [];
  let onEvent: () => void = () => {};
  const stream = await new Promise<http.IncomingMessage>((resolve, reject) => {
    const req = http.get(
      {
        host: "127.0.0.1",
        port: E2E.webPort,
        path: "/api/realtime",
        headers: { accept: "text/event-stream", "accept-encoding": "gzip, deflate, br" },
      },
      resolve,
    );
    req.on("error", reject);
  });
  try {
    expect(stream.headers["content-type"]).toMatch(/^text\/event-stream/);
    expect(stream.headers["content-encoding"]).toBeUndefined();
    let buffered = "";
    stream.setEncoding("utf8");
    stream.on("data", (chunk: string) => {
      buffered += chunk;
      let end;
      while ((end = buffered.indexOf("\n\n")) !== -1) {
        events.push(buffered.slice(0, end));
        buffered = buffered.slice(end + 2);
        onEvent();
      }
    });
    const nextEvent = (match: RegExp, ms: number) =>
      new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no event matching ${match} within ${ms} ms; got ${JSON.stringify(events)}`)), ms);
        const check = () => {
          const found = events.find((e) => match.test(e));
          if (found) {
            clearTimeout(timer);
            onEvent = () => {};
            resolve(found);
          }
        };
        onEvent = check;
        check();
      });

    // PB_CONNECT arrives at once: nothing holds the stream's first bytes back.
    const connect = await nextEvent(/^event:PB_CONNECT/m, 2000);
    const clientId = (JSON.parse(/^data:(.*)$/m.exec(connect)![1]!) as { clientId: string }).clientId;
    const subscribe = await fetch(`${E2E.baseUrl}/api/realtime`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ clientId, subscriptions: ["public_content"] }),
    });
    expect(subscribe.status).toBe(204);

    const pb = await superuserClient();
    const row = await pb.collection("settings").getFirstListItem('key = "contact_phone"');
    const sent = Date.now();
    await pb.collection("settings").update(row.id, { value: row["value"] });
    await nextEvent(/^event:public_content/m, 2000);
    // Delivered as it happened, not when a compressor's buffer filled.
    expect(Date.now() - sent).toBeLessThan(2000);
  } finally {
    stream.destroy();
  }
});

test("robots.txt and sitemap.xml name the public pages on the shop's own address", async () => {
  const robots = await get("/robots.txt");
  expect(robots.status).toBe(200);
  expect(robots.headers["content-type"]).toBe("text/plain; charset=utf-8");
  const text = robots.body.toString();
  expect(text).toMatch(/^User-agent: \*$/m);
  for (const prefix of ["/dashboard", "/console", "/api/", "/_/"]) expect(text).toContain(`\nDisallow: ${prefix}\n`);
  expect(text).toContain(`\nSitemap: ${E2E.baseUrl}/sitemap.xml\n`);

  const sitemap = await get("/sitemap.xml");
  expect(sitemap.status).toBe(200);
  expect(sitemap.headers["content-type"]).toBe("application/xml; charset=utf-8");
  const locs = [...sitemap.body.toString().matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]!);
  expect(locs).toEqual(
    expect.arrayContaining([
      `${E2E.baseUrl}/`,
      `${E2E.baseUrl}/pricing`,
      `${E2E.baseUrl}/docs`,
      `${E2E.baseUrl}/terms`,
      `${E2E.baseUrl}/signup`,
    ]),
  );
  for (const loc of locs) {
    const page = await get(new URL(loc).pathname);
    expect(page.status, loc).toBe(200);
    expect(page.headers["content-type"], loc).toMatch(/^text\/html/);
  }
});

test("build files are sent precompressed, with validators, immutable when fingerprinted", async () => {
  const html = (await get("/")).body.toString();
  const asset = /(?:src|href)="(\/_astro\/[^"]+\.(?:js|css))"/.exec(html)?.[1];
  expect(asset, "the home page links a built asset").toBeTruthy();
  const onDisk = readFileSync(path.join("dist", "client", asset!));
  for (const { accept, coding } of CODINGS) {
    const raw = await get(asset!, accept ? { "accept-encoding": accept } : {});
    expect(raw.status).toBe(200);
    expect(raw.headers["content-encoding"]).toBe(onDisk.length >= 1024 ? coding : undefined);
    expect(raw.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(Number(raw.headers["content-length"])).toBe(raw.body.length);
    expect(decode(raw).equals(onDisk)).toBe(true);
    expect((await get(asset!, { "accept-encoding": accept, "if-none-match": raw.headers["etag"]! })).status).toBe(304);
  }
  const favicon = await get("/favicon.svg");
  expect(favicon.status).toBe(200);
  expect(favicon.headers["content-type"]).toBe("image/svg+xml");
  expect(favicon.headers["cache-control"]).toBe("public, max-age=3600");
});

test("?ref= still sets the referral cookie, app paths stay guarded, and API answers are compressed only when they pay", async () => {
  const ref = await get("/pricing?ref=PARTNER42", { "accept-encoding": "br" });
  expect(ref.status).toBe(200);
  expect(ref.headers["set-cookie"]?.join(";")).toContain("shop_ref=PARTNER42");
  expect(ref.headers["cache-control"]).toBe("private, no-store");
  expect(decode(ref).toString()).toContain("</html>");

  const guarded = await get("/dashboard", { "accept-encoding": "br" });
  expect(guarded.status).toBe(302);
  expect(guarded.headers["location"]).toBe("/login?next=%2Fdashboard");

  const plans = await get("/api/collections/pricing_plans/records?perPage=200", { "accept-encoding": "gzip" });
  expect(plans.status).toBe(200);
  const json = JSON.parse(decode(plans).toString()) as { items: unknown[] };
  expect(json.items.length).toBeGreaterThan(0);
  if (decode(plans).length >= 1024) expect(plans.headers["content-encoding"]).toBe("gzip");

  const health = await get("/api/health", { "accept-encoding": "br, gzip" });
  expect(health.headers["content-encoding"]).toBeUndefined();
  expect((JSON.parse(health.body.toString()) as { message: string }).message).toBe("API is healthy.");
});
