// First data of app pages: the server reads with the visitor's own session under one
// deadline (lib/server/first-data.ts), and the islands' stores take the server's state
// without a second load (stores/seed.ts, lib/keep-loaded.ts), never writing a shared
// store on the server.
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { atom } from "nanostores";
import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { UserRecord } from "@/lib/pocketbase-types";

const USERS = "_pb_users_auth_";
const SUPERUSERS = "pbc_3142635823";
const user = {
  id: "u1aaaaaaaaaaaaa",
  collectionId: USERS,
  collectionName: "users",
  email: "a@example.test",
  is_admin: false,
} as UserRecord;

/**
 * A `pb_auth` cookie as the server sets it: the bare JWT (unsigned here; PocketBase checks
 * signatures, and the middleware has verified it before a page reads anything).
 */
function authCookie(record: { id: string; collectionId: string }, expiresInSeconds = 3600): string {
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString("base64url");
  const claims = { id: record.id, collectionId: record.collectionId, type: "auth", exp: Math.floor(Date.now() / 1000) + expiresInSeconds };
  return `pb_auth=${part({ alg: "HS256", typ: "JWT" })}.${part(claims)}.sig`;
}

describe("loadFirstData", () => {
  const seen: IncomingHttpHeaders[] = [];
  let server: ReturnType<typeof createServer>;

  beforeAll(async () => {
    server = createServer((req, res) => {
      seen.push(req.headers);
      if (req.url?.startsWith("/api/slow")) return; // never answers: the deadline must cut it
      res.writeHead(req.url?.startsWith("/api/fail") ? 500 : 200, { "Content-Type": "application/json" });
      res.end(JSON.stringify({ ok: true, message: "x" }));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    vi.stubEnv("POCKETBASE_URL", `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    vi.stubEnv("SHOP_FORWARDING_SECRET", "the-secret-of-this-start-0123456789abcdef");
  });
  afterAll(() => {
    vi.unstubAllEnvs();
    server.closeAllConnections();
    server.close();
  });

  const page = (cookie: string, who: UserRecord | null = user) => ({
    locals: { user: who } as App.Locals,
    request: new Request("http://shop.test/dashboard", { headers: { cookie } }),
    clientAddress: "203.0.113.7",
  });

  it("reads in parallel with the visitor's token and address; a failed or late read is null, the rest stay", async () => {
    const { loadFirstData } = await import("@/lib/server/first-data");
    seen.length = 0;
    const started = Date.now();
    const { user: verified, data } = await loadFirstData(
      page(authCookie(user)),
      {
        ok: ({ client, signal }) => client.send<{ ok: boolean }>("/api/ok", { signal }),
        failed: ({ client, signal }) => client.send("/api/fail", { signal }),
        late: ({ client, signal }) => client.send("/api/slow", { signal }),
        whose: async ({ user: u }) => u.id,
      },
      { timeoutMs: 300 },
    );
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(verified?.id).toBe(user.id);
    expect(data).toEqual({ ok: { ok: true, message: "x" }, failed: null, late: null, whose: user.id });
    expect(seen).toHaveLength(3);
    for (const headers of seen) {
      expect(headers["authorization"]).toMatch(/^eyJ/);
      expect(headers["x-forwarded-for"]).toBe("203.0.113.7");
      // The web server's secret beside it, or PocketBase would not believe it (#26 finding 6).
      expect(headers["x-shop-forwarding-secret"]).toBe("the-secret-of-this-start-0123456789abcdef");
    }
  });

  it("reads nothing without a verified user, or with a cookie that is not that user's users-session", async () => {
    const { loadFirstData } = await import("@/lib/server/first-data");
    const reader = vi.fn(async () => "read");
    seen.length = 0;
    expect((await loadFirstData(page(authCookie(user), null), { x: reader })).data).toEqual({ x: null });
    // Another account's token, a superuser's token, an expired token: never used.
    for (const cookie of [
      authCookie({ id: "u2bbbbbbbbbbbbb", collectionId: USERS }),
      authCookie({ id: user.id, collectionId: SUPERUSERS }),
      authCookie(user, -60),
      "",
    ]) {
      expect((await loadFirstData(page(cookie), { x: reader })).data).toEqual({ x: null });
    }
    expect(reader).not.toHaveBeenCalled();
    expect(seen).toHaveLength(0);
  });
});

describe("seeded stores on the server", () => {
  it("renders the seed (or the initial state) without mounting or writing the shared store", async () => {
    const { keepLoaded } = await import("@/lib/keep-loaded");
    const { useSeededStore } = await import("@/stores/seed");
    type State = { status: "loading" | "ready" | "error"; error: string; n: number };
    const $store = atom<State>({ status: "loading", error: "", n: 0 });
    const load = vi.fn(async () => ({ status: "ready" as const, error: "", n: 99 }));
    keepLoaded($store, [], load);
    const View = ({ seed }: { seed: State | null }) => {
      const state = useSeededStore($store, seed);
      return createElement("p", null, `${state.status}:${state.n}`);
    };
    expect(renderToString(createElement(View, { seed: { status: "ready", error: "", n: 7 } }))).toBe("<p>ready:7</p>");
    expect(renderToString(createElement(View, { seed: null }))).toBe("<p>loading:0</p>");
    expect(load).not.toHaveBeenCalled();
    expect($store.value).toEqual({ status: "loading", error: "", n: 0 });
  });
});

describe("seeded stores in the browser", () => {
  it("skip the first load once, then load on every trigger as before; a live store keeps its state", async () => {
    vi.resetModules();
    vi.stubGlobal("window", {});
    try {
      const { keepLoaded } = await import("@/lib/keep-loaded");
      const { seedStore, takeSeed, seedFor } = await import("@/stores/seed");
      type State = { status: "loading" | "ready" | "error"; error: string; n: number };
      const $store = atom<State>({ status: "loading", error: "", n: 0 });
      const $reloads = atom(0);
      let answer = 1;
      const load = vi.fn(async () => ({ status: "ready" as const, error: "", n: answer++ }));
      keepLoaded($store, [$reloads], load);

      seedStore($store, { status: "ready", error: "", n: 42 }, user.id);
      seedStore($store, { status: "ready", error: "", n: 43 }); // only the first seed of the page counts
      const off = $store.listen(() => {});
      expect($store.get().n).toBe(42);
      expect(load).not.toHaveBeenCalled();

      $reloads.set(1);
      await vi.waitFor(() => expect($store.get().n).toBe(1));
      expect(load).toHaveBeenCalledTimes(1);
      off();

      // A store someone already listens to is live: a late seed must not overwrite it.
      const $live = atom({ status: "ready" as const, error: "", n: 5 });
      const offLive = $live.listen(() => {});
      seedStore($live, { status: "ready", error: "", n: 6 });
      expect($live.get().n).toBe(5);
      expect(takeSeed($live)).toBeNull();
      offLive();

      // A seed tells its loader whose data it is, once.
      const $mine = atom(0);
      seedStore($mine, 1, user.id);
      expect(takeSeed($mine)).toEqual({ userId: user.id });
      expect(takeSeed($mine)).toBeNull();

      // The server's data is shown only to the account it was read for.
      expect(seedFor(user, user, "data")).toBe("data");
      expect(seedFor(user, { id: "someone-else" }, "data")).toBeNull();
      expect(seedFor(null, user, "data")).toBeNull();
    } finally {
      vi.unstubAllGlobals();
      vi.resetModules();
    }
  });
});
