// The one public port: /api/** and /_/** stream through to PocketBase unbuffered
// (realtime SSE included); everything else goes to Astro's handler (static assets, pages).
import http, { type IncomingMessage, type ServerResponse } from "node:http";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { ROOT } from "./pocketbase-process.ts";

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

export interface WebServerOptions {
  port: number;
  host?: string;
  pocketbaseUrl: string;
  /** Set when a trusted reverse proxy in front of us appends X-Forwarded-For. */
  trustForwardedFor?: boolean;
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
  const first = (Array.isArray(forwarded) ? forwarded.join(",") : (forwarded ?? "")).split(",").pop()?.trim();
  return first || socketIp;
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
    headers["x-forwarded-proto"] = "http";
    headers["host"] = target.host;

    const upstream = http.request(
      { hostname: target.hostname, port: target.port, method: req.method, path: req.url, headers },
      (upstreamRes) => {
        const outHeaders: http.OutgoingHttpHeaders = {};
        for (const [name, value] of Object.entries(upstreamRes.headers)) {
          if (!HOP_BY_HOP.has(name) && value !== undefined) outHeaders[name] = value;
        }
        res.writeHead(upstreamRes.statusCode ?? 502, outHeaders);
        res.flushHeaders();
        upstreamRes.pipe(res);
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
    req.pipe(upstream);
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
  const astro = await loadAstroHandler();
  const toPocketBase = proxyToPocketBase(new URL(options.pocketbaseUrl), options.trustForwardedFor ?? false);

  const server = http.createServer((req, res) => {
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) res.setHeader(name, value);
    if (isPocketBasePath(req.url ?? "/")) toPocketBase(req, res);
    else astro(req, res);
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
