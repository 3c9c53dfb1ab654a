// server/proxy.ts's 502 when PocketBase cannot be reached: problem details on /api/v1 (like
// every other answer there), PocketBase's error shape elsewhere; both through a real proxy
// to a closed port.
import http from "node:http";
import type { AddressInfo } from "node:net";
import * as v from "valibot";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { backendUnavailable, proxyToPocketBase } from "../../server/proxy.ts";
import { Problem } from "@/lib/api-contract/schemas";
import { freePort } from "../../server/free-port.ts";

describe("the proxy's 502", () => {
  let server: http.Server;
  let base = "";

  beforeAll(async () => {
    const closed = new URL(`http://127.0.0.1:${await freePort()}`); // nothing listens there
    server = http.createServer(proxyToPocketBase(closed, () => ({ ip: "203.0.113.7", secure: false, peer: "127.0.0.1" })));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("is a problem on /api/v1, with the contract's Problem shape", async () => {
    const res = await fetch(`${base}/api/v1/proxies?limit=5`);
    expect(res.status).toBe(502);
    expect(res.headers.get("content-type")).toBe("application/problem+json");
    const body: unknown = await res.json();
    expect(v.safeParse(Problem, body).success).toBe(true);
    expect(body).toMatchObject({ status: 502, title: "Bad Gateway", detail: "The backend is unavailable. Please try again shortly." });
  });

  it("keeps PocketBase's shape for its own routes", async () => {
    const res = await fetch(`${base}/api/collections/users/records`);
    expect(res.status).toBe(502);
    expect(res.headers.get("content-type")).toBe("application/json");
    expect(await res.json()).toEqual({ status: 502, message: "The backend is unavailable. Please try again shortly.", data: {} });
    expect(backendUnavailable("/api/v1").contentType).toBe("application/json"); // not under /api/v1/
  });
});
