// Cross-account (issue #8): customer B tries every read and write on customer A's rows:
// by id, by filter (A's e-mail, relation traversal, back-relations, @collection), by
// expand from B's own rows, through the custom routes with A's ids, through A's realtime
// topics while A's rows change, and through A's files with and without file tokens.
// Everything is refused or empty, and no answer or event B receives holds anything of A's
// (A's e-mail, ids, proxy credentials, ticket texts). Controls prove each channel works:
// A reads the same rows, and B's realtime subscriptions do deliver B's own changes.
import { randomUUID } from "node:crypto";
import { EventSource } from "eventsource";
import type PocketBase from "pocketbase";
import type { RecordModel } from "pocketbase";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestPocketBase } from "../support/pocketbase.ts";
import { addStock, credit, post, purchase } from "../support/shop.ts";
import { changedTables, dbSnapshotter, type DbSnapshotter } from "./support/db-snapshot.ts";
import { hostileShop, OWNED_COLLECTIONS, startStripeShop, type HostileShop, type OwnedRows } from "./support/fixtures.ts";

(globalThis as { EventSource?: unknown }).EventSource ??= EventSource;

let shopProcess: Awaited<ReturnType<typeof startStripeShop>>;
let tpb: TestPocketBase;
let hs: HostileShop;
let db: DbSnapshotter;
let A: OwnedRows;
let B: PocketBase;
/** Strings that identify A's data: none may appear in anything B receives. */
let secretsOfA: string[];

/** Per-user collections (A's ids in each are in A). */
const OWNED = OWNED_COLLECTIONS;

/** What links each collection's rows to their owner, for filters aimed at A. */
const OWNER_PATH: Record<(typeof OWNED)[number] | "users", string> = {
  users: "id",
  balances: "user_id",
  transactions: "user_id",
  proxies: "assigned_to_user_id",
  proxy_orders: "user_id",
  payments: "user_id",
  support_tickets: "user_id",
  chat_messages: "ticket_id.user_id",
  affiliates: "user_id",
  referrals: "affiliate_id.user_id",
  commissions: "affiliate_id.user_id",
};

function idsOfA(collection: (typeof OWNED)[number] | "users"): string[] {
  return collection === "users" ? [A.user.id] : A[collection];
}

/** Fails when `text` holds any of A's data, except what B sent itself (`sent`: B named that id). */
function expectNothingOfA(text: string, what: string, sent = ""): void {
  const found = secretsOfA.filter((secret) => text.includes(secret) && !sent.includes(secret));
  expect(found, `${what} holds A's data`).toEqual([]);
}

/** Raw call as B (or anyone with `token`), returning status and text. */
async function call(method: string, path: string, options: { token?: string; body?: unknown; headers?: Record<string, string> } = {}) {
  const headers: Record<string, string> = { ...(options.headers ?? {}) };
  const token = options.token ?? B.authStore.token;
  if (token) headers["Authorization"] = token;
  if (options.body !== undefined) headers["Content-Type"] = "application/json";
  const res = await fetch(tpb.url + path, {
    method,
    headers,
    ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
  });
  const text = await res.text();
  return { status: res.status, text };
}

beforeAll(async () => {
  shopProcess = await startStripeShop();
  tpb = shopProcess.tpb;
  hs = await hostileShop(tpb);
  A = hs.A;
  B = hs.B.user.pb;
  const su = hs.su;
  const proxiesOfA = await su.collection("proxies").getFullList({ filter: su.filter("assigned_to_user_id = {:id}", { id: A.user.id }) });
  const messagesOfA = await su
    .collection("chat_messages")
    .getFullList({ filter: su.filter("ticket_id.user_id = {:id}", { id: A.user.id }) });
  const ticketsOfA = await su.collection("support_tickets").getFullList({ filter: su.filter("user_id = {:id}", { id: A.user.id }) });
  const affiliateOfA = await su.collection("affiliates").getOne(A.affiliates[0]!);
  secretsOfA = [
    A.user.email,
    A.referred.email,
    affiliateOfA["code"] as string,
    ...OWNED.flatMap((c) => A[c]),
    A.user.id,
    ...proxiesOfA.flatMap((p) => [p["username"] as string, p["password"] as string]),
    ...ticketsOfA.map((t) => t["subject"] as string),
    ...messagesOfA.map((m) => m["message"] as string).filter((m) => !m.startsWith("Staff reply")),
    ...Object.values(A.attachments).flat(),
  ].filter((s) => s && s.length >= 6);
  db = dbSnapshotter(tpb.dataDir);
}, 180_000);

afterAll(async () => {
  db?.close();
  await shopProcess?.stop();
});

describe("customer B on customer A's rows", () => {
  it("A sees each of them (the control)", async () => {
    for (const collection of [...OWNED, "users" as const]) {
      for (const id of idsOfA(collection)) {
        expect((await A.user.pb.collection(collection).getOne(id)).id, `${collection}/${id}`).toBe(id);
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
    const before = await db.take();
    const attempts: Record<string, unknown> = {
      balances: { balance_cents: 0 },
      transactions: { amount_cents: 1 },
      proxies: { auto_renew: true, assigned_to_user_id: hs.B.user.id },
      proxy_orders: { status: "refunded" },
      payments: { status: "failed" },
      support_tickets: { status: "closed", user_id: hs.B.user.id },
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
    expect(changedTables(before, await db.take())).toEqual([]);
  });

  it("B's lists never return A's rows, whatever the filter aims at", async () => {
    const filters = (collection: keyof typeof OWNER_PATH): string[] => {
      const owner = OWNER_PATH[collection];
      const ownerRelation = owner === "id" ? null : owner;
      return [
        "",
        `id != ""`,
        `id = "${idsOfA(collection)[0]}"`,
        `${owner} = "${A.user.id}"`,
        `${owner} != "${hs.B.user.id}"`,
        ...(ownerRelation
          ? [
              `${ownerRelation}.email = "${A.user.email}"`,
              `${ownerRelation}.email ~ "${A.user.email.slice(0, 12)}"`,
              `${ownerRelation}.email ~ "%"`,
            ]
          : [`email = "${A.user.email}"`, `email ~ "%"`]),
        `(${owner} = "${hs.B.user.id}") || (${owner} = "${A.user.id}")`,
        `${owner} = @request.auth.id || 1 = 1`,
        `@request.auth.id != "" || id != ""`,
        `@collection.users.email ?= "${A.user.email}"`,
        `@collection.${collection}.id ?= "${idsOfA(collection)[0]}"`,
      ];
    };
    for (const collection of [...OWNED, "users" as const]) {
      const own = new Set(
        (await hs.su.collection(collection).getFullList({ filter: `${OWNER_PATH[collection]} = "${hs.B.user.id}"`, fields: "id" })).map(
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
      ["referrals", `referred_user_id.email = "${hs.B.referred.email}"`, `referred_user_id.email = "nobody@hostile.test"`],
      ["referrals", `referred_user_id.email ~ "${hs.B.referred.email.slice(0, 8)}"`, `referred_user_id.email ~ "zzzzzzzz"`],
      ["referrals", `referred_user_id.verified = true`, `referred_user_id.verified = false`],
      ["referrals", `referred_user_id.password_set = true`, `referred_user_id.password_set = false`],
      ["commissions", `payment_id.amount_cents > 0`, `payment_id.amount_cents < 0`],
      ["commissions", `payment_id.user_id.email = "${hs.B.referred.email}"`, `payment_id.user_id.email = "nobody@hostile.test"`],
      ["chat_messages", `sender_id.email = "${hs.adminUser.email}"`, `sender_id.email = "nobody@hostile.test"`],
      ["chat_messages", `sender_id.is_admin = true && sender_id.email ~ "admin"`, `sender_id.is_admin = true && sender_id.email ~ "zzzz"`],
      ["users", `transactions_via_user_id.user_id = "${A.user.id}"`, `transactions_via_user_id.user_id = "nobody"`],
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
    const allowed = new Set<string>([hs.B.user.id, ...OWNED.flatMap((c) => hs.B[c])]);
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
    const messages = await B.collection("chat_messages").getFullList({ expand: "sender_id" });
    expect(messages.some((m) => m["is_admin_message"] === true && !m.expand?.["sender_id"])).toBe(true);
  });

  it("B's custom-route calls with A's ids are refused and change nothing", async () => {
    const before = await db.take();
    const proxyOfA = A.proxies[0]!;
    const attempts: [string, string, unknown, number[]][] = [
      ["PATCH", `/api/v1/proxies/${proxyOfA}`, { auto_renew: true }, [404]],
      ["POST", `/api/v1/proxies/${proxyOfA}/regenerate-credentials`, undefined, [404]],
      ["POST", "/api/v1/proxies/renew", { proxy_ids: [proxyOfA] }, [404, 400, 409]],
      ["POST", "/api/v1/proxies/renew", { proxy_ids: [...hs.B.proxies, proxyOfA] }, [404, 400, 409]],
      ["POST", "/api/v1/support/tickets", { subject: "Posing as A", message: "Opening a ticket in A's name.", user_id: A.user.id }, [200]],
      [
        "POST",
        `/api/collections/chat_messages/records`,
        { ticket_id: A.support_tickets[0], sender_id: hs.B.user.id, message: "B writes into A's ticket" },
        [400, 403, 404],
      ],
      [
        "POST",
        `/api/collections/chat_messages/records`,
        { ticket_id: A.support_tickets[0], sender_id: A.user.id, message: "B writes as A" },
        [400, 403, 404],
      ],
      [
        "POST",
        `/api/collections/support_tickets/records`,
        { user_id: A.user.id, subject: "A ticket for A by B", priority: "low" },
        [400, 403, 404],
      ],
      ["POST", `/api/admin/users/${A.user.id}/balance`, { transaction_type: "DEBIT", amount_cents: 1, description: "B steals" }, [403]],
      ["POST", `/api/admin/orders/${A.proxy_orders[0]}/refund`, { reason: "B refunds A" }, [403]],
      ["GET", `/api/admin/users/${A.user.id}`, undefined, [403]],
      ["GET", `/api/admin/support/tickets/${A.support_tickets[0]}`, undefined, [403]],
      ["GET", `/api/admin/proxies/${proxyOfA}`, undefined, [403]],
    ];
    for (const [method, path, body, expected] of attempts) {
      const res = await call(method, path, { body, headers: { "Idempotency-Key": randomUUID() } });
      expect(expected, `${method} ${path}: ${res.status} ${res.text.slice(0, 200)}`).toContain(res.status);
      expectNothingOfA(res.text, `${method} ${path}`, `${path} ${JSON.stringify(body ?? null)}`);
      if (res.status === 200) {
        // The ticket route makes B's own ticket whatever user_id says.
        const ticket = (JSON.parse(res.text) as { ticket: RecordModel }).ticket;
        expect(ticket["user_id"]).toBe(hs.B.user.id);
      }
    }
    const changed = changedTables(before, await db.take());
    // Only B's own new ticket and its first message.
    expect(changed).toEqual(["chat_messages", "support_tickets"]);
    const ticketsOfA = await hs.su.collection("support_tickets").getFullList({ filter: `user_id = "${A.user.id}"` });
    expect(ticketsOfA.map((t) => t.id)).toEqual(A.support_tickets);
    const messagesOfA = await hs.su.collection("chat_messages").getFullList({ filter: `ticket_id.user_id = "${A.user.id}"` });
    expect(messagesOfA.map((m) => m.id).sort()).toEqual([...A.chat_messages].sort());
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
    const countriesOfA = await A.user.pb.send<string[]>("/api/v1/proxies/countries", {});
    expect(countries.filter((c) => countriesOfA.includes(c) && !c.startsWith("HB"))).toEqual([]);
  });
});

describe("A's files", () => {
  it("are served to A with A's file token, and to nobody else", async () => {
    const [messageId, files] = Object.entries(A.attachments).find(([, f]) => f.length > 0)!;
    const file = files[0]!;
    const url = (record: string, token: string, thumb = "") =>
      `${tpb.url}/api/files/chat_messages/${record}/${file}?${new URLSearchParams({ ...(token ? { token } : {}), ...(thumb ? { thumb } : {}) })}`;
    const tokenA = await A.user.pb.files.getToken();
    const tokenB = await B.files.getToken();
    expect((await fetch(url(messageId, tokenA))).status, "A's own file (the control)").toBe(200);

    const messageOfB = Object.keys(hs.B.attachments)[0]!;
    const attempts: [string, RequestInit?][] = [
      [url(messageId, "")],
      [url(messageId, tokenB)],
      [url(messageId, tokenB, "100x100")],
      [url(messageId, "", "100x100")],
      [url(messageId, "garbage.token.value")],
      [url(messageId, B.authStore.token)],
      [url(messageOfB, tokenB)],
      [url(messageId, ""), { headers: { Authorization: B.authStore.token } }],
      [`${tpb.url}/api/files/chat_messages/${messageId}/${encodeURIComponent(`../${messageId}/${file}`)}?token=${tokenB}`],
      [`${tpb.url}/api/files/pbc_102036695/${messageId}/${file}?token=${tokenB}`],
    ];
    for (const [target, init] of attempts) {
      const res = await fetch(target, init);
      const body = Buffer.from(await res.arrayBuffer());
      expect(res.status, target).toBeGreaterThanOrEqual(400);
      expect(res.status, target).toBeLessThan(500);
      expect(body.includes(Buffer.from("IHDR")), `${target} served the image`).toBe(false);
    }
  });
});

describe("A's realtime topics", () => {
  it("deliver nothing of A's to B while A's rows change, and B's own changes still reach B", async () => {
    const listener = tpb.client();
    listener.authStore.save(B.authStore.token, B.authStore.record);
    const received: { topic: string; data: unknown }[] = [];
    const topics: string[] = ["*", ...OWNED.flatMap((c) => [`${c}/*`, ...A[c].map((id) => `${c}/${id}`)]), `users/${A.user.id}`, "users/*"];
    const unsubscribers: (() => Promise<void>)[] = [];
    for (const topic of topics) {
      const [collection, record] = topic.includes("/") ? (topic.split("/") as [string, string]) : ["", ""];
      if (!collection) continue;
      for (const options of [{}, { expand: "user_id,ticket_id.user_id,assigned_to_user_id" }]) {
        unsubscribers.push(await listener.collection(collection).subscribe(record, (data) => received.push({ topic, data }), options));
      }
    }
    // Raw topics the SDK would not build: the whole collection without a record part, unknown names.
    await listener.realtime.subscribe("balances", (data) => received.push({ topic: "balances", data }));
    // The custom support topics (pb_hooks/lib/support/support-live.js) named after A's ticket and A.
    for (const topic of [`support/tickets/${A.support_tickets[0]}`, `support/users/${A.user.id}`]) {
      await listener.realtime.subscribe(topic, (data) => received.push({ topic, data }));
    }
    await listener.realtime.subscribe(
      `transactions/${A.transactions[0]}?options=${encodeURIComponent(JSON.stringify({ query: { filter: "1=1" } }))}`,
      (data) => received.push({ topic: "transactions?filter", data }),
    );

    try {
      // A's rows change: a purchase (balance, ledger, proxies, order), auto-renew, a message,
      // a staff reply and status change, a payment, new credentials.
      const country = `XA${randomUUID().slice(0, 4)}`;
      await addStock(hs, { type: "DATACENTER", country, count: 1 });
      await purchase(A.user.pb, { type: "DATACENTER", country, quantity: 1 });
      await A.user.pb.send(`/api/v1/proxies/${A.proxies[0]}`, { method: "PATCH", body: { auto_renew: true } });
      await A.user.pb.send(`/api/v1/proxies/${A.proxies[0]}/regenerate-credentials`, { method: "POST" });
      await A.user.pb
        .collection("chat_messages")
        .create({ ticket_id: A.support_tickets[0], sender_id: A.user.id, message: "A writes again" });
      await hs.admin
        .collection("chat_messages")
        .create({ ticket_id: A.support_tickets[0], sender_id: hs.adminUser.id, message: "Staff answers A" });
      await hs.admin.collection("support_tickets").update(A.support_tickets[0]!, { status: "pending" });
      await post(A.user.pb, "/api/v1/credits/checkout", { package_id: "package-10" });
      await credit(hs, A.user.id, 123);
      await A.user.pb.collection("users").update(A.user.id, { first_name: "Alicia" });

      // The control: B's own balance change reaches B on the same subscriptions.
      await credit(hs, hs.B.user.id, 77);
      const deadline = Date.now() + 10_000;
      while (!received.some((r) => (r.data as { record?: RecordModel }).record?.["user_id"] === hs.B.user.id) && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 100));
      }
      await new Promise((r) => setTimeout(r, 1000)); // late events of A's, if any

      const events = received.map((r) => JSON.stringify(r));
      expect(
        received.some((r) => (r.data as { record?: RecordModel }).record?.["user_id"] === hs.B.user.id),
        "B gets B's own balance event",
      ).toBe(true);
      expectNothingOfA(events.join("\n"), "B's realtime events");
      const owners = received.map((r) => (r.data as { record?: RecordModel }).record).filter(Boolean) as RecordModel[];
      for (const record of owners) {
        const owner = record["user_id"] ?? record["assigned_to_user_id"] ?? (record.collectionName === "users" ? record.id : undefined);
        if (owner !== undefined) expect(owner, JSON.stringify(record).slice(0, 200)).toBe(hs.B.user.id);
      }
    } finally {
      for (const unsubscribe of unsubscribers) await unsubscribe();
      await listener.realtime.unsubscribe();
    }
  });
});

describe("B's Idempotency-Key replays (security review, finding 1)", () => {
  it("a purchase B replays after its proxy went back to stock and A bought it shows nothing of A's", async () => {
    const country = `HR${randomUUID().slice(0, 4)}`;
    await addStock(hs, { country, count: 1 });
    const body = { type: "RESIDENTIAL", country, quantity: 1 };
    const key = randomUUID();
    const first = await purchase(B, body, key);
    await credit(hs, A.user.id, 1000);
    await post(hs.admin, `/api/admin/orders/${first.order.id}/refund`, { reason: "Replay drill" });
    const resold = (await purchase(A.user.pb, body)).proxies[0]!;

    const res = await call("POST", "/api/v1/proxies/purchase", { body, headers: { "Idempotency-Key": key } });
    expect(res.status).toBe(200);
    expect((JSON.parse(res.text) as { order: RecordModel }).order.id).toBe(first.order.id);
    for (const secret of [resold["username"], resold["password"], A.user.id, A.user.email]) {
      expect(res.text.includes(secret), "the replay holds A's proxy or account").toBe(false);
    }
  });
});
