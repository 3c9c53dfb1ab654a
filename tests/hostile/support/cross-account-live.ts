// Cross-account cases beyond the records: A's files, A's realtime topics and B's
// Idempotency-Key replays; run in cross-account.test.ts's shop.
import { randomUUID } from "node:crypto";
import type { RecordModel } from "pocketbase";
import { describe, expect, it } from "vitest";
import { addStock, credit, post, purchase } from "../../support/shop.ts";
import { call, expectNothingOfA, OWNED, x } from "./cross-account-kit.ts";

export function liveCrossAccountCases(): void {
  describe("A's files", () => {
    it("are served to A with A's file token, and to nobody else", async () => {
      const [messageId, files] = Object.entries(x.A.attachments).find(([, f]) => f.length > 0)!;
      const file = files[0]!;
      const url = (record: string, token: string, thumb = "") =>
        `${x.tpb.url}/api/files/chat_messages/${record}/${file}?${new URLSearchParams({ ...(token ? { token } : {}), ...(thumb ? { thumb } : {}) })}`;
      const tokenA = await x.A.user.pb.files.getToken();
      const tokenB = await x.B.files.getToken();
      expect((await fetch(url(messageId, tokenA))).status, "A's own file (the control)").toBe(200);

      const messageOfB = Object.keys(x.hs.B.attachments)[0]!;
      const attempts: [string, RequestInit?][] = [
        [url(messageId, "")],
        [url(messageId, tokenB)],
        [url(messageId, tokenB, "100x100")],
        [url(messageId, "", "100x100")],
        [url(messageId, "garbage.token.value")],
        [url(messageId, x.B.authStore.token)],
        [url(messageOfB, tokenB)],
        [url(messageId, ""), { headers: { Authorization: x.B.authStore.token } }],
        [`${x.tpb.url}/api/files/chat_messages/${messageId}/${encodeURIComponent(`../${messageId}/${file}`)}?token=${tokenB}`],
        [`${x.tpb.url}/api/files/pbc_102036695/${messageId}/${file}?token=${tokenB}`],
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
      const listener = x.tpb.client();
      listener.authStore.save(x.B.authStore.token, x.B.authStore.record);
      const received: { topic: string; data: unknown }[] = [];
      const topics: string[] = [
        "*",
        ...OWNED.flatMap((c) => [`${c}/*`, ...x.A[c].map((id) => `${c}/${id}`)]),
        `users/${x.A.user.id}`,
        "users/*",
      ];
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
      for (const topic of [`support/tickets/${x.A.support_tickets[0]}`, `support/users/${x.A.user.id}`]) {
        await listener.realtime.subscribe(topic, (data) => received.push({ topic, data }));
      }
      await listener.realtime.subscribe(
        `transactions/${x.A.transactions[0]}?options=${encodeURIComponent(JSON.stringify({ query: { filter: "1=1" } }))}`,
        (data) => received.push({ topic: "transactions?filter", data }),
      );

      try {
        // A's rows change: a purchase (balance, ledger, proxies, order), auto-renew, a message,
        // a staff reply and status change, a payment, new credentials.
        const country = `XA${randomUUID().slice(0, 4)}`;
        await addStock(x.hs, { type: "DATACENTER", country, count: 1 });
        await purchase(x.A.user.pb, { type: "DATACENTER", country, quantity: 1 });
        await x.A.user.pb.send(`/api/v1/proxies/${x.A.proxies[0]}`, { method: "PATCH", body: { auto_renew: true } });
        await x.A.user.pb.send(`/api/v1/proxies/${x.A.proxies[0]}/rotate`, { method: "POST" });
        await x.A.user.pb
          .collection("chat_messages")
          .create({ ticket_id: x.A.support_tickets[0], sender_id: x.A.user.id, message: "A writes again" });
        await x.hs.admin
          .collection("chat_messages")
          .create({ ticket_id: x.A.support_tickets[0], sender_id: x.hs.adminUser.id, message: "Staff answers A" });
        await x.hs.admin.collection("support_tickets").update(x.A.support_tickets[0]!, { status: "pending" });
        await post(x.A.user.pb, "/api/v1/credits/checkout", { package_id: "package-10" });
        await credit(x.hs, x.A.user.id, 123);
        await x.A.user.pb.collection("users").update(x.A.user.id, { first_name: "Alicia" });

        // The control: B's own balance change reaches B on the same subscriptions.
        await credit(x.hs, x.hs.B.user.id, 77);
        const deadline = Date.now() + 10_000;
        while (
          !received.some((r) => (r.data as { record?: RecordModel }).record?.["user_id"] === x.hs.B.user.id) &&
          Date.now() < deadline
        ) {
          await new Promise((r) => setTimeout(r, 100));
        }
        await new Promise((r) => setTimeout(r, 1000)); // late events of A's, if any

        const events = received.map((r) => JSON.stringify(r));
        expect(
          received.some((r) => (r.data as { record?: RecordModel }).record?.["user_id"] === x.hs.B.user.id),
          "B gets B's own balance event",
        ).toBe(true);
        expectNothingOfA(events.join("\n"), "B's realtime events");
        const owners = received.map((r) => (r.data as { record?: RecordModel }).record).filter(Boolean) as RecordModel[];
        for (const record of owners) {
          const owner = record["user_id"] ?? record["assigned_to_user_id"] ?? (record.collectionName === "users" ? record.id : undefined);
          if (owner !== undefined) expect(owner, JSON.stringify(record).slice(0, 200)).toBe(x.hs.B.user.id);
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
      await addStock(x.hs, { country, count: 1 });
      const body = { type: "RESIDENTIAL", country, quantity: 1 };
      const key = randomUUID();
      const first = await purchase(x.B, body, key);
      await credit(x.hs, x.A.user.id, 1000);
      await post(x.hs.admin, `/api/admin/orders/${first.order.id}/refund`, { reason: "Replay drill" });
      const resold = (await purchase(x.A.user.pb, body)).proxies[0]!;

      const res = await call("POST", "/api/v1/proxies/purchase", { body, headers: { "Idempotency-Key": key } });
      expect(res.status).toBe(200);
      expect((JSON.parse(res.text) as { order: RecordModel }).order.id).toBe(first.order.id);
      for (const secret of [resold["username"], resold["password"], x.A.user.id, x.A.user.email]) {
        expect(res.text.includes(secret), "the replay holds A's proxy or account").toBe(false);
      }
    });
  });
}
