// Dead upstreams leave stock (issue #28 item 1): an upstream the gateway marks failing for
// longer than the upstream_offline_after_seconds setting is not offered, not sold and not
// counted, and comes back once the gateway's probe reaches it again; a sold proxy whose exit
// dies gets a healthy exit of its type and place with the same credentials, and only when
// none is in stock is its owner mailed once, its card marked and a pro-rata refund offered
// (once, in the ledger). The job is polled (run until it has acted), never waited for.
import { createServer, type Server } from "node:net";
import { randomUUID } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { adminGet, adminSend } from "../support/admin.ts";
import { useGatewayShop } from "../support/gateway-shop.ts";
import { freePort } from "../support/pocketbase.ts";
import { waitForMail } from "../support/smtp-sink.ts";
import { addStock, customer, ledgerOf, purchase } from "../support/shop.ts";
import {
  exitThrough,
  expectSameCredentials,
  healthUntil,
  keyedPost,
  newPlace,
  offered,
  runHealthJob,
  storedProxy,
} from "./cases/upstream-kit.ts";

const shop = await useGatewayShop({ mail: true, env: { GATEWAY_PROBE_SECONDS: "1" } });
const TEN_MINUTES_AGO = () => Date.now() - 600_000;
const listeners: Server[] = [];

/** Something listening on loopback `port` (an upstream that answers again). */
async function listenOn(port = 0): Promise<number> {
  const server = createServer((socket) => socket.end());
  listeners.push(server);
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return (server.address() as { port: number }).port;
}

afterAll(async () => {
  for (const s of listeners) await new Promise((resolve) => s.close(resolve));
});

describe("a failing upstream in stock", () => {
  it("leaves stock after the set time (a System Setting) and comes back when it answers again", async () => {
    // Marked failing while the setting is its default (120 s): still offered, whatever job runs meanwhile.
    const place = newPlace();
    const [dead, healthy] = await addStock(shop, { type: "DATACENTER", country: place, count: 2 });
    const port = await freePort();
    exitThrough(shop.tpb, [dead!], port, Date.now());
    const buyer = await customer(shop, 10_000);
    expect(await offered(buyer.pb, "DATACENTER", place)).toBe(2);
    const settings = await adminGet(shop.admin, "/api/admin/settings");
    expect(settings).toMatchObject({ upstream_offline_after_seconds: 120 });
    await adminSend(shop.admin, "/api/admin/settings", { ...settings, upstream_offline_after_seconds: 1 }, "PUT");

    await healthUntil(shop, async () => (await storedProxy(shop, dead!))["status"] === "MAINTENANCE", "withdraw the failing proxy");
    expect(await storedProxy(shop, dead!)).toMatchObject({ status: "MAINTENANCE", withdrawn_at: expect.stringMatching(/^20/) });
    expect(await storedProxy(shop, healthy!)).toMatchObject({ status: "AVAILABLE", withdrawn_at: "" });
    expect(await offered(buyer.pb, "DATACENTER", place)).toBe(1);
    const failing = await adminGet<{ items: { id: string }[] }>(shop.admin, `/api/admin/proxies?failing=true&country=${place}&perPage=100`);
    expect(failing.items.map((p) => p.id)).toEqual([dead]);
    // Not sold: the one healthy proxy is, a second is refused.
    await purchase(buyer.pb, { type: "DATACENTER", country: place, quantity: 1 });
    const refused = await keyedPost(shop.tpb, buyer.pb, "/api/v1/proxies/purchase", randomUUID(), {
      type: "DATACENTER",
      country: place,
      quantity: 1,
    });
    expect(refused.status).toBe(409);

    // The upstream answers: the gateway's probe clears the mark, the job puts it back.
    await listenOn(port);
    await healthUntil(shop, async () => (await storedProxy(shop, dead!))["status"] === "AVAILABLE", "return the proxy to stock");
    expect(await storedProxy(shop, dead!)).toMatchObject({ upstream_failed_at: "", withdrawn_at: "" });
    expect(await offered(buyer.pb, "DATACENTER", place)).toBe(1);
    await adminSend(shop.admin, "/api/admin/settings", { ...settings, upstream_offline_after_seconds: 120 }, "PUT");
  });

  it("stays on sale while its failure is younger than the setting", async () => {
    const place = newPlace();
    const [proxy] = await addStock(shop, { type: "DATACENTER", country: place, count: 1 });
    exitThrough(shop.tpb, [proxy!], await freePort(), Date.now());
    expect((await runHealthJob(shop)).withdrawn).toBe(0);
    expect(await storedProxy(shop, proxy!)).toMatchObject({ status: "AVAILABLE" });
  });
});

describe("a sold proxy whose exit dies", () => {
  async function soldDead(place: string) {
    const [sold] = await addStock(shop, { type: "DATACENTER", country: place, count: 1 });
    const owner = await customer(shop, 10_000);
    const bought = (await purchase(owner.pb, { type: "DATACENTER", country: place, quantity: 1 })).proxies[0]!;
    exitThrough(shop.tpb, [sold!], await freePort(), TEN_MINUTES_AGO());
    return { owner, bought, id: sold! };
  }

  it("gets a healthy exit of its type and place from stock, with the same credentials, and no mail", async () => {
    const place = newPlace();
    const { owner, bought, id } = await soldDead(place);
    const [spare] = await addStock(shop, { type: "DATACENTER", country: place, count: 1 });
    const livePort = await listenOn();
    exitThrough(shop.tpb, [spare!], livePort, null);
    const deadPort = (await storedProxy(shop, id))["upstream_port"];

    await healthUntil(shop, async () => (await storedProxy(shop, id))["upstream_port"] === livePort, "replace the dead exit");
    expect(await storedProxy(shop, id)).toMatchObject({
      status: "ASSIGNED",
      assigned_to_user_id: owner.id,
      upstream_failed_at: "",
      exit_down_at: "",
    });
    expectSameCredentials(bought, await owner.pb.collection("proxies").getOne(id));
    expect(await storedProxy(shop, spare!)).toMatchObject({
      status: "MAINTENANCE",
      upstream_port: deadPort,
      withdrawn_at: expect.stringMatching(/^20/),
    });
    const activity = await owner.pb.send<{ items: { kind: string }[] }>("/api/v1/activity", {});
    expect(activity.items.map((a) => a.kind)).toContain("proxy_replaced");
    expect(shop.mailbox.sink.messages.filter((m) => m.to.includes(owner.email.toLowerCase()) && /not working/.test(m.subject))).toEqual([]);
  });

  it("with none in stock: mails the owner once, marks the card and offers a pro-rata refund, paid once", async () => {
    const { owner, bought, id } = await soldDead(newPlace());
    await healthUntil(shop, async () => !!(await owner.pb.collection("proxies").getOne(id))["exit_down_at"], "mark the exit down");
    const mail = await waitForMail(shop.mailbox.sink, owner.email, /is not working/);
    expect(mail.text).toContain(`${bought.username}`);
    expect(mail.text).toContain("refund");
    await runHealthJob(shop);
    expect(
      shop.mailbox.sink.messages.filter((m) => m.to.includes(owner.email.toLowerCase()) && /not working/.test(m.subject)),
    ).toHaveLength(1);
    const preview = await owner.pb.send(`/api/v1/proxies/${id}/replacement`, {});
    expect(preview).toMatchObject({ in_stock: false, counts: false, charge_cents: 0 });

    const before = await ledgerOf(shop, owner.id);
    const key = randomUUID();
    const refund = await keyedPost(shop.tpb, owner.pb, `/api/v1/proxies/${id}/refund`, key);
    expect(refund.status).toBe(200);
    const unit = -(before.rows.find((r) => r["type"] === "PROXY_PURCHASE")!["amount_cents"] as number);
    expect(refund.body["refunded_cents"]).toBeGreaterThanOrEqual(unit - 1);
    expect(refund.body["refunded_cents"]).toBeLessThanOrEqual(unit);
    expect(refund.body["balance_cents"]).toBe(before.balance + (refund.body.refunded_cents ?? 0));
    const again = await keyedPost(shop.tpb, owner.pb, `/api/v1/proxies/${id}/refund`, key);
    expect(again).toMatchObject({ status: 200, replayed: "true", body: refund.body });
    expect((await keyedPost(shop.tpb, owner.pb, `/api/v1/proxies/${id}/refund`)).status).toBe(404);
    const after = await ledgerOf(shop, owner.id);
    expect(after.rows.filter((r) => r["type"] === "REFUND")).toHaveLength(1);
    expect(after.balance).toBe(before.balance + (refund.body.refunded_cents ?? 0));
    expect(await storedProxy(shop, id)).toMatchObject({ status: "MAINTENANCE", assigned_to_user_id: "", exit_down_at: "" });
  });

  it("refuses a refund here while the exit works", async () => {
    const place = newPlace();
    await addStock(shop, { type: "DATACENTER", country: place, count: 1 });
    const owner = await customer(shop, 10_000);
    const { id } = (await purchase(owner.pb, { type: "DATACENTER", country: place, quantity: 1 })).proxies[0]!;
    const refused = await keyedPost(shop.tpb, owner.pb, `/api/v1/proxies/${id}/refund`);
    expect(refused.status).toBe(409);
    expect(refused.body["message"]).toBe("Only a proxy whose exit is down can be refunded here; for other refunds contact support.");
    expect((await ledgerOf(shop, owner.id)).rows.filter((r) => r["type"] === "REFUND")).toEqual([]);
  });
});
