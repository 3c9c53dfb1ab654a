// Security review (issue #13), the operations findings: demo accounts cannot be changed or
// spend while demo mode is on (finding 5); a proxy's owner, status and term are written by
// the server only, never through the records API (finding 6); no secret in process
// arguments or request logs, and no mail sink on a public host (finding 9); and `npm start`
// refuses a half-configured Stripe and says which payment provider runs (finding 2).
import type { RecordModel } from "pocketbase";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { adminSend } from "../support/admin.ts";
import { errorOf, startTestPocketBase, type TestPocketBase } from "../support/pocketbase.ts";
import { addStock, customer, expectEveryBalanceMatchesItsLedger, purchase, shopClients, type Shop } from "../support/shop.ts";

const PROXY_FIELDS_MESSAGE = /cannot be set through the records API: change them in the console's Proxy Management/;

describe("finding 6: a proxy's owner, status and term are never written through the records API", () => {
  let tpb: TestPocketBase;
  let shop: Shop;

  beforeAll(async () => {
    tpb = await startTestPocketBase();
    shop = await shopClients(tpb);
  });
  afterAll(async () => {
    await tpb?.stop();
  });
  afterEach(async () => {
    await expectEveryBalanceMatchesItsLedger(shop.su);
  });

  /** A proxy a new customer bought (ASSIGNED, theirs, 30 days, auto-renew off). */
  async function ownedProxy(): Promise<{ proxy: RecordModel; owner: string }> {
    const country = `F${Date.now().toString(36).slice(-4).toUpperCase()}`;
    await addStock(shop, { country, count: 1 });
    const buyer = await customer(shop, 5000);
    const res = await purchase(buyer.pb, { type: "RESIDENTIAL", country, quantity: 1 });
    return { proxy: res.proxies[0]!, owner: buyer.id };
  }

  const stockBody = (tag: string) => ({
    host: `f6-${tag}-${Date.now()}.test`,
    port: 8080,
    username: "u",
    password: "Secret#1",
    type: "HTTP",
    country: "US",
  });

  it("finding 6: creating a proxy with an owner, a status other than Available, an expiry or auto-renew is refused, superusers included", async () => {
    const { owner } = await ownedProxy();
    for (const [who, pb] of [
      ["superuser", shop.su],
      ["admin", shop.admin],
    ] as const) {
      for (const extra of [
        { status: "ASSIGNED", assigned_to_user_id: owner, expires_at: "2099-01-01 00:00:00.000Z" },
        { status: "AVAILABLE", assigned_to_user_id: owner },
        { status: "MAINTENANCE" },
        { status: "AVAILABLE", expires_at: "2099-01-01 00:00:00.000Z" },
        { status: "AVAILABLE", auto_renew: true },
        { status: "AVAILABLE", expiry_notice_sent_at: "2099-01-01 00:00:00.000Z" },
      ]) {
        const body = { ...stockBody(who), ...extra };
        const err = await errorOf(() => pb.collection("proxies").create(body));
        expect(err.status, `${who} ${JSON.stringify(extra)}`).toBe(403);
        expect(err.response["message"]).toMatch(/A new proxy starts Available, with no owner, expiry or auto-renewal/);
        const stored = await shop.su.collection("proxies").getList(1, 1, { filter: shop.su.filter("host = {:h}", { h: body.host }) });
        expect(stored.totalItems).toBe(0);
      }
      // Stock is still made through the API.
      const stock = await pb.collection("proxies").create({ ...stockBody(`${who}-ok`), status: "AVAILABLE" });
      expect(stock).toMatchObject({ status: "AVAILABLE", assigned_to_user_id: "", expires_at: "", auto_renew: false });
    }
  });

  it("finding 6: an update never changes a proxy's owner, status, expiry, auto-renew or notice, superusers included (403, row unchanged)", async () => {
    const { proxy, owner } = await ownedProxy();
    const other = await customer(shop);
    const before = await shop.su.collection("proxies").getOne(proxy.id);
    expect(before).toMatchObject({ status: "ASSIGNED", assigned_to_user_id: owner });
    for (const [who, pb] of [
      ["superuser", shop.su],
      ["admin", shop.admin],
    ] as const) {
      for (const body of [
        { assigned_to_user_id: other.id },
        { assigned_to_user_id: "" },
        { status: "AVAILABLE" },
        { status: "EXPIRED" },
        { expires_at: "2099-01-01 00:00:00.000Z" },
        { auto_renew: true },
        { expiry_notice_sent_at: "2026-01-01 00:00:00.000Z" },
        { city: "Springfield", status: "AVAILABLE", assigned_to_user_id: "", expires_at: "" },
      ]) {
        const err = await errorOf(() => pb.collection("proxies").update(proxy.id, body));
        expect(err.status, `${who} ${JSON.stringify(body)}`).toBe(403);
        expect(err.response["message"]).toMatch(PROXY_FIELDS_MESSAGE);
      }
    }
    expect(await shop.su.collection("proxies").getOne(proxy.id)).toEqual(before);
    // Other fields still change (the password through the records API is sealed and audited).
    const updated = await shop.admin.collection("proxies").update(proxy.id, { city: "Springfield" });
    expect(updated).toMatchObject({ city: "Springfield", status: "ASSIGNED", assigned_to_user_id: owner });
  });

  it("finding 6: the console's audited route releases a customer's proxy with a new password", async () => {
    const { proxy, owner } = await ownedProxy();
    const released = await adminSend<RecordModel>(shop.admin, `/api/admin/proxies/${proxy.id}`, { status: "AVAILABLE" }, "PATCH");
    expect(released).toMatchObject({ status: "AVAILABLE", assigned_to_user_id: "", expires_at: "", auto_renew: false });
    expect(released["password"]).not.toBe(proxy["password"]);
    const audit = await shop.su.collection("audit_logs").getFirstListItem(shop.su.filter("target_id = {:id}", { id: proxy.id }));
    expect(audit).toMatchObject({ action: "proxies.update" });
    expect(audit["details"]).toMatchObject({
      changes: { status: { from: "ASSIGNED", to: "AVAILABLE" }, assigned_to_user_id: { from: owner, to: "" }, password: { changed: true } },
    });
  });
});
