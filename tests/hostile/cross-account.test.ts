// Cross-account (issue #8): customer B tries every read and write on customer A's rows:
// by id, by filter (A's e-mail, relation traversal, back-relations, @collection), by
// expand from B's own rows, through the custom routes with A's ids, through A's realtime
// topics while A's rows change, and through A's files with and without file tokens.
// Everything is refused or empty, and no answer or event B receives holds anything of A's
// (A's e-mail, ids, proxy credentials, ticket texts). Controls prove each channel works:
// A reads the same rows, and B's realtime subscriptions do deliver B's own changes.
// The developer API (issue #18, support/cross-account-api.ts): B's API key against A's keys,
// webhooks, proxies and lists, and forgeries of A's key.
import { randomUUID } from "node:crypto";
import type { RecordModel } from "pocketbase";
import { describe, expect, it } from "vitest";
import { changedTables } from "./support/db-snapshot.ts";
import { call, expectNothingOfA, idsOfA, OWNED, OWNER_PATH, useCrossAccountShop, x } from "./support/cross-account-kit.ts";
import { apiCrossAccountCases } from "./support/cross-account-api.ts";
import { liveCrossAccountCases } from "./support/cross-account-live.ts";

useCrossAccountShop();

describe("customer B on customer A's rows", () => {
  it("A sees each of them (the control)", async () => {
    for (const collection of [...OWNED, "users" as const]) {
      for (const id of idsOfA(collection)) {
        expect((await x.A.user.pb.collection(collection).getOne(id)).id, `${collection}/${id}`).toBe(id);
      }
    }
  });

  it("B cannot view any of them by id (404), with or without expand and fields", async () => {
    for (const collection of [...OWNED, "users" as const]) {
      for (const id of idsOfA(collection)) {
        for (const query of ["", "?expand=user_id,ticket_id,affiliate_id", "?fields=*,expand.*"]) {
          const res = await call("GET", `/api/collections/${collection}/records/${id}${query}`);
          expect(res.status, `${collection}/${id}${query}`).toBe(404);
          expectNothingOfA(res.text, `${collection}/${id}${query}`);
        }
      }
    }
  });

  it("B cannot update or delete any of them, and nothing changes", async () => {
    const before = await x.db.take();
    const attempts: Record<string, unknown> = {
      balances: { balance_cents: 0 },
      transactions: { amount_cents: 1 },
      proxies: { auto_renew: true, assigned_to_user_id: x.hs.B.user.id },
      proxy_orders: { status: "refunded" },
      payments: { status: "failed" },
      support_tickets: { status: "closed", user_id: x.hs.B.user.id },
      chat_messages: { message: "rewritten by B" },
      affiliates: { code: "BSTOLEIT" },
      referrals: { status: "paid" },
      commissions: { status: "paid" },
      users: { first_name: "Hacked", oldPassword: "x", password: "Hacked#2026x", passwordConfirm: "Hacked#2026x" },
    };
    for (const collection of [...OWNED, "users" as const]) {
      for (const id of idsOfA(collection)) {
        const update = await call("PATCH", `/api/collections/${collection}/records/${id}`, { body: attempts[collection] });
        expect(update.status, `update ${collection}/${id}: ${update.text}`).toBeGreaterThanOrEqual(400);
        expect(update.status).toBeLessThan(500);
        expectNothingOfA(update.text, `update ${collection}/${id}`);
        const remove = await call("DELETE", `/api/collections/${collection}/records/${id}`);
        expect(remove.status, `delete ${collection}/${id}: ${remove.text}`).toBeGreaterThanOrEqual(400);
        expect(remove.status).toBeLessThan(500);
      }
    }
    expect(changedTables(before, await x.db.take())).toEqual([]);
  });

  it("B's lists never return A's rows, whatever the filter aims at", async () => {
    const filters = (collection: keyof typeof OWNER_PATH): string[] => {
      const owner = OWNER_PATH[collection];
      const ownerRelation = owner === "id" ? null : owner;
      return [
        "",
        `id != ""`,
        `id = "${idsOfA(collection)[0]}"`,
        `${owner} = "${x.A.user.id}"`,
        `${owner} != "${x.hs.B.user.id}"`,
        ...(ownerRelation
          ? [
              `${ownerRelation}.email = "${x.A.user.email}"`,
              `${ownerRelation}.email ~ "${x.A.user.email.slice(0, 12)}"`,
              `${ownerRelation}.email ~ "%"`,
            ]
          : [`email = "${x.A.user.email}"`, `email ~ "%"`]),
        `(${owner} = "${x.hs.B.user.id}") || (${owner} = "${x.A.user.id}")`,
        `${owner} = @request.auth.id || 1 = 1`,
        `@request.auth.id != "" || id != ""`,
        `@collection.users.email ?= "${x.A.user.email}"`,
        `@collection.${collection}.id ?= "${idsOfA(collection)[0]}"`,
      ];
    };
    for (const collection of [...OWNED, "users" as const]) {
      const own = new Set(
        (await x.hs.su.collection(collection).getFullList({ filter: `${OWNER_PATH[collection]} = "${x.hs.B.user.id}"`, fields: "id" })).map(
          (r) => r.id,
        ),
      );
      for (const filter of filters(collection)) {
        {
          const expand = "user_id,ticket_id.user_id,affiliate_id.user_id,assigned_to_user_id";
          const query = new URLSearchParams({ filter, perPage: "500", expand });
          const res = await call("GET", `/api/collections/${collection}/records?${query}`);
          expect(res.status, `${collection} ${filter}: ${res.text.slice(0, 200)}`).toBeLessThan(500);
          expectNothingOfA(res.text, `${collection} filtered by ${filter}`);
          if (res.status === 200) {
            const items = (JSON.parse(res.text) as { items: RecordModel[] }).items;
            expect(
              items.every((item) => own.has(item.id)),
              `${collection} ${filter}`,
            ).toBe(true);
          }
        }
      }
    }
  });

  it("B's filters on relations learn nothing (the same answer whether the guess about A is right or wrong)", async () => {
    // A boolean oracle: B's own rows filtered by a fact about someone else's record. A right
    // and a wrong guess must give the same rows, or B could read other accounts bit by bit.
    const guesses: [string, string, string][] = [
      ["referrals", `referred_user_id.email = "${x.hs.B.referred.email}"`, `referred_user_id.email = "nobody@hostile.test"`],
      ["referrals", `referred_user_id.email ~ "${x.hs.B.referred.email.slice(0, 8)}"`, `referred_user_id.email ~ "zzzzzzzz"`],
      ["referrals", `referred_user_id.verified = true`, `referred_user_id.verified = false`],
      ["referrals", `referred_user_id.password_set = true`, `referred_user_id.password_set = false`],
      ["commissions", `payment_id.amount_cents > 0`, `payment_id.amount_cents < 0`],
      ["commissions", `payment_id.user_id.email = "${x.hs.B.referred.email}"`, `payment_id.user_id.email = "nobody@hostile.test"`],
      ["chat_messages", `sender_id.email = "${x.hs.adminUser.email}"`, `sender_id.email = "nobody@hostile.test"`],
      ["chat_messages", `sender_id.is_admin = true && sender_id.email ~ "admin"`, `sender_id.is_admin = true && sender_id.email ~ "zzzz"`],
      ["users", `transactions_via_user_id.user_id = "${x.A.user.id}"`, `transactions_via_user_id.user_id = "nobody"`],
      ["transactions", `@collection.balances.balance_cents ?> 1000`, `@collection.balances.balance_cents ?> 999999999`],
    ];
    for (const [collection, right, wrong] of guesses) {
      const ids = async (filter: string) => {
        const res = await call("GET", `/api/collections/${collection}/records?${new URLSearchParams({ filter, perPage: "500" })}`);
        expect(res.status).toBeLessThan(500);
        return res.status === 200
          ? (JSON.parse(res.text) as { items: RecordModel[] }).items.map((i) => i.id).sort()
          : `refused ${res.status}`;
      };
      expect(await ids(right), `${collection}: ${right}`).toEqual(await ids(wrong));
    }
  });

  it("B's own rows expand to nobody else's record", async () => {
    const expands: [string, string][] = [
      ["chat_messages", "sender_id,ticket_id.user_id"],
      ["referrals", "referred_user_id,affiliate_id.user_id"],
      ["commissions", "payment_id,payment_id.user_id,referral_id.referred_user_id"],
      ["proxy_orders", "transaction_id,user_id"],
      ["users", "transactions_via_user_id,proxies_via_assigned_to_user_id,balances_via_user_id"],
    ];
    const allowed = new Set<string>([x.hs.B.user.id, ...OWNED.flatMap((c) => x.hs.B[c])]);
    for (const [collection, expand] of expands) {
      const res = await call("GET", `/api/collections/${collection}/records?${new URLSearchParams({ expand, perPage: "500" })}`);
      expect(res.status).toBe(200);
      expectNothingOfA(res.text, `${collection} expanding ${expand}`);
      const seen: string[] = [];
      const walk = (value: unknown) => {
        if (Array.isArray(value)) value.forEach(walk);
        else if (value && typeof value === "object") {
          const obj = value as Record<string, unknown>;
          if (typeof obj["collectionName"] === "string" && typeof obj["id"] === "string")
            seen.push(`${obj["collectionName"]}/${obj["id"]}`);
          Object.values(obj).forEach(walk);
        }
      };
      walk(JSON.parse(res.text));
      const foreign = seen.filter((s) => !allowed.has(s.split("/")[1]!));
      expect(foreign, `${collection} expanding ${expand}`).toEqual([]);
    }
    // The staff reply on B's ticket and the referred customer's payment are there, unexpanded.
    const messages = await x.B.collection("chat_messages").getFullList({ expand: "sender_id" });
    expect(messages.some((m) => m["is_admin_message"] === true && !m.expand?.["sender_id"])).toBe(true);
  });

  it("B's custom-route calls with A's ids are refused and change nothing", async () => {
    const before = await x.db.take();
    const proxyOfA = x.A.proxies[0]!;
    const attempts: [string, string, unknown, number[]][] = [
      ["PATCH", `/api/v1/proxies/${proxyOfA}`, { auto_renew: true }, [404]],
      ["POST", `/api/v1/proxies/${proxyOfA}/rotate`, undefined, [404]],
      ["POST", "/api/v1/proxies/renew", { proxy_ids: [proxyOfA] }, [404, 400, 409]],
      ["POST", "/api/v1/proxies/renew", { proxy_ids: [...x.hs.B.proxies, proxyOfA] }, [404, 400, 409]],
      [
        "POST",
        "/api/v1/support/tickets",
        { subject: "Posing as A", message: "Opening a ticket in A's name.", user_id: x.A.user.id },
        [200],
      ],
      [
        "POST",
        `/api/collections/chat_messages/records`,
        { ticket_id: x.A.support_tickets[0], sender_id: x.hs.B.user.id, message: "B writes into A's ticket" },
        [400, 403, 404],
      ],
      [
        "POST",
        `/api/collections/chat_messages/records`,
        { ticket_id: x.A.support_tickets[0], sender_id: x.A.user.id, message: "B writes as A" },
        [400, 403, 404],
      ],
      [
        "POST",
        `/api/collections/support_tickets/records`,
        { user_id: x.A.user.id, subject: "A ticket for A by B", priority: "low" },
        [400, 403, 404],
      ],
      ["POST", `/api/admin/users/${x.A.user.id}/balance`, { transaction_type: "DEBIT", amount_cents: 1, description: "B steals" }, [403]],
      ["POST", `/api/admin/orders/${x.A.proxy_orders[0]}/refund`, { reason: "B refunds A" }, [403]],
      ["GET", `/api/admin/users/${x.A.user.id}`, undefined, [403]],
      ["GET", `/api/admin/support/tickets/${x.A.support_tickets[0]}`, undefined, [403]],
      ["GET", `/api/admin/proxies/${proxyOfA}`, undefined, [403]],
    ];
    for (const [method, path, body, expected] of attempts) {
      const res = await call(method, path, { body, headers: { "Idempotency-Key": randomUUID() } });
      expect(expected, `${method} ${path}: ${res.status} ${res.text.slice(0, 200)}`).toContain(res.status);
      expectNothingOfA(res.text, `${method} ${path}`, `${path} ${JSON.stringify(body ?? null)}`);
      if (res.status === 200) {
        // The ticket route makes B's own ticket whatever user_id says.
        const ticket = (JSON.parse(res.text) as { ticket: RecordModel }).ticket;
        expect(ticket["user_id"]).toBe(x.hs.B.user.id);
      }
    }
    const changed = changedTables(before, await x.db.take());
    // Only B's own new ticket and its first message.
    expect(changed).toEqual(["chat_messages", "support_tickets"]);
    const ticketsOfA = await x.hs.su.collection("support_tickets").getFullList({ filter: `user_id = "${x.A.user.id}"` });
    expect(ticketsOfA.map((t) => t.id)).toEqual(x.A.support_tickets);
    const messagesOfA = await x.hs.su.collection("chat_messages").getFullList({ filter: `ticket_id.user_id = "${x.A.user.id}"` });
    expect(messagesOfA.map((m) => m.id).sort()).toEqual([...x.A.chat_messages].sort());
  });

  it("B's own custom-route reads show nothing of A's", async () => {
    for (const path of [
      "/api/v1/affiliate",
      "/api/v1/proxies/countries",
      "/api/v1/proxies/prices",
      "/api/v1/credits/packages",
      "/api/v1/proxies/stock?type=RESIDENTIAL",
    ]) {
      const res = await call("GET", path);
      expect(res.status, path).toBe(200);
      expectNothingOfA(res.text, path);
    }
    const countries = JSON.parse((await call("GET", "/api/v1/proxies/countries")).text) as string[];
    const countriesOfA = await x.A.user.pb.send<string[]>("/api/v1/proxies/countries", {});
    expect(countries.filter((c) => countriesOfA.includes(c) && !c.startsWith("HB"))).toEqual([]);
  });
});

liveCrossAccountCases();
apiCrossAccountCases();
