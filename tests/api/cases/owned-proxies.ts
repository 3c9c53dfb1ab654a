// Renewals, auto-renew, new credentials and the read routes of a customer's own proxies, run
// in purchases.test.ts's shop.
import { describe, expect, it } from "vitest";
import { errorOf, statusOf } from "../../support/pocketbase.ts";
import { addStock, customer, DAY, ledgerOf, post, purchase, setProxyColumns } from "../../support/shop.ts";
import type { ShopFixture } from "../../support/use-shop.ts";

const parse = (date: unknown) => Date.parse(String(date).replace(" ", "T"));

export function ownedProxyCases(shop: ShopFixture): void {
  describe("renewals", () => {
    it("renews one proxy or a selection for 30 more days at today's price in one ledger row", async () => {
      await addStock(shop, { country: "LU", count: 2 });
      await addStock(shop, { type: "DATACENTER", country: "LU", count: 1 });
      const buyer = await customer(shop, 5000);
      const res = await purchase(buyer.pb, { type: "RESIDENTIAL", country: "LU", quantity: 2 });
      const dc = await purchase(buyer.pb, { type: "DATACENTER", country: "LU", quantity: 1 });
      const [a, b] = res.proxies;
      const oldExpiry = parse(a!["expires_at"]);

      const one = await post(buyer.pb, "/api/v1/proxies/renew", { proxy_ids: [a!.id] });
      expect(one.order).toMatchObject({ kind: "renewal", quantity: 1, total_cents: 450 });
      expect(parse(one.proxies[0]!["expires_at"]) - oldExpiry).toBe(30 * DAY);

      const both = await post(buyer.pb, "/api/v1/proxies/renew", { proxy_ids: [b!.id, dc.proxies[0]!.id, b!.id] });
      expect(both.order).toMatchObject({ quantity: 2, total_cents: 450 + 150 });
      const { rows, balance } = await ledgerOf(shop, buyer.id);
      expect(rows.filter((r) => String(r["description"]).startsWith("Renewed"))).toHaveLength(2);
      expect(balance).toBe(5000 - 900 - 150 - 450 - 600);
    });

    it("renews an expired proxy of the customer from now, and refuses proxies that are not theirs", async () => {
      await addStock(shop, { country: "IS", count: 2 });
      const buyer = await customer(shop, 5000);
      const res = await purchase(buyer.pb, { type: "RESIDENTIAL", country: "IS", quantity: 1 });
      const proxy = res.proxies[0]!;
      setProxyColumns(shop.tpb, [proxy.id], { status: "EXPIRED", expires_at: "2020-01-01 00:00:00.000Z" });
      const renewed = await post(buyer.pb, "/api/v1/proxies/renew", { proxy_ids: [proxy.id] });
      expect(renewed.proxies[0]).toMatchObject({ status: "ASSIGNED" });
      expect(Math.abs(parse(renewed.proxies[0]!["expires_at"]) - (Date.now() + 30 * DAY))).toBeLessThan(10_000);

      const stranger = await customer(shop, 5000);
      const err = await errorOf(() => post(stranger.pb, "/api/v1/proxies/renew", { proxy_ids: [proxy.id] }));
      expect(err.status).toBe(404);
      const stock = (await shop.su.collection("proxies").getFullList({ filter: 'country = "IS" && status = "AVAILABLE"' }))[0]!;
      expect(await statusOf(() => post(buyer.pb, "/api/v1/proxies/renew", { proxy_ids: [stock.id] }))).toBe(404);
      expect(await statusOf(() => post(buyer.pb, "/api/v1/proxies/renew", { proxy_ids: [] }))).toBe(400);
      expect(await statusOf(() => post(buyer.pb, "/api/v1/proxies/renew", { proxy_ids: "x" }))).toBe(400);
      expect((await ledgerOf(shop, stranger.id)).balance).toBe(5000);
    });

    it("refuses a renewal the balance does not cover and changes nothing", async () => {
      await addStock(shop, { country: "MT", count: 1 });
      const buyer = await customer(shop, 450);
      const res = await purchase(buyer.pb, { type: "RESIDENTIAL", country: "MT", quantity: 1 });
      const err = await errorOf(() => post(buyer.pb, "/api/v1/proxies/renew", { proxy_ids: [res.proxies[0]!.id] }));
      expect(err.message).toBe(
        "Insufficient balance: renewing 1 proxy costs $4.50 and your balance is $0.00. Add $4.50 in credits and try again.",
      );
      const proxy = await shop.su.collection("proxies").getOne(res.proxies[0]!.id);
      expect(String(proxy["expires_at"]).replace(" ", "T")).toBe(res.proxies[0]!["expires_at"]);
    });
  });

  describe("a customer's own proxies", () => {
    it("turns auto-renew on and off, for their own proxies only", async () => {
      await addStock(shop, { country: "CY", count: 1 });
      const buyer = await customer(shop, 1000);
      const proxy = (await purchase(buyer.pb, { type: "RESIDENTIAL", country: "CY", quantity: 1 })).proxies[0]!;
      const patch = (pb: typeof buyer.pb, body: unknown) => pb.send(`/api/v1/proxies/${proxy.id}`, { method: "PATCH", body });
      expect(await patch(buyer.pb, { auto_renew: true })).toMatchObject({ auto_renew: true });
      expect((await shop.su.collection("proxies").getOne(proxy.id))["auto_renew"]).toBe(true);
      expect(await statusOf(() => patch(buyer.pb, { auto_renew: "yes" }))).toBe(400);
      const stranger = await customer(shop);
      expect(await statusOf(() => patch(stranger.pb, { auto_renew: false }))).toBe(404);
      expect((await shop.su.collection("proxies").getOne(proxy.id))["auto_renew"]).toBe(true);
      // Customers still cannot edit proxies through the records API.
      expect(await statusOf(() => buyer.pb.collection("proxies").update(proxy.id, { auto_renew: false, status: "AVAILABLE" }))).toBe(404);
    });

    it("regenerates a proxy's password, for their own active proxies only", async () => {
      await addStock(shop, { country: "EE", count: 1 });
      const buyer = await customer(shop, 1000);
      const proxy = (await purchase(buyer.pb, { type: "RESIDENTIAL", country: "EE", quantity: 1 })).proxies[0]!;
      const fresh = await buyer.pb.send(`/api/v1/proxies/${proxy.id}/rotate`, { method: "POST" });
      expect(fresh["password"]).toMatch(/^[A-Za-z0-9]{20}$/);
      expect(fresh["password"]).not.toBe(proxy["password"]);
      expect((await shop.su.collection("proxies").getOne(proxy.id))["password"]).toBe(fresh["password"]);

      const stranger = await customer(shop);
      expect(await statusOf(() => stranger.pb.send(`/api/v1/proxies/${proxy.id}/rotate`, { method: "POST" }))).toBe(404);
      expect(await statusOf(() => shop.tpb.client().send(`/api/v1/proxies/${proxy.id}/rotate`, { method: "POST" }))).toBe(401);
      expect((await shop.su.collection("proxies").getOne(proxy.id))["password"]).toBe(fresh["password"]);
    });

    it("lists stock by place with counts, current prices, and the countries of my proxies", async () => {
      await addStock(shop, { type: "DATACENTER", country: "ZA", state: "Gauteng", city: "Johannesburg", count: 2 });
      await addStock(shop, { type: "DATACENTER", country: "ZA", state: "Gauteng", city: "Pretoria", count: 1 });
      const buyer = await customer(shop, 1000);
      const stock = await buyer.pb.send<{
        unit_price_cents: number;
        for_sale: boolean;
        locations: { country: string; country_name: string; state: string; city: string; available: number }[];
      }>("/api/v1/proxies/stock?type=DATACENTER", {});
      expect(stock.unit_price_cents).toBe(150);
      expect(stock.for_sale).toBe(true);
      expect(stock.locations.filter((l) => l.country === "ZA")).toEqual([
        { country: "ZA", country_name: "South Africa", state: "Gauteng", city: "Johannesburg", available: 2 },
        { country: "ZA", country_name: "South Africa", state: "Gauteng", city: "Pretoria", available: 1 },
      ]);
      expect(await statusOf(() => buyer.pb.send("/api/v1/proxies/stock?type=NOPE", {}))).toBe(400);
      expect(await statusOf(() => shop.tpb.client().send("/api/v1/proxies/stock?type=DATACENTER", {}))).toBe(401);
      expect(await buyer.pb.send("/api/v1/proxies/prices", {})).toMatchObject({
        RESIDENTIAL: 450,
        DATACENTER: 150,
        SOCKS5: 300,
        HTTPS: 600,
      });

      await purchase(buyer.pb, { type: "DATACENTER", country: "ZA", state: "Gauteng", city: "Pretoria", quantity: 1 });
      expect(await buyer.pb.send("/api/v1/proxies/countries", {})).toEqual(["ZA"]);
    });
  });
}
