// The reverse proxy to PocketBase: /api/** and /_/** streamed through unbuffered (realtime
// SSE included), with hop-by-hop headers dropped in both directions and the client's
// address passed on as we resolved it, never as the client claimed it.
import http, { type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from "node:http";
import { FORWARDING_SECRET_HEADER } from "../src/lib/server/config.ts";
import type { ClientAddress } from "./client-address.ts";
import { sendUpstream } from "./compression.ts";

/** Hop-by-hop headers (RFC 9110 7.6.1), plus the non-standard Proxy-Connection. */
const HOP_BY_HOP = new Set([
  "connection",
  "keep-alive",
  "proxy-connection",
  "proxy-authenticate",
  "proxy-authorization",
  "te",
  "trailer",
  "transfer-encoding",
  "upgrade",
]);

/**
 * The end-to-end headers of a message: without the hop-by-hop ones and without every header
 * the Connection header names (RFC 9110 7.6.1: "Connection: close, X-Secret" makes
 * X-Secret a hop-by-hop header that a proxy must not forward).
 */
export function endToEndHeaders(headers: IncomingHttpHeaders): http.OutgoingHttpHeaders {
  const connection = headers["connection"];
  const named = new Set(
    (Array.isArray(connection) ? connection.join(",") : (connection ?? ""))
      .split(",")
      .map((token) => token.trim().toLowerCase())
      .filter(Boolean),
  );
  const out: http.OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined && !HOP_BY_HOP.has(name) && !named.has(name)) out[name] = value;
  }
  return out;
}

/** Headers through which a client could claim another address or scheme (or vouch for one); we set our own. */
const CLIENT_CLAIMS = [
  "forwarded",
  "x-forwarded-for",
  "x-forwarded-proto",
  "x-forwarded-host",
  "x-forwarded-port",
  "x-real-ip",
  FORWARDING_SECRET_HEADER.toLowerCase(),
];

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

const UNAVAILABLE = "The backend is unavailable. Please try again shortly.";

/**
 * The 502 when PocketBase cannot be reached: on /api/v1 the RFC 9457 problem details every
 * answer there is (the contract's Problem), elsewhere PocketBase's own error shape.
 */
export function backendUnavailable(url: string | undefined): { contentType: string; body: string } {
  const path = (url ?? "").split("?")[0] ?? "";
  if (path.startsWith("/api/v1/")) {
    const problem = { type: "about:blank", title: "Bad Gateway", status: 502, detail: UNAVAILABLE, message: UNAVAILABLE };
    return { contentType: "application/problem+json", body: JSON.stringify(problem) };
  }
  return { contentType: "application/json", body: JSON.stringify({ status: 502, message: UNAVAILABLE, data: {} }) };
}

/**
 * `forwardingSecret` is the one PocketBase was started with (PocketBaseProcess): PocketBase
 * believes our X-Forwarded-For only beside it (pocketbase/forwarded.go), so its rate limiter,
 * the API keys' allowlists and its logs see the real client. Without it PocketBase sees us.
 */
export function proxyToPocketBase(target: URL, clientOf: (req: IncomingMessage) => ClientAddress, forwardingSecret?: string): Handler {
  return (req, res) => {
    const client = clientOf(req);
    const headers = endToEndHeaders(req.headers);
    for (const name of CLIENT_CLAIMS) delete headers[name];
    headers["x-forwarded-for"] = client.ip;
    headers["x-forwarded-proto"] = client.secure ? "https" : "http";
    if (forwardingSecret) headers[FORWARDING_SECRET_HEADER.toLowerCase()] = forwardingSecret;
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
        const out = endToEndHeaders(upstreamRes.headers);
        // Our security headers (already set on `res`) win over PocketBase's
        // (X-Frame-Options: SAMEORIGIN becomes DENY), except a Content-Security-Policy of its
        // own: the dashboard's and the file server's are made for what they serve.
        for (const name of res.getHeaderNames()) {
          if (name !== "content-security-policy") delete out[name];
        }
        sendUpstream(req, res, upstreamRes.statusCode ?? 502, out, upstreamRes);
      },
    );
    upstream.on("error", () => {
      if (!res.headersSent) {
        const { contentType, body } = backendUnavailable(req.url);
        res.writeHead(502, { "content-type": contentType });
        res.end(body);
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
