// One origin for the shop on this machine (issue #15): with APP_URL on localhost, a page
// asked for through another loopback name (127.0.0.1, [::1]) is redirected to the same path
// on APP_URL's origin, so the session a visitor signs in with and the page a mailed link
// (verification, sign-in) opens share one origin. API calls, other methods and public
// host names are served where they came. Needs the built site (`npm run build`).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startWebServer, type WebServer } from "../../server/web-server.ts";
import { freePort, startTestPocketBase, type TestPocketBase } from "../support/pocketbase.ts";
import { send } from "./cases/web-server-kit.ts";

let tpb: TestPocketBase;
let web: WebServer;
let port: number;

beforeAll(async () => {
  tpb = await startTestPocketBase();
  port = await freePort();
  web = await startWebServer({
    port,
    host: "127.0.0.1",
    pocketbaseUrl: tpb.url,
    forwardingSecret: tpb.process.forwardingSecret,
    canonicalUrl: `http://localhost:${port}`,
  });
});

afterAll(async () => {
  await web.stop();
  await tpb.stop();
});

describe("the canonical origin (APP_URL http://localhost:PORT)", () => {
  const cases: Array<{
    name: string;
    method: string;
    path: string;
    host: (p: number) => string;
    location: ((p: number) => string) | null;
  }> = [
    {
      name: "a page through 127.0.0.1 goes to localhost, path and query kept",
      method: "GET",
      path: "/login?next=%2Fdashboard",
      host: (p) => `127.0.0.1:${p}`,
      location: (p) => `http://localhost:${p}/login?next=%2Fdashboard`,
    },
    {
      name: "a verification link opened through 127.0.0.1 too",
      method: "GET",
      path: "/login?verify=some.token",
      host: (p) => `127.0.0.1:${p}`,
      location: (p) => `http://localhost:${p}/login?verify=some.token`,
    },
    { name: "HEAD through [::1]", method: "HEAD", path: "/", host: (p) => `[::1]:${p}`, location: (p) => `http://localhost:${p}/` },
    { name: "the canonical host itself is served", method: "GET", path: "/login", host: (p) => `localhost:${p}`, location: null },
    { name: "PocketBase's API is served on any name", method: "GET", path: "/api/health", host: (p) => `127.0.0.1:${p}`, location: null },
    { name: "a public host name is not ours to move", method: "GET", path: "/login", host: () => "shop.example.com", location: null },
  ];

  it.each(cases)("$name", async ({ method, path, host, location }) => {
    const answer = await send("127.0.0.1", port, { method, path, headers: { host: host(port) } });
    if (location) {
      expect(answer.status).toBe(302);
      expect(answer.headers.location).toBe(location(port));
      expect(answer.headers["cache-control"]).toBe("no-store");
    } else {
      expect(answer.status).toBe(200);
      expect(answer.headers.location).toBeUndefined();
    }
  });

  it("a POST through 127.0.0.1 is served where it came (a redirect would lose its body)", async () => {
    const answer = await send("127.0.0.1", port, { method: "POST", path: "/login", headers: { host: `127.0.0.1:${port}` }, body: "{}" });
    expect(answer.status).not.toBe(302);
    expect(answer.headers.location).toBeUndefined();
  });
});
