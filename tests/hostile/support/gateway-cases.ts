// The hostile gateway suite's tables (gateway.test.ts): malformed SOCKS5 handshakes and
// malformed HTTP proxy requests with the exact answer each must get, and what a refusal may
// look like when the request is random.
import fc from "fast-check";
import { basic, bytes, httpBody, httpStatus, socksAuth, socksReply, socksRequest, SOCKS_GREETING, type RawResult } from "./gateway-kit.ts";

interface Creds {
  username: string;
  password: string;
}

/** What the tables are built from: the live proxies' credentials and the counting target's port. */
export interface Controls {
  dc: Creds;
  httpsOnly: Creds;
  targetPort: number;
}

/** A plain GET of the target, as sent inside a tunnel. */
export const get = (port: number): string => `GET / HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`;

/** [name, what is sent (half-closed after it), the exact answer before the gateway closes]. */
export function socksCases(c: Controls): [string, Buffer[], Buffer][] {
  const auth = socksAuth(c.dc.username, c.dc.password);
  const authed = (...request: Buffer[]) => [SOCKS_GREETING, auth, ...request];
  const okAuth = bytes(5, 2, 1, 0);
  const withReply = (code: number) => Buffer.concat([okAuth, socksReply(code)]);
  const p = c.targetPort;
  return [
    ["version 4 (a SOCKS4 CONNECT)", [bytes(4, 1, p >> 8, p & 0xff, 127, 0, 0, 1, 0)], bytes()],
    ["version 0", [bytes(0, 1, 2)], bytes()],
    ["an HTTP request", [Buffer.from(get(c.targetPort))], bytes()],
    ["an empty method list", [bytes(5, 0)], bytes(5, 0xff)],
    ["only 'no authentication'", [bytes(5, 1, 0)], bytes(5, 0xff)],
    ["255 methods, none of them username/password", [Buffer.concat([bytes(5, 255), Buffer.alloc(255, 0)])], bytes(5, 0xff)],
    ["a method list shorter than its count", [bytes(5, 200, 2, 0)], bytes()],
    ["a greeting of one byte", [bytes(5)], bytes()],
    ["RFC 1929 version 0", [SOCKS_GREETING, Buffer.concat([bytes(0), auth.subarray(1)])], bytes(5, 2)],
    ["RFC 1929 version 5", [SOCKS_GREETING, Buffer.concat([bytes(5), auth.subarray(1)])], bytes(5, 2)],
    ["an RFC 1929 frame of one byte", [SOCKS_GREETING, bytes(1)], bytes(5, 2)],
    ["ULEN 255 with 3 bytes of name", [SOCKS_GREETING, Buffer.concat([bytes(1, 255), Buffer.from("abc")])], bytes(5, 2)],
    [
      "PLEN 255 with 1 byte of password",
      [SOCKS_GREETING, Buffer.concat([auth.subarray(0, 2 + Buffer.byteLength(c.dc.username)), bytes(255), Buffer.from("x")])],
      bytes(5, 2),
    ],
    ["no PLEN at all", [SOCKS_GREETING, auth.subarray(0, 2 + Buffer.byteLength(c.dc.username))], bytes(5, 2)],
    ["empty name and password", [SOCKS_GREETING, bytes(1, 0, 0)], bytes(5, 2, 1, 1)],
    ["255-byte name and password of junk", [SOCKS_GREETING, socksAuth("\u0001".repeat(255), "\u00ff".repeat(85))], bytes(5, 2, 1, 1)],
    ["the right name with a wrong password", [SOCKS_GREETING, socksAuth(c.dc.username, `${c.dc.password}x`)], bytes(5, 2, 1, 1)],
    ["an HTTPS proxy's credentials", [SOCKS_GREETING, socksAuth(c.httpsOnly.username, c.httpsOnly.password)], bytes(5, 2, 1, 1)],
    ["address type 0", authed(bytes(5, 1, 0, 0, 127, 0, 0, 1, p >> 8, p & 0xff)), withReply(8)],
    ["address type 2", authed(bytes(5, 1, 0, 2, 127, 0, 0, 1, p >> 8, p & 0xff)), withReply(8)],
    ["address type 255", authed(bytes(5, 1, 0, 255, 127, 0, 0, 1, p >> 8, p & 0xff)), withReply(8)],
    ["BIND", authed(socksRequest(2, p)), withReply(7)],
    ["UDP ASSOCIATE with a truncated address", authed(bytes(5, 3, 0, 1, 127, 0)), withReply(1)],
    ["command 0", authed(socksRequest(0, p)), withReply(7)],
    ["command 255", authed(socksRequest(255, p)), withReply(7)],
    ["BIND to a host name", authed(Buffer.concat([bytes(5, 2, 0, 3, 9), Buffer.from("localhost"), bytes(p >> 8, p & 0xff)])), withReply(7)],
    ["port 0", authed(socksRequest(1, 0)), withReply(1)],
    ["port 0 of a host name", authed(Buffer.concat([bytes(5, 1, 0, 3, 9), Buffer.from("localhost"), bytes(0, 0)])), withReply(1)],
    ["a request of version 4", authed(Buffer.concat([bytes(4), socksRequest(1, p).subarray(1)])), withReply(1)],
    ["a host name of length 0", authed(bytes(5, 1, 0, 3, 0, p >> 8, p & 0xff)), withReply(1)],
    ["a host name shorter than its length", authed(Buffer.concat([bytes(5, 1, 0, 3, 255), Buffer.from("localhost")])), withReply(1)],
    ["an IPv6 address of 3 bytes", authed(bytes(5, 1, 0, 4, 0, 0, 0)), withReply(1)],
    ["an IPv4 address without a port", authed(bytes(5, 1, 0, 1, 127, 0, 0, 1)), withReply(1)],
    ["a request of two bytes", authed(bytes(5, 1)), withReply(1)],
    ["no request at all", authed(), withReply(1)],
  ];
}

/** [name, the request (half-closed after it), the status, a text the answer's body holds]. */
export function httpCases(c: Controls): [string, Buffer, number, string][] {
  const p = c.targetPort;
  const auth = `Proxy-Authorization: ${basic(c.dc.username, c.dc.password)}\r\n`;
  const req = (line: string, headers = auth, body = "") => Buffer.from(`${line}\r\n${headers}\r\n${body}`);
  const malformed = "Malformed proxy request.";
  const refusedAuth = "Proxy authentication required";
  const connectPort = "CONNECT needs host:port.";
  return [
    ["binary garbage ending in a blank line", Buffer.concat([bytes(0, 1, 2, 0xff, 0xfe), Buffer.from("\r\n\r\n")]), 400, malformed],
    ["a request line of one word", req("GARBAGE"), 400, malformed],
    ["a request line without a version", req(`GET http://127.0.0.1:${p}/`), 400, malformed],
    ["a header line without a colon", req(`GET http://127.0.0.1:${p}/ HTTP/1.1`, `${auth}no colon here\r\n`), 400, malformed],
    ["a NUL in a header value", req(`GET http://127.0.0.1:${p}/ HTTP/1.1`, `${auth}X-Nul: a\u0000b\r\n`), 400, malformed],
    ["absolute-form https", req(`GET https://127.0.0.1:${p}/ HTTP/1.1`), 400, "Use CONNECT for https URLs."],
    ["absolute-form ftp", req(`GET ftp://127.0.0.1:${p}/ HTTP/1.1`), 400, "Use CONNECT for ftp URLs."],
    ["origin-form (not a proxy request)", req("GET / HTTP/1.1"), 400, "send an absolute URL"],
    ["asterisk-form", req("OPTIONS * HTTP/1.1"), 400, "send an absolute URL"],
    ["an absolute URL with port 0", req(`GET http://127.0.0.1:0/ HTTP/1.1`), 400, "Invalid port in the URL."],
    ["an absolute URL with port 99999", req(`GET http://127.0.0.1:99999/ HTTP/1.1`), 400, "Invalid port in the URL."],
    ["CONNECT without a port", req("CONNECT 127.0.0.1 HTTP/1.1"), 400, connectPort],
    ["CONNECT with an empty port", req("CONNECT 127.0.0.1: HTTP/1.1"), 400, connectPort],
    ["CONNECT to port 0", req("CONNECT 127.0.0.1:0 HTTP/1.1"), 400, connectPort],
    ["CONNECT to port 65536", req("CONNECT 127.0.0.1:65536 HTTP/1.1"), 400, connectPort],
    ["CONNECT without a host", req(`CONNECT :${p} HTTP/1.1`), 400, connectPort],
    ["CONNECT to a URL", req(`CONNECT http://127.0.0.1:${p}/ HTTP/1.1`), 400, connectPort],
    [
      "a 40 KB header",
      req(`GET http://127.0.0.1:${p}/ HTTP/1.1`, `${auth}X-Big: ${"a".repeat(40 * 1024)}\r\n`),
      431,
      "Request header too large.",
    ],
    ["a 40 KB request line", req(`GET http://127.0.0.1:${p}/${"a".repeat(40 * 1024)} HTTP/1.1`), 431, "Request header too large."],
    [
      "3,000 headers (over 32 KB)",
      req(`GET http://127.0.0.1:${p}/ HTTP/1.1`, `${auth}${"X-Many: 0123456789\r\n".repeat(3000)}`),
      431,
      "Request header too large.",
    ],
    [
      "1,000 headers (under 32 KB) and no credentials",
      req(`GET http://127.0.0.1:${p}/ HTTP/1.1`, "X-Many: 0\r\n".repeat(1000)),
      407,
      refusedAuth,
    ],
    [
      "1,000 headers and CONNECT without a port",
      req("CONNECT 127.0.0.1 HTTP/1.1", `${auth}${"X-Many: 0\r\n".repeat(1000)}`),
      400,
      connectPort,
    ],
    ["no credentials", req(`CONNECT 127.0.0.1:${p} HTTP/1.1`, ""), 407, refusedAuth],
    [
      "credentials that are not base64",
      req(`CONNECT 127.0.0.1:${p} HTTP/1.1`, "Proxy-Authorization: Basic %%%not*base64%%%\r\n"),
      407,
      refusedAuth,
    ],
    [
      "base64 without a colon",
      req(`CONNECT 127.0.0.1:${p} HTTP/1.1`, `Proxy-Authorization: Basic ${Buffer.from(c.dc.username).toString("base64")}\r\n`),
      407,
      refusedAuth,
    ],
    [
      "the right name with a wrong password",
      req(`CONNECT 127.0.0.1:${p} HTTP/1.1`, `Proxy-Authorization: ${basic(c.dc.username, `${c.dc.password}x`)}\r\n`),
      407,
      refusedAuth,
    ],
    [
      "Bearer instead of Basic",
      req(
        `CONNECT 127.0.0.1:${p} HTTP/1.1`,
        `Proxy-Authorization: Bearer ${Buffer.from(`${c.dc.username}:${c.dc.password}`).toString("base64")}\r\n`,
      ),
      407,
      refusedAuth,
    ],
    [
      "credentials in Authorization, not Proxy-Authorization",
      req(`CONNECT 127.0.0.1:${p} HTTP/1.1`, auth.replace("Proxy-", "")),
      407,
      refusedAuth,
    ],
    [
      "a Content-Length that is not a number",
      req(`POST http://127.0.0.1:${p}/ HTTP/1.1`, `${auth}Content-Length: ten\r\n`, "0123456789"),
      400,
      malformed,
    ],
    ["a negative Content-Length", req(`POST http://127.0.0.1:${p}/ HTTP/1.1`, `${auth}Content-Length: -5\r\n`, "01234"), 400, malformed],
    [
      "two different Content-Lengths",
      req(`POST http://127.0.0.1:${p}/ HTTP/1.1`, `${auth}Content-Length: 5\r\nContent-Length: 500\r\n`, "01234"),
      400,
      malformed,
    ],
    [
      "a Content-Length of 20 digits",
      req(`POST http://127.0.0.1:${p}/ HTTP/1.1`, `${auth}Content-Length: 99999999999999999999\r\n`, "01234"),
      400,
      malformed,
    ],
    [
      "an unknown Transfer-Encoding",
      req(`POST http://127.0.0.1:${p}/ HTTP/1.1`, `${auth}Transfer-Encoding: gzip, x-unknown\r\n`, "01234"),
      400,
      malformed,
    ],
    [
      "a 1 GB Content-Length with 5 bytes and no credentials",
      req(`POST http://127.0.0.1:${p}/ HTTP/1.1`, "Content-Length: 1000000000\r\n", "01234"),
      407,
      refusedAuth,
    ],
    [
      "a 1 GB Content-Length on absolute-form https",
      req(`POST https://127.0.0.1:${p}/ HTTP/1.1`, `${auth}Content-Length: 1000000000\r\n`, "01234"),
      400,
      "Use CONNECT for https URLs.",
    ],
  ];
}

/**
 * Problems with a SOCKS5 answer to a request that must fail: the gateway may close at any
 * step, but only after one of its own refusals (no acceptable method; authentication
 * failed; a failure reply), never with a "succeeded" reply to the request.
 */
export function socksProblems(res: RawResult): string[] {
  const d = res.data;
  const problems: string[] = [];
  if (!res.closed) problems.push("left open");
  const ok =
    d.length === 0 ||
    d.equals(bytes(5, 0xff)) ||
    d.equals(bytes(5, 2)) ||
    d.equals(bytes(5, 2, 1, 1)) ||
    d.equals(bytes(5, 2, 1, 0)) ||
    (d.length === 14 && d.subarray(0, 4).equals(bytes(5, 2, 1, 0)) && d.subarray(4).equals(socksReply(d[5]!)) && d[5] !== 0);
  if (!ok) problems.push(`answered ${d.toString("hex")}`);
  return problems;
}

/** Problems with an HTTP answer to a request that must fail: a 4xx with a text, or a close without a word. */
export function httpProblems(res: RawResult): string[] {
  const problems: string[] = [];
  if (!res.closed) problems.push("left open");
  if (res.data.length === 0) return problems;
  const status = httpStatus(res.data);
  if (status < 400 || status > 499) problems.push(`answered ${JSON.stringify(res.data.toString("latin1").slice(0, 120))}`);
  else if (httpBody(res.data).trim().length < 5) problems.push(`a ${status} without a readable text`);
  return problems;
}

/** Random inputs for both ports: junk bytes, junk after a valid greeting or authentication (never a CONNECT), junk heads. */
export function randomInputs(c: Controls): fc.Arbitrary<{ port: "http" | "socks"; prefix: Buffer; body: Buffer }> {
  const p = () => c.targetPort;
  const junk = fc.uint8Array({ maxLength: 2048 }).map((a) => Buffer.from(a));
  const anyHead = fc.stringMatching(/^[\x20-\x7e\r\n:]{0,300}$/).map((s) => Buffer.from(s));
  const notConnect = junk.filter((b) => !(b[0] === 5 && b[1] === 1));
  return fc.oneof(
    fc.record({ port: fc.constant("http" as const), prefix: fc.constant(Buffer.alloc(0)), body: junk }),
    fc.record({ port: fc.constant("socks" as const), prefix: fc.constant(Buffer.alloc(0)), body: junk }),
    // After a valid greeting: junk where the RFC 1929 frame goes.
    fc.record({ port: fc.constant("socks" as const), prefix: fc.constant(SOCKS_GREETING), body: junk }),
    // After a live proxy's authentication: junk where the request goes (never a CONNECT,
    // which could name any address on the Internet).
    fc.record({
      port: fc.constant("socks" as const),
      prefix: fc.constant(Buffer.concat([SOCKS_GREETING, socksAuth(c.dc.username, c.dc.password)])),
      body: notConnect,
    }),
    // A live proxy's credentials on requests no proxy serves, with junk header lines.
    fc.record({
      port: fc.constant("http" as const),
      prefix: fc
        .constantFrom(
          "CONNECT 127.0.0.1 HTTP/1.1",
          `GET https://127.0.0.1:${p()}/ HTTP/1.1`,
          "GET / HTTP/1.1",
          `CONNECT 127.0.0.1:0 HTTP/1.1`,
        )
        .map((line) => Buffer.from(`${line}\r\nProxy-Authorization: ${basic(c.dc.username, c.dc.password)}\r\n`)),
      body: fc.oneof(junk, anyHead).map((b) => Buffer.concat([b, Buffer.from("\r\n\r\n")])),
    }),
    // Printable request lines and headers without credentials.
    fc.record({ port: fc.constant("http" as const), prefix: fc.constant(Buffer.alloc(0)), body: anyHead }),
  );
}
