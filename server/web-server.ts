// The one public port: /api/** and /_/** stream through to PocketBase unbuffered
// (realtime SSE included); everything else goes to Astro's handler (static assets, pages).
import http, { type IncomingMessage, type ServerResponse } from "node:http";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { canonicalRedirect } from "./canonical-host.ts";
import { isLoopback, resolveClient, trustedPeers, type TrustedProxies } from "./client-address.ts";
import { frontDoor } from "./front-door.ts";
import { ROOT } from "./pocketbase-process.ts";
import { proxyToPocketBase } from "./proxy.ts";
import { kindOf, setSecurityHeaders } from "./security-headers.ts";
import { FORWARDING_SECRET_ENV, FORWARDING_SECRET_HEADER } from "../src/lib/server/config.ts";

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

export interface WebServerOptions {
  port: number;
  host?: string;
  pocketbaseUrl: string;
  /**
   * The secret PocketBase was started with (PocketBaseProcess.forwardingSecret): sent beside
   * every X-Forwarded-For we give it, by the proxy and by the pages' own reads, so PocketBase
   * believes the client address we resolved and nobody else's (pocketbase/forwarded.go).
   * Without it PocketBase counts every visitor as this server.
   */
  forwardingSecret?: string | undefined;
  /**
   * Set when a reverse proxy in front of us appends X-Forwarded-For (and says
   * X-Forwarded-Proto): `true` believes such a proxy on this machine or in a private
   * network, a list believes exactly those addresses/CIDRs (client-address.ts).
   */
  trustForwardedFor?: TrustedProxies;
  /** Serve the PocketBase dashboard (/_/) and superuser sign-in to non-loopback clients too. */
  exposeDashboard?: boolean;
  /**
   * The shop's public address (APP_URL, the one its mails link to). When it names this
   * machine (localhost), page requests through another loopback name (127.0.0.1) are
   * redirected to it, so sessions live on one origin (canonical-host.ts).
   */
  canonicalUrl?: string | undefined;
  /** Slow-request protection (see SLOW_REQUEST_LIMITS); tests shorten them. */
  limits?: Partial<SlowRequestLimits>;
}

export interface SlowRequestLimits {
  /** A client must have sent the whole request head (line and headers) within this. */
  headersTimeoutMs: number;
  /** ... and the whole request, body included (a 5 MB chat attachment at 45 KB/s fits). */
  requestTimeoutMs: number;
  /** An idle keep-alive connection is closed after this (above common proxies' 60 s). */
  keepAliveTimeoutMs: number;
  /** How often Node looks for connections past those limits. */
  checkIntervalMs: number;
}

/**
 * Node's headersTimeout/requestTimeout bound RECEIVING a request: a client dribbling its
 * headers (slowloris) or its body is answered 408 and cut off. They do not bound the
 * response, so a realtime stream (a short GET answered by a long SSE response) stays open
 * as long as PocketBase keeps it (its own 5-minute idle cut).
 */
export const SLOW_REQUEST_LIMITS: SlowRequestLimits = {
  headersTimeoutMs: 20_000,
  requestTimeoutMs: 120_000,
  keepAliveTimeoutMs: 65_000,
  checkIntervalMs: 2_000,
};

function isPocketBasePath(url: string): boolean {
  return url.startsWith("/api/") || url === "/api" || url.startsWith("/_/") || url === "/_";
}

// PocketBase resolves a collection by name or id (percent-decoded); pbc_3142635823 is the
// fixed id of _superusers.
const SUPERUSER_COLLECTION = /^\/api\/collections\/(?:_superusers|pbc_3142635823)(?:\/|$)/;

export function isSuperuserPath(url: string): boolean {
  let path = url.split("?")[0] ?? "";
  try {
    path = decodeURIComponent(path);
    // Dot segments resolved as a server would ("/api/x/../collections/_superusers").
    path = new URL(path.replace(/\\/g, "/"), "http://x").pathname;
  } catch {
    return true; // malformed escapes: nothing legitimate looks like this
  }
  path = path.toLowerCase();
  return path === "/_" || path.startsWith("/_/") || SUPERUSER_COLLECTION.test(path);
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
  // For the pages' reads (src/lib/server/config.ts forwardedFor), as POCKETBASE_URL.
  if (options.forwardingSecret) process.env[FORWARDING_SECRET_ENV] = options.forwardingSecret;
  else delete process.env[FORWARDING_SECRET_ENV];
  // Cached public pages and build files first, then Astro's handler (server/front-door.ts).
  const site = frontDoor(await loadAstroHandler(), path.join(ROOT, "dist", "client"));
  const isTrustedPeer = trustedPeers(options.trustForwardedFor ?? false);
  const clientOf = (req: IncomingMessage) => resolveClient(req, isTrustedPeer);
  const toPocketBase = proxyToPocketBase(new URL(options.pocketbaseUrl), clientOf, options.forwardingSecret);
  const limits = { ...SLOW_REQUEST_LIMITS, ...options.limits };
  const canonical = options.canonicalUrl ? new URL(options.canonicalUrl) : null;
  const server = http.createServer(
    {
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      keepAliveTimeout: limits.keepAliveTimeoutMs,
      connectionsCheckingInterval: limits.checkIntervalMs,
    },
    (req, res) => {
      const url = req.url ?? "/";
      const client = clientOf(req);
      setSecurityHeaders(res, kindOf(url), client.secure);
      // The dashboard and superuser sign-in answer only a client on this machine that
      // reached us directly or through a proxy on this machine.
      const local = isLoopback(client.peer) && isLoopback(client.ip);
      const elsewhere = isPocketBasePath(url) ? null : canonicalRedirect(canonical, { method: req.method, url, host: req.headers.host });
      if (elsewhere) {
        res.writeHead(302, { location: elsewhere, "cache-control": "no-store" }).end();
      } else if (isSuperuserPath(url) && !options.exposeDashboard && !local) {
        res.writeHead(404, { "content-type": "text/plain" }).end("Not found");
      } else if (isPocketBasePath(url)) {
        toPocketBase(req, res);
      } else {
        // Astro (and the session check it forwards to PocketBase) sees the client as we
        // resolved it, never what the client claims about itself.
        req.headers["x-forwarded-for"] = client.ip;
        req.headers["x-forwarded-proto"] = client.secure ? "https" : "http";
        delete req.headers[FORWARDING_SECRET_HEADER.toLowerCase()];
        if (!isTrustedPeer(client.peer)) {
          delete req.headers["x-forwarded-host"];
          delete req.headers["x-forwarded-port"];
        }
        site(req, res);
      }
    },
  );

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
