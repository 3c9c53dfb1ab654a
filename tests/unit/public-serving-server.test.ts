// The web server's serving pieces on real sockets, without a build or PocketBase: the
// on-the-fly compressor around a handler that writes like Astro, the upstream relay with
// an event stream, the build-file server over precompressed copies, and the public page
// fast path over the shared page registry.
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from "node:fs";
import http, { type IncomingMessage, type ServerResponse } from "node:http";
import os from "node:os";
import path from "node:path";
import { PassThrough } from "node:stream";
import zlib from "node:zlib";
import { afterAll, afterEach, describe, expect, test } from "vitest";
import { compressWrites, sendUpstream } from "../../server/compression.ts";
import { precompressDir } from "../../server/precompress.ts";
import { compressPublishedPages, servePublicPage } from "../../server/public-pages.ts";
import { staticFiles } from "../../server/static-files.ts";
import { rawRequest as get, type Raw } from "../support/raw-http.ts";
import { publicPageRegistry, publishSnapshotVersion, servePublicPage as renderThroughCache } from "../../src/lib/server/page-cache.ts";

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

const servers: http.Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise<void>((r) => (s.closeAllConnections(), s.close(() => r())))));
});

async function serve(handler: Handler): Promise<string> {
  const server = http.createServer(handler);
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  return `http://127.0.0.1:${(server.address() as { port: number }).port}`;
}

const decode = (raw: Raw): Buffer =>
  raw.headers["content-encoding"] === "br"
    ? zlib.brotliDecompressSync(raw.body)
    : raw.headers["content-encoding"] === "gzip"
      ? zlib.gunzipSync(raw.body)
      : raw.body;

/** Writes like Astro's NodeApp.writeResponse: writeHead with an object, a write per chunk, end. */
function astroLike(status: number, headers: Record<string, string>, chunks: (string | Buffer)[]): Handler {
  return (req, res) => {
    compressWrites(req, res);
    res.writeHead(status, headers);
    for (const c of chunks) res.write(c);
    res.end();
  };
}

const page = Array.from({ length: 400 }, (_, i) => `<p>Row ${i} of a long public page</p>`).join("\n");

describe("compressing a handler's writes", () => {
  test("HTML written in chunks arrives whole in br, gzip or identity, with Vary and a weak coded ETag", async () => {
    const url = await serve(
      astroLike(200, { "content-type": "text/html", etag: '"v1"' }, [page.slice(0, 5000), Buffer.from(page.slice(5000))]),
    );
    for (const [accept, coding] of [
      ["br, gzip", "br"],
      ["gzip", "gzip"],
      ["", undefined],
    ] as const) {
      const raw = await get(url, accept ? { "accept-encoding": accept } : {});
      expect(raw.headers["content-encoding"]).toBe(coding);
      expect(raw.headers["vary"]).toBe("Accept-Encoding");
      expect(raw.headers["etag"]).toBe(coding ? `W/"v1-${coding === "br" ? "br" : "gz"}"` : '"v1"');
      expect(raw.headers["content-length"]).toBeUndefined();
      expect(decode(raw).toString()).toBe(page);
    }
  });

  test("a big body under backpressure arrives intact", async () => {
    const big = Buffer.from(Array.from({ length: 200_000 }, (_, i) => `${i % 97},`).join(""));
    const url = await serve(
      astroLike(
        200,
        { "content-type": "application/json" },
        Array.from({ length: 8 }, () => big),
      ),
    );
    const raw = await get(url, { "accept-encoding": "gzip" });
    expect(raw.headers["content-encoding"]).toBe("gzip");
    expect(decode(raw).equals(Buffer.concat(Array.from({ length: 8 }, () => big)))).toBe(true);
  });

  test("small, binary, already-encoded, personalised and HEAD answers go out as written", async () => {
    const cases: [Handler, Record<string, string>, string][] = [
      [astroLike(200, { "content-type": "text/html", "content-length": "11" }, ["hello world"]), {}, "hello world"],
      [astroLike(200, { "content-type": "image/png" }, [page]), {}, page],
      [astroLike(200, { "content-type": "text/html", "cache-control": "no-store" }, [page]), { cookie: "pb_auth=x" }, page],
      [
        (req, res) => {
          compressWrites(req, res);
          res.statusCode = 500;
          res.setHeader("content-type", "text/plain");
          res.end("Internal Server Error");
        },
        {},
        "Internal Server Error",
      ],
    ];
    for (const [handler, headers, body] of cases) {
      const raw = await get(await serve(handler), { "accept-encoding": "br, gzip", ...headers });
      expect(raw.headers["content-encoding"]).toBeUndefined();
      expect(raw.body.toString()).toBe(body);
    }
    const head = await get(await serve(astroLike(200, { "content-type": "text/html" }, [])), { "accept-encoding": "br" }, "HEAD");
    expect(head.headers["content-encoding"]).toBeUndefined();
  });
});

describe("relaying an upstream answer", () => {
  test("an event stream is flushed event by event, never compressed", async () => {
    const upstream = new PassThrough();
    const url = await serve((req, res) => sendUpstream(req, res, 200, { "content-type": "text/event-stream" }, upstream));
    const first = await new Promise<{ headers: http.IncomingHttpHeaders; chunk: string; res: IncomingMessage }>((resolve, reject) => {
      http
        .get(url, { headers: { "accept-encoding": "gzip, br" } }, (res) => {
          res.setEncoding("utf8");
          res.once("data", (chunk: string) => resolve({ headers: res.headers, chunk, res }));
        })
        .on("error", reject);
      upstream.write("event:PB_CONNECT\ndata:{}\n\n");
    });
    expect(first.headers["content-encoding"]).toBeUndefined();
    expect(first.chunk).toBe("event:PB_CONNECT\ndata:{}\n\n");
    const second = new Promise<string>((resolve) => first.res.once("data", resolve));
    upstream.write("event:public_content\ndata:{}\n\n");
    expect(await second).toBe("event:public_content\ndata:{}\n\n");
    first.res.destroy();
  });

  test("large JSON is compressed, its length dropped; small JSON is left alone", async () => {
    const json = JSON.stringify({ items: Array.from({ length: 200 }, (_, i) => ({ id: i, name: `plan ${i}` })) });
    const url = await serve((req, res) => {
      const body = new PassThrough();
      const small = req.url === "/small";
      const text = small ? '{"ok":true}' : json;
      sendUpstream(req, res, 200, { "content-type": "application/json", "content-length": String(Buffer.byteLength(text)) }, body);
      body.end(text);
    });
    const big = await get(url, { "accept-encoding": "br" });
    expect(big.headers["content-encoding"]).toBe("br");
    expect(big.headers["content-length"]).toBeUndefined();
    expect(decode(big).toString()).toBe(json);
    const small = await get(`${url}/small`, { "accept-encoding": "br" });
    expect(small.headers["content-encoding"]).toBeUndefined();
    expect(small.body.toString()).toBe('{"ok":true}');
  });
});

describe("build files", () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "static-files-test-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const script = `export const x = ${JSON.stringify(page)};`;

  test("precompressed copies are chosen by Accept-Encoding; fingerprinted files are immutable", async () => {
    mkdirSync(path.join(dir, "_astro"));
    writeFileSync(path.join(dir, "_astro", "app.AbC123.js"), script);
    writeFileSync(path.join(dir, "favicon.svg"), "<svg/>");
    const stats = await precompressDir(dir);
    expect(stats.files).toBe(1); // the favicon is under the size worth compressing
    expect(await precompressDir(dir)).toEqual(stats); // idempotent: copies are not compressed again

    const files = staticFiles(dir);
    const url = await serve((req, res) => {
      if (!files(req, res)) res.writeHead(404).end("fallback");
    });
    for (const [accept, coding] of [
      ["gzip, deflate, br", "br"],
      ["gzip", "gzip"],
      ["", undefined],
    ] as const) {
      const raw = await get(`${url}/_astro/app.AbC123.js`, accept ? { "accept-encoding": accept } : {});
      expect(raw.status).toBe(200);
      expect(raw.headers["content-encoding"]).toBe(coding);
      expect(raw.headers["content-type"]).toBe("text/javascript; charset=utf-8");
      expect(raw.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
      expect(raw.headers["vary"]).toBe("Accept-Encoding");
      expect(Number(raw.headers["content-length"])).toBe(raw.body.length);
      expect(decode(raw).toString()).toBe(script);
      const again = await get(`${url}/_astro/app.AbC123.js`, { "accept-encoding": accept, "if-none-match": raw.headers["etag"]! });
      expect(again.status).toBe(304);
    }
    const favicon = await get(`${url}/favicon.svg`, { "accept-encoding": "br" });
    expect([favicon.headers["content-encoding"], favicon.headers["cache-control"], favicon.body.toString()]).toEqual([
      undefined,
      "public, max-age=3600",
      "<svg/>",
    ]);
    for (const other of ["/", "/_astro", "/_astro/missing.js", "/_astro/app.abc123.js", "/%E0%A4%A"]) {
      expect((await get(url + other)).body.toString(), other).toBe("fallback");
    }
    expect((await get(`${url}/_astro/app.AbC123.js`, {}, "POST")).body.toString()).toBe("fallback");
  });
});

describe("the public page fast path", () => {
  test("answers a current page from the registry, sends the rest to the fallback", async () => {
    const registry = publicPageRegistry();
    let version = 1;
    let renders = 0;
    publishSnapshotVersion(async () => version);
    compressPublishedPages();
    const render = () => {
      renders++;
      return Promise.resolve(new Response(`<html>${page} v${version}</html>`, { headers: { "content-type": "text/html; charset=utf-8" } }));
    };
    const url = await serve((req, res) => {
      // The fallback plays Astro: it renders through the page cache, as the middleware does.
      const fallback: Handler = (r, s) => {
        void renderThroughCache(r.url!.split("?")[0]!, version, render, r.headers["if-none-match"]).then(async (response) => {
          s.writeHead(response.status, { ...Object.fromEntries(response.headers), "x-from": "astro" });
          s.end(Buffer.from(await response.arrayBuffer()));
        });
      };
      if (!servePublicPage(req, res, fallback)) fallback(req, res);
    });

    const first = await get(`${url}/terms`, { "accept-encoding": "br" });
    expect(first.headers["x-from"]).toBe("astro");
    expect(renders).toBe(1);
    const hit = await get(`${url}/terms`, { "accept-encoding": "br" });
    expect(hit.headers["x-from"]).toBeUndefined();
    expect(hit.headers["content-encoding"]).toBe("br");
    expect(decode(hit).toString()).toContain("v1</html>");
    expect((await get(`${url}/terms`, { "if-none-match": hit.headers["etag"]! })).status).toBe(304);
    // A query string always goes to Astro (?ref= sets a cookie there).
    expect((await get(`${url}/terms?ref=abc`)).headers["x-from"]).toBe("astro");

    version = 2;
    const stale = await get(`${url}/terms`, { "if-none-match": hit.headers["etag"]! });
    expect(stale.status).toBe(200);
    expect(stale.headers["x-from"]).toBe("astro");
    expect(stale.body.toString()).toContain("v2</html>");
    expect(renders).toBe(2);
    const fresh = await get(`${url}/terms`, { "accept-encoding": "gzip" });
    expect(fresh.headers["x-from"]).toBeUndefined();
    expect(decode(fresh).toString()).toContain("v2</html>");
    expect(registry.pages.get("/terms")?.version).toBe(2);
  });

  test("a burst of misses renders a page once", async () => {
    let renders = 0;
    const slow = async () => {
      renders++;
      await new Promise((r) => setTimeout(r, 50));
      return new Response("<html>burst</html>", { headers: { "content-type": "text/html" } });
    };
    const answers = await Promise.all(Array.from({ length: 20 }, () => renderThroughCache("/privacy", 99, slow)));
    expect(renders).toBe(1);
    expect(await Promise.all(answers.map((a) => a.text()))).toEqual(Array.from({ length: 20 }, () => "<html>burst</html>"));
  });
});
