// The pieces of the server-set session cookie and of the web server's view of the client:
// cookie parsing (bare token, and the SDK's JSON from before the cookie was HttpOnly),
// cookie flags, the CSRF origin check, and which peers may speak for the client.
import type { IncomingMessage } from "node:http";
import { describe, expect, it } from "vitest";
import { clearedSessionCookie, isSameOriginRequest, sessionCookie, sessionToken } from "@/lib/server/auth";
import { resolveClient, trustedPeers } from "../../server/client-address.ts";
import { endToEndHeaders } from "../../server/proxy.ts";

const jwt = (exp: number) => `eyJhbGciOiJIUzI1NiJ9.${Buffer.from(JSON.stringify({ exp, type: "auth" })).toString("base64url")}.c2ln`;
const inAnHour = Math.floor(Date.now() / 1000) + 3600;

describe("sessionToken", () => {
  it("reads the bare token the server writes", () => {
    const token = jwt(inAnHour);
    expect(sessionToken(`a=1; pb_auth=${token}; b=2`)).toBe(token);
  });
  it("still reads a cookie written by the SDK before the cookie was HttpOnly", () => {
    const token = jwt(inAnHour);
    const legacy = encodeURIComponent(JSON.stringify({ token, record: { id: "u1", collectionName: "users" } }));
    expect(sessionToken(`pb_auth=${legacy}`)).toBe(token);
  });
  it("ignores expired, malformed and look-alike cookies", () => {
    expect(sessionToken(`pb_auth=${jwt(inAnHour - 7200)}`)).toBe("");
    expect(sessionToken("pb_auth=forged")).toBe("");
    expect(sessionToken("pb_auth=%7Bbroken")).toBe("");
    expect(sessionToken(`xpb_auth=${jwt(inAnHour)}`)).toBe("");
    expect(sessionToken("")).toBe("");
  });
});

describe("session cookie flags", () => {
  it("is HttpOnly, SameSite=Lax, lives as long as the token, and is Secure only behind TLS", () => {
    const token = jwt(inAnHour);
    const cookie = sessionCookie(token, false);
    expect(cookie).toMatch(new RegExp(`^pb_auth=${token.replace(/\./g, "\\.")}; Max-Age=(3599|3600); Path=/; HttpOnly; SameSite=Lax$`));
    expect(sessionCookie(token, true)).toMatch(/; HttpOnly; SameSite=Lax; Secure$/);
    expect(sessionCookie(jwt(inAnHour - 7200), false)).toContain("Max-Age=0;");
    expect(clearedSessionCookie(true)).toBe("pb_auth=; Max-Age=0; Path=/; HttpOnly; SameSite=Lax; Secure");
  });
});

describe("isSameOriginRequest", () => {
  const request = (headers: Record<string, string>) => new Request("http://localhost/auth/session", { method: "POST", headers });
  it("believes the browser's Sec-Fetch-Site first", () => {
    expect(isSameOriginRequest(request({ "sec-fetch-site": "same-origin" }))).toBe(true);
    for (const site of ["same-site", "cross-site", "none"]) {
      expect(isSameOriginRequest(request({ "sec-fetch-site": site, origin: "http://shop.example", host: "shop.example" }))).toBe(false);
    }
  });
  it("else wants an Origin naming this host (or the one a trusted proxy forwarded)", () => {
    expect(isSameOriginRequest(request({ origin: "https://shop.example", host: "shop.example" }))).toBe(true);
    expect(
      isSameOriginRequest(request({ origin: "https://shop.example", host: "127.0.0.1:4321", "x-forwarded-host": "shop.example" })),
    ).toBe(true);
    expect(isSameOriginRequest(request({ origin: "https://evil.example", host: "shop.example" }))).toBe(false);
    expect(isSameOriginRequest(request({ origin: "https://shop.example.evil.example", host: "shop.example" }))).toBe(false);
    expect(isSameOriginRequest(request({ origin: "null", host: "shop.example" }))).toBe(false);
    expect(isSameOriginRequest(request({ host: "shop.example" }))).toBe(false);
  });
});

describe("client address", () => {
  const req = (remoteAddress: string, headers: Record<string, string> = {}) =>
    ({ socket: { remoteAddress }, headers }) as unknown as IncomingMessage;

  it("ignores forwarded headers unless the peer is a trusted proxy", () => {
    const none = trustedPeers(false);
    expect(resolveClient(req("127.0.0.1", { "x-forwarded-for": "1.2.3.4", "x-forwarded-proto": "https" }), none)).toEqual({
      ip: "127.0.0.1",
      peer: "127.0.0.1",
      secure: false,
    });
  });

  it("with trust on, believes proxies on loopback and private networks, never a public peer", () => {
    const trust = trustedPeers(true);
    for (const peer of ["127.0.0.1", "::1", "::ffff:127.0.0.1", "10.1.2.3", "172.20.0.5", "192.168.1.9", "fd00::5"])
      expect(trust(peer), peer).toBe(true);
    for (const peer of ["8.8.8.8", "192.0.2.2", "2001:db8::1", "::ffff:8.8.8.8", ""]) expect(trust(peer), peer).toBe(false);
    // The right-most X-Forwarded-For value is the proxy's; what the client wrote left of it is ignored.
    expect(resolveClient(req("127.0.0.1", { "x-forwarded-for": "127.0.0.1, 203.0.113.7", "x-forwarded-proto": "https" }), trust)).toEqual({
      ip: "203.0.113.7",
      peer: "127.0.0.1",
      secure: true,
    });
    expect(resolveClient(req("8.8.8.8", { "x-forwarded-for": "127.0.0.1" }), trust).ip).toBe("8.8.8.8");
    expect(resolveClient(req("127.0.0.1", { "x-forwarded-for": "not-an-ip" }), trust).ip).toBe("127.0.0.1");
  });

  it("with a list, believes exactly those proxies (and loopback)", () => {
    const trust = trustedPeers(["203.0.113.0/24", "2001:db8::1"]);
    expect(["203.0.113.9", "2001:db8::1", "127.0.0.1"].every(trust)).toBe(true);
    expect(["10.0.0.1", "203.0.114.1"].some(trust)).toBe(false);
  });
});

describe("endToEndHeaders", () => {
  it("drops hop-by-hop headers and every header named in Connection", () => {
    expect(
      endToEndHeaders({
        connection: "keep-alive, X-Secret,  x-other ",
        "keep-alive": "timeout=5",
        "x-secret": "1",
        "x-other": "2",
        "proxy-connection": "keep-alive",
        te: "trailers",
        upgrade: "websocket",
        "x-kept": "3",
        "content-type": "application/json",
      }),
    ).toEqual({ "x-kept": "3", "content-type": "application/json" });
  });
});
