import { describe, expect, it } from "vitest";
import { apiClient, MissingParameterError, requestOf, urlOf, type RouteRequest } from "@/lib/api-contract/client";
import { revokeApiKey } from "@/lib/api-contract/keys";
import { getProxyUsage, listProxies, purchaseProxies } from "@/lib/api-contract/proxies";

describe("the typed caller of contract routes", () => {
  it("fills the path's parameters, encoded, under the route's base", () => {
    const request = requestOf(getProxyUsage, { params: { id: "a/b c" }, query: { from: "2026-11-01", to: "2026-11-28" } });
    expect(request.method).toBe("GET");
    expect(request.path).toBe("/api/v1/proxies/a%2Fb%20c/usage");
    expect(urlOf(request)).toBe("/api/v1/proxies/a%2Fb%20c/usage?from=2026-11-01&to=2026-11-28");
  });

  it("leaves empty query values out", () => {
    const request = requestOf(listProxies, { query: { status: "", page: 2 } as never });
    expect(request.query).toEqual({ page: "2" });
  });

  it("sends the attempt's Idempotency-Key, and refuses a money route without one", () => {
    expect(requestOf(revokeApiKey, { params: { id: "k1" }, idempotencyKey: "attempt-1" }).headers).toEqual({
      "Idempotency-Key": "attempt-1",
    });
    expect(() => requestOf(purchaseProxies, { body: { type: "http", quantity: 1 } as never })).toThrow(MissingParameterError);
    // null leaves it out on purpose (a test of the server's refusal).
    expect(requestOf(purchaseProxies, { body: { type: "http", quantity: 1 } as never, idempotencyKey: null }).headers).toEqual({});
  });

  it("refuses a call that leaves out a path parameter", () => {
    expect(() => requestOf(getProxyUsage, {})).toThrow("The id is required.");
  });

  it("hands the request to the transport and answers what it answered", async () => {
    const seen: RouteRequest[] = [];
    const api = apiClient(async (request) => {
      seen.push(request);
      return { items: [], page: 1 };
    });
    const answer = await api.call(listProxies, {});
    expect(answer).toEqual({ items: [], page: 1 });
    expect(seen.map((r) => `${r.method} ${r.path}`)).toEqual(["GET /api/v1/proxies"]);
  });
});
