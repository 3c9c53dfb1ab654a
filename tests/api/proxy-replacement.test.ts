// Replacement and assignment (issue #28 item 2): a customer replaces a proxy's IP within its
// term, up to the free replacements its plan gives a term, after a preview that charges
// nothing, keeping username and password; an admin assigns an Available proxy to a customer
// with an order at the price they choose ($0 included: no ledger row) or swaps a customer's
// proxy to another exit, each audited.
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { auditRows } from "../support/admin.ts";
import { addStock, customer, ledgerOf, post, purchase, setProxyColumns } from "../support/shop.ts";
import { useShop } from "../support/use-shop.ts";
import { expectSameCredentials, keyedPost, newPlace, storedProxy } from "./cases/upstream-kit.ts";

const shop = useShop();

/** `count` DATACENTER proxies in a new place, each exiting from its own bind address. */
async function stockWithExits(count: number) {
  const place = newPlace("R");
  const ids = await addStock(shop, { type: "DATACENTER", country: place, count });
  ids.forEach((id, i) => setProxyColumns(shop.tpb, [id], { bind_address: `203.0.113.${i + 1}` }));
  return { place, ids };
}

describe("a customer's replacement of a proxy's IP", () => {
  it("previews for free, swaps the exit keeping the credentials, and counts free replacements per term", async () => {
    const plans = await shop.su.collection("pricing_plans").getFullList({ filter: 'type = "DATACENTER"' });
    for (const plan of plans) await shop.su.collection("pricing_plans").update(plan.id, { replacements_per_term: 2 });
    const { place } = await stockWithExits(4);
    const owner = await customer(shop, 10_000);
    const bought = (await purchase(owner.pb, { type: "DATACENTER", country: place, quantity: 1 })).proxies[0]!;
    const paid = await ledgerOf(shop, owner.id);

    const preview = await owner.pb.send(`/api/v1/proxies/${bought.id}/replacement`, {});
    expect(preview).toEqual({
      proxy_id: bought.id,
      type: "DATACENTER",
      country: place,
      state: "",
      city: "",
      in_stock: true,
      replacements_per_term: 2,
      replacements_used: 0,
      replacements_left: 2,
      counts: true,
      charge_cents: 0,
    });

    const before = (await storedProxy(shop, bought.id))["bind_address"];
    const key = randomUUID();
    const first = await keyedPost(shop.tpb, owner.pb, `/api/v1/proxies/${bought.id}/replace`, key);
    expect(first.status).toBe(200);
    expectSameCredentials(bought, first.body.proxy ?? {});
    expect(first.body["replacement"]).toMatchObject({ replacements_used: 1, replacements_left: 1 });
    const after = (await storedProxy(shop, bought.id))["bind_address"];
    expect(after).not.toBe(before);
    // A retry with the key answers the same and counts nothing.
    expect(await keyedPost(shop.tpb, owner.pb, `/api/v1/proxies/${bought.id}/replace`, key)).toMatchObject({
      status: 200,
      replayed: "true",
      body: first.body,
    });
    expect((await keyedPost(shop.tpb, owner.pb, `/api/v1/proxies/${bought.id}/replace`)).body["replacement"]).toMatchObject({
      replacements_left: 0,
    });
    const refused = await keyedPost(shop.tpb, owner.pb, `/api/v1/proxies/${bought.id}/replace`);
    expect(refused.status).toBe(409);
    expect(refused.body["message"]).toBe(
      "No free replacements left: this proxy's plan gives 2 a term and they are used. Renew it to start a new term.",
    );
    expectSameCredentials(bought, await owner.pb.collection("proxies").getOne(bought.id));
    // Nothing was charged; a renewal starts a new term with its replacements.
    expect(await ledgerOf(shop, owner.id)).toMatchObject({ balance: paid.balance, sum: paid.sum });
    await post(owner.pb, "/api/v1/proxies/renew", { proxy_ids: [bought.id] });
    expect(await owner.pb.send(`/api/v1/proxies/${bought.id}/replacement`, {})).toMatchObject({ replacements_left: 2 });
    const activity = await owner.pb.send<{ items: { kind: string }[] }>("/api/v1/activity", {});
    expect(activity.items.filter((a) => a.kind === "proxy_replaced")).toHaveLength(2);
  });

  it("says when none is in stock and refuses another customer's proxy as missing", async () => {
    const { place } = await stockWithExits(1);
    const owner = await customer(shop, 10_000);
    const bought = (await purchase(owner.pb, { type: "DATACENTER", country: place, quantity: 1 })).proxies[0]!;
    expect(await owner.pb.send(`/api/v1/proxies/${bought.id}/replacement`, {})).toMatchObject({ in_stock: false });
    const none = await keyedPost(shop.tpb, owner.pb, `/api/v1/proxies/${bought.id}/replace`);
    expect(none.status).toBe(409);
    expect(none.body["message"]).toBe(`No Datacenter proxy is in stock in ${place} to replace this one. Try again later.`);
    const stranger = await customer(shop);
    expect((await keyedPost(shop.tpb, stranger.pb, `/api/v1/proxies/${bought.id}/replace`)).status).toBe(404);
  });
});

describe("an admin's assignment from the console", () => {
  const assign = (id: string, body: Record<string, unknown>, key = randomUUID()) =>
    keyedPost(shop.tpb, shop.admin, `/api/admin/proxies/${id}/assign`, key, body);

  it("assigns at $0: an order and an audit row, no ledger row", async () => {
    const { ids } = await stockWithExits(1);
    const owner = await customer(shop, 1000);
    const res = await assign(ids[0]!, { user_id: owner.id, price_cents: 0 });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      user_id: owner.id,
      price_cents: 0,
      transaction_id: "",
      proxy: { status: "ASSIGNED", owner_email: owner.email },
    });
    const order = await shop.su.collection("proxy_orders").getOne(res.body.order_id ?? "");
    expect(order).toMatchObject({ user_id: owner.id, total_cents: 0, kind: "purchase", quantity: 1 });
    expect(await ledgerOf(shop, owner.id)).toMatchObject({ balance: 1000, sum: 1000 });
    const [audit] = await auditRows(shop.su, shop.su.filter("action = 'proxies.assign' && target_id = {:id}", { id: ids[0] }));
    expect(audit?.["details"]).toMatchObject({ user_id: owner.id, price_cents: 0, order_id: order.id });
    expect((await owner.pb.collection("proxies").getOne(ids[0]!))["status"]).toBe("ASSIGNED");
  });

  it("assigns at a price: charged once to the customer's balance, in the ledger, audited; refuses what it cannot", async () => {
    const { ids } = await stockWithExits(2);
    const owner = await customer(shop, 1000);
    const key = randomUUID();
    const res = await assign(ids[0]!, { user_id: owner.id, price_cents: 450 }, key);
    expect(res.status).toBe(200);
    expect(await assign(ids[0]!, { user_id: owner.id, price_cents: 450 }, key)).toMatchObject({
      status: 200,
      replayed: "true",
      body: res.body,
    });
    const ledger = await ledgerOf(shop, owner.id);
    const charge = ledger.rows.filter((r) => r["type"] === "PROXY_PURCHASE");
    expect(charge).toHaveLength(1);
    expect(charge[0]).toMatchObject({ amount_cents: -450, id: res.body["transaction_id"] });
    expect(ledger.balance).toBe(550);
    const [audit] = await auditRows(shop.su, shop.su.filter("action = 'proxies.assign' && target_id = {:id}", { id: ids[0] }));
    expect(audit?.["details"]).toMatchObject({ price_cents: 450, transaction_id: res.body["transaction_id"], balance_after_cents: 550 });

    expect((await assign(ids[0]!, { user_id: owner.id, price_cents: 0 })).status).toBe(409);
    const poor = await assign(ids[1]!, { user_id: owner.id, price_cents: 600 });
    expect(poor.status).toBe(400);
    expect((await storedProxy(shop, ids[1]!))["status"]).toBe("AVAILABLE");
    expect(
      (await keyedPost(shop.tpb, owner.pb, `/api/admin/proxies/${ids[1]}/assign`, randomUUID(), { user_id: owner.id, price_cents: 0 }))
        .status,
    ).toBe(403);
  });

  it("swaps a customer's proxy to another exit of its type and place, audited", async () => {
    const { place, ids } = await stockWithExits(2);
    const owner = await customer(shop, 10_000);
    const bought = (await purchase(owner.pb, { type: "DATACENTER", country: place, quantity: 1 })).proxies[0]!;
    const before = (await storedProxy(shop, bought.id))["bind_address"];
    const res = await keyedPost(shop.tpb, shop.admin, `/api/admin/proxies/${bought.id}/replace`);
    expect(res.status).toBe(200);
    expect((await storedProxy(shop, bought.id))["bind_address"]).not.toBe(before);
    expect(ids).toContain(bought.id);
    expectSameCredentials(bought, await owner.pb.collection("proxies").getOne(bought.id));
    const [audit] = await auditRows(shop.su, shop.su.filter("action = 'proxies.replace' && target_id = {:id}", { id: bought.id }));
    expect(audit?.["details"]).toMatchObject({ user_id: owner.id });
  });
});
