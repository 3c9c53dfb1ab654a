// The server-side session check tells "signed out" (the token is not valid) from "cannot
// tell" (PocketBase rate limited, failing or down): only the first signs the visitor out.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SessionCheckUnavailable, verifySession } from "@/lib/server/auth";

let server: http.Server;
let answer = { status: 200, body: {} as unknown };

// A cookie the SDK accepts as an unexpired token (the signature is PocketBase's to check).
const payload = Buffer.from(
  JSON.stringify({ exp: Math.floor(Date.now() / 1000) + 3600, type: "auth", collectionId: "_pb_users_auth_" }),
).toString("base64url");
const cookie = `pb_auth=${encodeURIComponent(JSON.stringify({ token: `x.${payload}.y`, record: { id: "u1", collectionName: "users" } }))}`;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    req.resume();
    res.writeHead(answer.status, { "content-type": "application/json" }).end(JSON.stringify(answer.body));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  process.env["POCKETBASE_URL"] = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => {
  server.close();
});

describe("verifySession", () => {
  it("returns the user PocketBase confirms", async () => {
    answer = { status: 200, body: { token: "t", record: { id: "u1", email: "a@b.co" } } };
    expect(await verifySession(cookie)).toMatchObject({ id: "u1", email: "a@b.co" });
  });

  it.each([400, 401, 403, 404])("treats %i as signed out", async (status) => {
    answer = { status, body: { status, message: "no", data: {} } };
    expect(await verifySession(cookie)).toBeNull();
  });

  it.each([429, 500, 502, 503])("does not sign the visitor out on %i", async (status) => {
    answer = { status, body: { status, message: "busy", data: {} } };
    await expect(verifySession(cookie)).rejects.toBeInstanceOf(SessionCheckUnavailable);
  });

  it("does not sign the visitor out when PocketBase is unreachable", async () => {
    const saved = process.env["POCKETBASE_URL"];
    process.env["POCKETBASE_URL"] = "http://127.0.0.1:9";
    try {
      await expect(verifySession(cookie)).rejects.toBeInstanceOf(SessionCheckUnavailable);
    } finally {
      process.env["POCKETBASE_URL"] = saved;
    }
  });

  it("needs no backend call without a cookie", async () => {
    expect(await verifySession("")).toBeNull();
  });
});
