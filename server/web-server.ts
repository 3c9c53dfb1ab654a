// The one public port: /api/** and /_/** stream through to PocketBase unbuffered
// (realtime SSE included); everything else goes to Astro's handler (static assets, pages).
import http, { type IncomingMessage, type ServerResponse } from "node:http";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { sendUpstream } from "./compression.ts";
import { frontDoor } from "./front-door.ts";
import { ROOT } from "./pocketbase-process.ts";

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

export interface WebServerOptions {
  port: number;
  host?: string;
  pocketbaseUrl: string;
  /** Set when a trusted reverse proxy in front of us appends X-Forwarded-For. */
  trustForwardedFor?: boolean;
  /** Serve the PocketBase dashboard (/_/) and superuser sign-in to non-loopback clients too. */
  exposeDashboard?: boolean;
}

const SECURITY_HEADERS: Record<string, string> = {
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "strict-origin-when-cross-origin",
  "X-Frame-Options": "DENY",
  "Permissions-Policy": "camera=(), microphone=(), geolocation=()",
};

// Hop-by-hop headers must not be forwarded (RFC 9110 7.6.1).
const HOP_BY_HOP = new Set([
  "connection",
  "keep-alive",
  "proxy-authenticate",
  "proxy-authorization",
  "te",
  "trailer",
  "transfer-encoding",
  "upgrade",
]);

function isPocketBasePath(url: string): boolean {
  return url.startsWith("/api/") || url === "/api" || url.startsWith("/_/") || url === "/_";
}

function clientIp(req: IncomingMessage, trustForwardedFor: boolean): string {
  const socketIp = req.socket.remoteAddress ?? "";
  if (!trustForwardedFor) return socketIp;
  const forwarded = req.headers["x-forwarded-for"];
  // The right-most value is the one our trusted proxy appended; the rest is client-supplied.
  const last = (Array.isArray(forwarded) ? forwarded.join(",") : (forwarded ?? "")).split(",").pop()?.trim();
  return last || socketIp;
}

/** Real client IPs only: the PocketBase dashboard and superuser sign-in stay on this host. */
function isLoopback(ip: string): boolean {
  return ip === "::1" || ip.startsWith("127.") || ip.startsWith("::ffff:127.");
}

// PocketBase resolves a collection by name or id (percent-decoded); pbc_3142635823 is the
// fixed id of _superusers.
const SUPERUSER_COLLECTION = /^\/api\/collections\/(?:_superusers|pbc_3142635823)(?:\/|$)/;

export function isSuperuserPath(url: string): boolean {
  let path = url.split("?")[0] ?? "";
  try {
    path = decodeURIComponent(path);
  } catch {
    return true; // malformed escapes: nothing legitimate looks like this
  }
  path = path.toLowerCase();
  return path === "/_" || path.startsWith("/_/") || SUPERUSER_COLLECTION.test(path);
}

function proxyToPocketBase(target: URL, trustForwardedFor: boolean): Handler {
  return (req, res) => {
    const headers: http.OutgoingHttpHeaders = {};
    for (const [name, value] of Object.entries(req.headers)) {
      if (!HOP_BY_HOP.has(name) && name !== "host" && value !== undefined) headers[name] = value;
    }
    // PocketBase trusts this header (settings.trustedProxy) and listens on loopback only,
    // so its rate limiter and logs see the real client.
    headers["x-forwarded-for"] = clientIp(req, trustForwardedFor);
    headers["x-forwarded-proto"] = trustForwardedFor ? (req.headers["x-forwarded-proto"] ?? "http") : "http";
    headers["host"] = target.host;

    // Re-frame the body explicitly. A chunked body is sent on chunked; a request with no
    // length and no chunking has no body. Piping unframed bytes would let a client smuggle
    // a second request onto the shared upstream connection.
    const chunked = req.headers["transfer-encoding"] !== undefined;
    if (chunked) {
      delete headers["content-length"];
      headers["transfer-encoding"] = "chunked";
    }
    const hasBody = chunked || Number(req.headers["content-length"] ?? 0) > 0;

    const upstream = http.request(
      { hostname: target.hostname, port: target.port, method: req.method, path: req.url, headers },
      (upstreamRes) => {
        const outHeaders: http.OutgoingHttpHeaders = {};
        for (const [name, value] of Object.entries(upstreamRes.headers)) {
          if (!HOP_BY_HOP.has(name) && value !== undefined) outHeaders[name] = value;
        }
        sendUpstream(req, res, upstreamRes.statusCode ?? 502, outHeaders, upstreamRes);
      },
    );
    upstream.on("error", () => {
      if (!res.headersSent) {
        res.writeHead(502, { "content-type": "application/json" });
        res.end(JSON.stringify({ status: 502, message: "The backend is unavailable. Please try again shortly.", data: {} }));
      } else {
        res.destroy();
      }
    });
    req.on("aborted", () => upstream.destroy());
    res.on("close", () => upstream.destroy());
    if (hasBody) {
      req.pipe(upstream);
    } else {
      req.resume();
      upstream.end();
    }
  };
}

async function loadAstroHandler(): Promise<Handler> {
  process.env["ASTRO_NODE_AUTOSTART"] = "disabled";
  const entry = pathToFileURL(path.join(ROOT, "dist", "server", "entry.mjs")).href;
  const mod = (await import(entry)) as { handler: Handler };
  return mod.handler;
}

export interface WebServer {
  url: string;
  server: http.Server;
  stop(): Promise<void>;
}

export async function startWebServer(options: WebServerOptions): Promise<WebServer> {
  process.env["POCKETBASE_URL"] = options.pocketbaseUrl;
  // Cached public pages and build files first, then Astro's handler (server/front-door.ts).
  const site = frontDoor(await loadAstroHandler(), path.join(ROOT, "dist", "client"));
  const trust = options.trustForwardedFor ?? false;
  const toPocketBase = proxyToPocketBase(new URL(options.pocketbaseUrl), trust);
  const server = http.createServer((req, res) => {
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) res.setHeader(name, value);
    const url = req.url ?? "/";
    if (isSuperuserPath(url) && !options.exposeDashboard && !isLoopback(clientIp(req, trust))) {
      res.writeHead(404, { "content-type": "text/plain" }).end("Not found");
    } else if (isPocketBasePath(url)) {
      toPocketBase(req, res);
    } else {
      // Astro (and the session check it forwards to PocketBase) sees the client as we
      // resolved it, never what the client claims about itself.
      req.headers["x-forwarded-for"] = clientIp(req, trust);
      if (!trust) {
        delete req.headers["x-forwarded-host"];
        delete req.headers["x-forwarded-proto"];
        delete req.headers["x-forwarded-port"];
      }
      site(req, res);
    }
  });
  // Realtime streams stay open up to PocketBase's own 5-minute idle cut; never time them out here.
  server.requestTimeout = 0;
  server.keepAliveTimeout = 65_000;

  const host = options.host ?? "127.0.0.1";
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, host, () => resolve());
  });
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : options.port;

  return {
    url: `http://${host === "0.0.0.0" ? "localhost" : host}:${port}`,
    server,
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
