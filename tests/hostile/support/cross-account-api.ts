// Cross-account through the developer API (issue #18): customer B, with B's own API key
// (every scope) and B's session, goes after A's API keys, A's webhook endpoints and their
// deliveries, and A's proxies, orders, transactions and activity through /api/v1: every
// write with A's ids is a 404 (or a key's 403 on a session-only route) and changes nothing;
// every list B gets holds B's rows only, whatever its filters and cursor aim at; A's key
// forged (another prefix, one character changed) is a 401 and changes nothing. Runs in
// cross-account.test.ts's shop.
import { randomUUID } from "node:crypto";
import type { RecordModel } from "pocketbase";
import { beforeAll, describe, expect, it } from "vitest";
import { API_KEY_SCOPES } from "@/lib/api-contract/define";
import { addStock } from "../../support/shop.ts";
import { changedTables } from "./db-snapshot.ts";
import { call, expectNothingOfA, x } from "./cross-account-kit.ts";

interface Party {
  /** The key itself (psk_live_…), every scope. */
  key: string;
  keyId: string;
  /** A webhook endpoint and one delivery of it. */
  webhook: string;
  delivery: string;
}

const api = { A: {} as Party, B: {} as Party };

async function partyOf(who: "A" | "B"): Promise<Party> {
  const owner = who === "A" ? x.A.user : x.hs.B.user;
  const made = await owner.pb.send<{ key: string; api_key: { id: string } }>("/api/v1/api-keys", {
    method: "POST",
    body: { name: `key of ${who}`, scopes: API_KEY_SCOPES, spend_cap_cents: 5_000 },
  });
  // The endpoint is made as the superuser (no delivery is sent to it); its delivery is done
  // already, so the dispatcher leaves both alone while B tries them.
  const endpoint = await x.hs.su.collection("webhook_endpoints").create({
    user: owner.id,
    url: `https://hooks-of-${who.toLowerCase()}.example.com/${randomUUID()}`,
    description: `Endpoint of customer ${who}`,
    events: ["proxy.expired"],
    enabled: true,
    secret: "v1:sealed-by-the-test",
    balance_low_cents: 0,
  });
  const delivery = await x.hs.su.collection("webhook_deliveries").create({
    endpoint: endpoint.id,
    user: owner.id,
    event: "proxy.expired",
    message_id: `msg_${randomUUID().replaceAll("-", "").slice(0, 24)}`,
    payload: JSON.stringify({ type: "proxy.expired", data: { owner: who } }),
    status: "succeeded",
    attempts: 1,
    last_status_code: 200,
  });
  return { key: made.key, keyId: made.api_key.id, webhook: endpoint.id, delivery: delivery.id };
}

/** Raw call with B's key. */
const asKeyOfB = (method: string, path: string, body?: unknown) =>
  call(method, path, {
    token: `Bearer ${api.B.key}`,
    headers: { "Idempotency-Key": randomUUID() },
    ...(body === undefined ? {} : { body }),
  });

/** The database's tables that changed while `run` ran, but B's key's own last-used stamp. */
async function changesDuring(run: () => Promise<void>): Promise<string[]> {
  const keyOfA = await x.hs.su.collection("api_keys").getOne(api.A.keyId);
  const before = await x.db.take();
  await run();
  const changed = changedTables(before, await x.db.take());
  // B's key writes its last use at most once a minute (pocketbase/devapi/keys.go touch): that
  // row may move; A's key row may not.
  expect(await x.hs.su.collection("api_keys").getOne(api.A.keyId)).toEqual(keyOfA);
  return changed.filter((t) => t !== "api_keys");
}

export function apiCrossAccountCases(): void {
  describe("the developer API with B's key", () => {
    beforeAll(async () => {
      api.A = await partyOf("A");
      api.B = await partyOf("B");
      x.secretsOfA.push(api.A.key, api.A.key.slice(0, 13), api.A.keyId, api.A.webhook, api.A.delivery, "hooks-of-a.example.com");
      // B's key works (the control), and has written its last use before the checks begin.
      expect((await asKeyOfB("GET", "/api/v1/account")).status).toBe(200);
    });

    it("cannot revoke or see A's keys: a key may not call the key routes, B's session gets a 404; A's key still works", async () => {
      const changed = await changesDuring(async () => {
        for (const [method, path] of [
          ["DELETE", `/api/v1/api-keys/${api.A.keyId}`],
          ["GET", "/api/v1/api-keys"],
          ["POST", "/api/v1/api-keys"],
        ] as const) {
          const res = await asKeyOfB(method, path, method === "POST" ? { name: "made by a key", scopes: ["read"] } : undefined);
          expect(res.status, `${method} ${path} with B's key: ${res.text.slice(0, 200)}`).toBe(403);
          expect(JSON.parse(res.text)).toMatchObject({ code: "session_required" });
          expectNothingOfA(res.text, `${method} ${path} with B's key`);
        }
        const revoke = await call("DELETE", `/api/v1/api-keys/${api.A.keyId}`, { headers: { "Idempotency-Key": randomUUID() } });
        expect(revoke.status, revoke.text).toBe(404);
        expectNothingOfA(revoke.text, "B revoking A's key", api.A.keyId);
        const listed = await call("GET", "/api/v1/api-keys");
        expect(listed.status).toBe(200);
        expectNothingOfA(listed.text, "B's key list");
        expect((JSON.parse(listed.text) as { items: { id: string }[] }).items.map((k) => k.id)).toEqual([api.B.keyId]);
      });
      expect(changed).toEqual([]);
      const stored = await x.hs.su.collection("api_keys").getOne(api.A.keyId);
      expect(stored["revoked_at"]).toBe("");
      const own = await call("GET", "/api/v1/account", { token: `Bearer ${api.A.key}` });
      expect(own.status, "A's key still works").toBe(200);
      expect(JSON.parse(own.text)).toMatchObject({ email: x.A.user.email });
    });

    it("cannot touch A's webhook endpoints or deliveries (404), and nothing changes", async () => {
      const { webhook, delivery } = api.A;
      const attempts: [string, string, unknown?][] = [
        ["PATCH", `/api/v1/webhooks/${webhook}`, { enabled: false, url: "https://evil.example.com/steal", events: ["purchase.completed"] }],
        ["POST", `/api/v1/webhooks/${webhook}/rotate-secret`],
        ["GET", `/api/v1/webhooks/${webhook}/deliveries`],
        ["POST", `/api/v1/webhooks/${webhook}/deliveries/${delivery}/resend`],
        ["POST", `/api/v1/webhooks/${api.B.webhook}/deliveries/${delivery}/resend`],
        ["DELETE", `/api/v1/webhooks/${webhook}`],
      ];
      const changed = await changesDuring(async () => {
        for (const [method, path, body] of attempts) {
          for (const [who, res] of [
            ["B's key", await asKeyOfB(method, path, body)],
            ["B's session", await call(method, path, { headers: { "Idempotency-Key": randomUUID() }, ...(body ? { body } : {}) })],
          ] as const) {
            expect(res.status, `${method} ${path} with ${who}: ${res.text.slice(0, 200)}`).toBe(404);
            expectNothingOfA(res.text, `${method} ${path} with ${who}`, path);
          }
        }
      });
      expect(changed).toEqual([]);
      const list = await asKeyOfB("GET", "/api/v1/webhooks");
      expect(list.status).toBe(200);
      expectNothingOfA(list.text, "B's webhook list");
      expect((JSON.parse(list.text) as { items: { id: string }[] }).items.map((w) => w.id)).toEqual([api.B.webhook]);
      const deliveries = await asKeyOfB("GET", `/api/v1/webhooks/${api.B.webhook}/deliveries`);
      expect(deliveries.status).toBe(200);
      expect((JSON.parse(deliveries.text) as { items: { id: string }[] }).items.map((d) => d.id)).toEqual([api.B.delivery]);
    });

    it("cannot read, rotate, renew or change A's proxies (404), and nothing changes", async () => {
      const proxyOfA = x.A.proxies[0]!;
      const attempts: [string, string, unknown, number[]][] = [
        ["GET", `/api/v1/proxies/${proxyOfA}`, undefined, [404]],
        ["GET", `/api/v1/proxies/${proxyOfA}/usage`, undefined, [404]],
        ["POST", `/api/v1/proxies/${proxyOfA}/rotate`, undefined, [404]],
        ["PATCH", `/api/v1/proxies/${proxyOfA}`, { auto_renew: false }, [404]],
        ["PATCH", `/api/v1/proxies/${proxyOfA}`, { auto_renew: true }, [404]],
        ["POST", "/api/v1/proxies/renew", { proxy_ids: [proxyOfA] }, [404, 400, 409]],
        ["POST", "/api/v1/proxies/renew", { proxy_ids: [x.hs.B.proxies[0], proxyOfA] }, [404, 400, 409]],
      ];
      const changed = await changesDuring(async () => {
        for (const [method, path, body, expected] of attempts) {
          const res = await asKeyOfB(method, path, body);
          expect(expected, `${method} ${path} with B's key: ${res.status} ${res.text.slice(0, 200)}`).toContain(res.status);
          expectNothingOfA(res.text, `${method} ${path} with B's key`, `${path} ${JSON.stringify(body ?? null)}`);
        }
      });
      expect(changed).toEqual([]);
      // The control: B's key reads B's own proxy.
      expect((await asKeyOfB("GET", `/api/v1/proxies/${x.hs.B.proxies[0]}`)).status).toBe(200);
    });

    it("lists with B's key hold B's rows only, whatever the filters and the cursor aim at", async () => {
      const su = x.hs.su;
      const idsOf = async (collection: string, owner: string) =>
        new Set(
          (
            await su.collection(collection).getFullList({ filter: su.filter(`${owner} = {:id}`, { id: x.hs.B.user.id }), fields: "id" })
          ).map((r) => r.id),
        );
      const proxyOfA = await su.collection("proxies").getOne(x.A.proxies[0]!);
      const forged = Buffer.from(`${proxyOfA["created"] as string}|${proxyOfA.id}`).toString("base64url");
      const aim = (more: string[]) => ["", `cursor=${forged}`, ...more];
      const lists: [string, Set<string>, string[]][] = [
        [
          "/api/v1/proxies",
          await idsOf("proxies", "assigned_to_user_id"),
          aim([
            `search=${encodeURIComponent(proxyOfA["username"] as string)}`,
            `search=${proxyOfA.id}`,
            `country=${proxyOfA["country"] as string}`,
            "status=EXPIRED",
            "limit=100",
          ]),
        ],
        ["/api/v1/transactions", await idsOf("transactions", "user_id"), aim(["type=PROXY_PURCHASE", "from=2000-01-01", "limit=100"])],
        ["/api/v1/orders", await idsOf("proxy_orders", "user_id"), aim(["limit=100"])],
        ["/api/v1/activity", await idsOf("account_activity", "user"), aim(["kind=purchase", "kind=api_key_created", "limit=100"])],
        ["/api/v1/webhooks", new Set([api.B.webhook]), [""]],
      ];
      for (const [path, own, queries] of lists) {
        let seen = 0;
        for (const query of queries) {
          const url = query ? `${path}?${query}` : path;
          const res = await asKeyOfB("GET", url);
          expect([200, 400], `${url}: ${res.status} ${res.text.slice(0, 200)}`).toContain(res.status);
          expectNothingOfA(res.text, `${url} with B's key`, query);
          if (res.status !== 200) continue;
          const items = (JSON.parse(res.text) as { items: RecordModel[] }).items;
          const foreign = items.map((i) => i.id).filter((id) => !own.has(id));
          expect(foreign, `${url} holds rows that are not B's`).toEqual([]);
          seen += items.length;
        }
        expect(seen, `${path} shows B's own rows (the control)`).toBeGreaterThan(0);
      }
    });

    it("A's key forged (another prefix, one character changed) is a 401 and changes nothing", async () => {
      const real = api.A.key;
      const body = real.slice("psk_live_".length);
      const last = real.at(-1) === "A" ? "B" : "A";
      const country = `XF${randomUUID().slice(0, 4)}`;
      await addStock(x.hs, { type: "DATACENTER", country, count: 1 });
      const forgeries = [
        `psk_test_${body}`,
        `psk_live_${body.slice(0, -1)}${last}`,
        `psk_livf_${body}`,
        `PSK_LIVE_${body}`,
        `pk_live_${body}`,
        body,
        `${real.slice(0, 20)}${real.slice(21)}`,
      ];
      const changed = await changesDuring(async () => {
        for (const forged of forgeries) {
          for (const [method, path, payload] of [
            ["GET", "/api/v1/account", undefined],
            ["POST", "/api/v1/proxies/purchase", { type: "DATACENTER", country, quantity: 1 }],
            ["POST", `/api/v1/proxies/${x.A.proxies[0]}/rotate`, undefined],
          ] as const) {
            const res = await call(method, path, {
              token: `Bearer ${forged}`,
              headers: { "Idempotency-Key": randomUUID() },
              ...(payload ? { body: payload } : {}),
            });
            expect(res.status, `${method} ${path} with ${forged.slice(0, 12)}…: ${res.text.slice(0, 200)}`).toBe(401);
            expectNothingOfA(res.text, `${method} ${path} with a forgery of A's key`);
          }
        }
      });
      expect(changed).toEqual([]);
      // The real key buys (the control: the forgeries were refused for being forged).
      const bought = await call("POST", "/api/v1/proxies/purchase", {
        token: `Bearer ${real}`,
        headers: { "Idempotency-Key": randomUUID() },
        body: { type: "DATACENTER", country, quantity: 1 },
      });
      expect(bought.status, bought.text).toBe(200);
    });
  });
}
