// The web server's security headers on every kind of answer, HSTS and Secure cookies only
// behind TLS, and the session cookie endpoint's CSRF guard; run in web-server-hardening.test.ts.
import { describe, expect, it } from "vitest";
import { startWebServer } from "../../../server/web-server.ts";
import { customerSignIn, LIMITS, portOf, send, type Answer, type WebServers } from "./web-server-kit.ts";

export function securityHeaderCases(web: WebServers): void {
  describe("security headers", () => {
    const PAGE_DIRECTIVES = ["object-src 'none'", "base-uri 'self'", "frame-ancestors 'none'", "form-action 'self'", "connect-src 'self'"];

    function expectCommonHeaders(answer: Answer, what: string): void {
      expect(answer.headers["x-content-type-options"], what).toBe("nosniff");
      expect(answer.headers["x-frame-options"], what).toBe("DENY");
      expect(answer.headers["referrer-policy"], what).toBe("strict-origin-when-cross-origin");
      expect(answer.headers["permissions-policy"], what).toContain("camera=()");
      expect(answer.headers["content-security-policy"], what).toContain("frame-ancestors 'none'");
    }

    it("are on every kind of answer: pages, app redirects, 404s, static files, API answers and errors", async () => {
      const pages = [
        "/",
        "/pricing",
        "/login",
        "/signup",
        "/dashboard",
        "/console/users",
        "/no-such-page",
        "/_astro/no-such-file.js",
        "/auth/session",
      ];
      for (const path of pages) {
        const answer = await send("127.0.0.1", web.directPort(), { path });
        expectCommonHeaders(answer, path);
        const csp = String(answer.headers["content-security-policy"]);
        for (const directive of PAGE_DIRECTIVES) expect(csp, `${path}: ${directive}`).toContain(directive);
        expect(/script-src[^;]*'unsafe-inline'/.test(csp), `${path}: no unsafe-inline script`).toBe(false);
        expect(answer.headers["strict-transport-security"], path).toBeUndefined();
      }
      const favicon = await send("127.0.0.1", web.directPort(), { path: "/favicon.svg" });
      expect(favicon.status).toBe(200);
      expectCommonHeaders(favicon, "/favicon.svg");

      for (const path of ["/api/health", "/api/collections/nope/records", "/api/collections/users/records"]) {
        const answer = await send("127.0.0.1", web.directPort(), { path });
        expectCommonHeaders(answer, path);
        expect(answer.headers["content-security-policy"], path).toMatch(/default-src 'none'.*sandbox/);
      }
    });

    it("are on the answer when PocketBase is down", async () => {
      const down = await startWebServer({ port: 0, pocketbaseUrl: "http://127.0.0.1:9", limits: LIMITS });
      process.env["POCKETBASE_URL"] = web.tpb.url;
      try {
        const answer = await send("127.0.0.1", portOf(down.server), { path: "/api/health" });
        expect(answer.status).toBe(502);
        expectCommonHeaders(answer, "502");
      } finally {
        await down.stop();
      }
    });

    it("add HSTS only behind a trusted proxy that terminated TLS, never for a client's own claim", async () => {
      const viaTls = await send("127.0.0.1", web.proxyPort(), { path: "/" });
      expect(viaTls.headers["strict-transport-security"]).toBe("max-age=31536000");
      const forged = await send("127.0.0.1", web.directPort(), { path: "/", headers: { "x-forwarded-proto": "https" } });
      expect(forged.headers["strict-transport-security"]).toBeUndefined();
    });
  });

  describe("cookies", () => {
    async function customerToken(): Promise<string> {
      const answer = await customerSignIn(web, web.directPort(), "127.0.0.31");
      expect(answer.status).toBe(200);
      return (JSON.parse(answer.body) as { token: string }).token;
    }

    function startSession(port: number, token: string, headers: Record<string, string>): Promise<Answer> {
      return send("127.0.0.1", port, { method: "POST", path: "/auth/session", body: JSON.stringify({ token }), headers });
    }

    it("the session cookie is set by the server, HttpOnly and SameSite=Lax, living as long as the token", async () => {
      const token = await customerToken();
      const answer = await startSession(web.directPort(), token, {
        origin: `http://127.0.0.1:${web.directPort()}`,
        "sec-fetch-site": "same-origin",
      });
      expect(answer.status).toBe(200);
      const cookie = String(answer.headers["set-cookie"]);
      expect(cookie).toMatch(/^pb_auth=[\w-]+\.[\w-]+\.[\w-]+; /);
      expect(cookie).toContain("; HttpOnly");
      expect(cookie).toContain("; SameSite=Lax");
      expect(cookie).toContain("; Path=/");
      expect(cookie).not.toContain("Secure");
      const maxAge = Number(/Max-Age=(\d+)/.exec(cookie)?.[1]);
      expect(maxAge).toBeGreaterThan(6 * 24 * 3600); // users' tokens live 7 days
      expect(maxAge).toBeLessThanOrEqual(7 * 24 * 3600);
      expect(answer.headers["cache-control"]).toBe("no-store");
      // The answer hands the browser the refreshed session; the cookie opens app pages.
      const session = JSON.parse(answer.body) as { token: string; record: { email: string } };
      expect(session.record.email).toBe(web.customer.email);
      const page = await send("127.0.0.1", web.directPort(), {
        path: "/dashboard/settings",
        headers: { cookie: cookie.split(";")[0] ?? "" },
      });
      expect(page.status).toBe(200);
    });

    it("refuses cross-site callers (CSRF) and tokens PocketBase does not confirm", async () => {
      const token = await customerToken();
      const host = `http://127.0.0.1:${web.directPort()}`;
      const refusals: Array<[Record<string, string>, number]> = [
        [{}, 403], // no Origin, no Sec-Fetch-Site
        [{ "sec-fetch-site": "cross-site", origin: "https://evil.example" }, 403],
        [{ "sec-fetch-site": "same-site", origin: "https://sub.127.0.0.1" }, 403],
        [{ origin: "https://evil.example" }, 403],
        [{ origin: "null" }, 403],
      ];
      for (const [headers, status] of refusals) {
        const answer = await startSession(web.directPort(), token, headers);
        expect(answer.status, JSON.stringify(headers)).toBe(status);
        expect(answer.headers["set-cookie"]).toBeUndefined();
      }
      const del = await send("127.0.0.1", web.directPort(), {
        method: "DELETE",
        path: "/auth/session",
        body: "{}",
        headers: { origin: "https://evil.example" },
      });
      expect(del.status).toBe(403);

      const forged = await startSession(web.directPort(), `${token.slice(0, -4)}AAAA`, { origin: host });
      expect(forged.status).toBe(401);
      expect(String(forged.headers["set-cookie"])).toMatch(/^pb_auth=; Max-Age=0;.*HttpOnly/);
      expect((await startSession(web.directPort(), "", { origin: host })).status).toBe(400);
      expect((await send("127.0.0.1", web.directPort(), { path: "/auth/session" })).status).toBe(405);
    });

    it("sign-out clears the session cookie", async () => {
      const answer = await send("127.0.0.1", web.directPort(), {
        method: "DELETE",
        path: "/auth/session",
        body: "{}",
        headers: { "sec-fetch-site": "same-origin" },
      });
      expect(answer.status).toBe(204);
      expect(String(answer.headers["set-cookie"])).toBe("pb_auth=; Max-Age=0; Path=/; HttpOnly; SameSite=Lax");
    });

    it("are Secure behind a trusted proxy that terminated TLS, and never for a client's own claim", async () => {
      const token = await customerToken();
      const viaTls = await startSession(web.proxyPort(), token, { origin: `https://127.0.0.1:${web.proxyPort()}` });
      expect(viaTls.status).toBe(200);
      expect(String(viaTls.headers["set-cookie"])).toMatch(/; HttpOnly; SameSite=Lax; Secure$/);
      const ref = await send("127.0.0.1", web.proxyPort(), { path: "/pricing?ref=ABCD1234" });
      expect(String(ref.headers["set-cookie"])).toBe("shop_ref=ABCD1234; Max-Age=2592000; Path=/; SameSite=Lax; Secure");

      const claimed = await send("127.0.0.1", web.directPort(), {
        path: "/pricing?ref=ABCD1234",
        headers: { "x-forwarded-proto": "https" },
      });
      expect(String(claimed.headers["set-cookie"])).toBe("shop_ref=ABCD1234; Max-Age=2592000; Path=/; SameSite=Lax");
    });
  });
}
