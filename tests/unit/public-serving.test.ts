// The pure parts of public page serving: content negotiation, validators, which answers
// are compressed on the fly, robots.txt and the sitemap.
import type { IncomingMessage } from "node:http";
import { describe, expect, test } from "vitest";
import { isCompressibleType, negotiate, onTheFlyCoding } from "../../server/compression.ts";
import { addToList, etagForCoding, etagMatches } from "../../src/lib/server/http-cache.ts";
import { isCacheablePath, SITEMAP_PATHS } from "../../src/lib/server/page-cache.ts";
import { robotsTxt, siteUrl, sitemapXml } from "../../src/lib/server/seo.ts";

describe("Accept-Encoding negotiation", () => {
  test.each([
    [undefined, "identity"],
    ["", "identity"],
    ["gzip, deflate, br, zstd", "br"],
    ["gzip, deflate", "gzip"],
    ["deflate", "identity"],
    ["br;q=0.5, gzip", "gzip"],
    ["br;q=1.0, gzip;q=1.0", "br"],
    ["gzip;q=0, br;q=0", "identity"],
    ["*", "br"],
    ["*;q=0.5, br;q=0", "gzip"],
    ["identity", "identity"],
    ["identity;q=1, br;q=0.5", "identity"],
    ["BR", "br"],
    ["x-gzip", "gzip"],
    ["br;q=abc, gzip", "gzip"],
    ["br;q=2", "identity"], // a malformed weight accepts nothing
    [" , ;q=1, gzip ;q=0.8", "gzip"],
  ] as const)("%j -> %s", (header, expected) => {
    expect(negotiate(header)).toBe(expected);
  });

  test("only offered codings are chosen", () => {
    expect(negotiate("br, gzip", ["gzip"])).toBe("gzip");
    expect(negotiate("br", ["gzip"])).toBe("identity");
    // The memo of one offer does not answer for another.
    expect(negotiate("gzip, br", ["gzip"])).toBe("gzip");
    expect(negotiate("gzip, br")).toBe("br");
  });
});

describe("entity tags", () => {
  test("each coding has its own tag, and If-None-Match recognises any of them", () => {
    const etag = '"abc123"';
    expect(etagForCoding(etag, "identity")).toBe('"abc123"');
    expect(etagForCoding(etag, "br")).toBe('"abc123-br"');
    expect(etagForCoding(etag, "gzip")).toBe('"abc123-gz"');
    expect(etagForCoding('W/"abc"', "br")).toBe('W/"abc-br"');
    for (const sent of ['"abc123"', '"abc123-br"', 'W/"abc123-gz"', '"zzz", "abc123-br"', "*"]) {
      expect(etagMatches(sent, etag), sent).toBe(true);
      expect(etagMatches(sent, '"abc123-br"'), sent).toBe(true);
    }
    for (const sent of [null, undefined, "", '"abc12"', '"abc1234"', '"abc123-xx"', '"other-br"']) {
      expect(etagMatches(sent, etag), String(sent)).toBe(false);
    }
  });

  test("Vary tokens are added once", () => {
    expect(addToList(undefined, "Accept-Encoding")).toBe("Accept-Encoding");
    expect(addToList("Origin", "Accept-Encoding")).toBe("Origin, Accept-Encoding");
    expect(addToList("origin, accept-encoding", "Accept-Encoding")).toBe("origin, accept-encoding");
    expect(addToList("*", "Accept-Encoding")).toBe("*");
  });
});

describe("what is compressed on the fly", () => {
  const request = (headers: Record<string, string> = {}, method = "GET") =>
    ({ method, headers: { "accept-encoding": "gzip, br", ...headers } }) as unknown as IncomingMessage;
  const answer = (headers: Record<string, string>) => ({ get: (name: string) => headers[name] });

  test("compressible types", () => {
    for (const type of [
      "text/html; charset=utf-8",
      "application/json",
      "text/javascript",
      "text/css",
      "image/svg+xml",
      "application/xml",
      "application/problem+json",
    ]) {
      expect(isCompressibleType(type), type).toBe(true);
    }
    for (const type of [
      undefined,
      "text/event-stream",
      "text/event-stream; charset=utf-8",
      "image/png",
      "application/zip",
      "font/woff2",
      "application/jsonp",
    ]) {
      expect(isCompressibleType(type), String(type)).toBe(false);
    }
  });

  test("a large JSON or HTML answer is compressed with the client's best coding", () => {
    expect(onTheFlyCoding(request(), 200, answer({ "content-type": "application/json" }))).toEqual({ coding: "br", vary: true });
    expect(
      onTheFlyCoding(request({ "accept-encoding": "gzip" }), 200, answer({ "content-type": "text/html", "content-length": "5000" })),
    ).toEqual({
      coding: "gzip",
      vary: true,
    });
  });

  test.each([
    ["an event stream", {}, 200, { "content-type": "text/event-stream" }, false],
    ["an encoded body", {}, 200, { "content-type": "application/json", "content-encoding": "gzip" }, false],
    ["no-transform", {}, 200, { "content-type": "application/json", "cache-control": "no-transform" }, false],
    ["a small body", {}, 200, { "content-type": "application/json", "content-length": "1023" }, true],
    ["a 304", {}, 304, { "content-type": "text/html" }, true],
    ["a 204", {}, 204, { "content-type": "application/json" }, true],
    ["a partial body", {}, 206, { "content-type": "text/html" }, true],
    ["a personalised page for a cookie", { cookie: "pb_auth=x" }, 200, { "content-type": "text/html", "cache-control": "no-store" }, true],
    [
      "a private answer for a cookie",
      { cookie: "pb_auth=x" },
      200,
      { "content-type": "application/json", "cache-control": "private" },
      true,
    ],
  ] as const)("not %s", (_name, reqHeaders, status, headers, vary) => {
    expect(onTheFlyCoding(request(reqHeaders), status, answer(headers))).toEqual({ coding: "identity", vary });
  });

  test("HEAD is answered uncompressed; a public answer to a cookie-bearing request is compressed", () => {
    expect(onTheFlyCoding(request({}, "HEAD"), 200, answer({ "content-type": "text/html" })).coding).toBe("identity");
    expect(
      onTheFlyCoding(request({ cookie: "a=b" }), 200, answer({ "content-type": "text/html", "cache-control": "public, max-age=0" })).coding,
    ).toBe("br");
  });
});

describe("crawler documents", () => {
  test("robots.txt keeps crawlers out of the signed-in areas, the API and PocketBase, and names the sitemap", () => {
    const robots = robotsTxt("https://shop.example");
    expect(robots).toContain("User-agent: *\nAllow: /\n");
    for (const prefix of ["/dashboard", "/console", "/api/", "/_/"]) expect(robots).toContain(`\nDisallow: ${prefix}\n`);
    expect(robots).toMatch(/\nSitemap: https:\/\/shop\.example\/sitemap\.xml\n$/);
  });

  test("the sitemap lists the public pages with absolute, escaped URLs", () => {
    const xml = sitemapXml("https://shop.example/a&b", ["/", "/pricing"]);
    expect(xml).toContain('<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">');
    expect([...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1])).toEqual([
      "https://shop.example/a&amp;b/",
      "https://shop.example/a&amp;b/pricing",
    ]);
    expect(SITEMAP_PATHS).toContain("/pricing");
    expect(SITEMAP_PATHS).not.toContain("/login");
    expect(SITEMAP_PATHS.every((p) => isCacheablePath(p))).toBe(true);
  });

  test("the site URL comes from the configuration, never a request", () => {
    expect(siteUrl({ SHOP_APP_URL: "https://shop.example/" })).toBe("https://shop.example");
    expect(siteUrl({ SHOP_APP_URL: " ", APP_URL: "http://localhost:8080" })).toBe("http://localhost:8080");
    expect(siteUrl({ SHOP_APP_URL: "javascript:alert(1)" })).toBe("http://localhost:4321");
    expect(siteUrl({})).toBe("http://localhost:4321");
  });
});
