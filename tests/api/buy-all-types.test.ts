// Every type with an active plan is for sale (issue #16), and locations are ISO countries:
// a SOCKS5 plan with SOCKS5 stock lists it and sells it, a type with a plan and no stock is
// out of stock, a type without a plan is refused with a clear message; the console's
// Generate and Import take any ISO country (free-text state and city where no list exists),
// write the old "UK" as GB, and refuse a code that is not a country.
import { describe, expect, it } from "vitest";
import type { Stock } from "@/features/buy-proxies/locations";
import { adminSend } from "../support/admin.ts";
import { errorOf, fieldErrorsOf } from "../support/pocketbase.ts";
import { addStock, customer, purchase } from "../support/shop.ts";
import { useShop } from "../support/use-shop.ts";
import { proxyConsole } from "./cases/console-proxies-kit.ts";

// A fresh shop: the default plans sell RESIDENTIAL, DATACENTER, SOCKS5 (300) and HTTPS (600); HTTP has no plan.
const shop = useShop();
const { sentence, tag, importText, auditCount, proxyCount } = proxyConsole(shop);

const generate = (body: Record<string, unknown>) =>
  adminSend<{ generated_count: number; ids: string[] }>(shop.admin, "/api/admin/proxies/generate", body);
const stockOf = (pb: Awaited<ReturnType<typeof customer>>["pb"], type: string) =>
  pb.send<Stock & { for_sale: boolean }>("/api/v1/proxies/stock", { query: { type } });
const prices = (pb: Awaited<ReturnType<typeof customer>>["pb"]) => pb.send<Record<string, number>>("/api/v1/proxies/prices", {});

describe("every type with an active plan is for sale", () => {
  it("lists generated SOCKS5 stock by country name and sells it at the plan's price", async () => {
    const made = await generate({ type: "SOCKS5", country: "NO", state: "Oslo", city: "Oslo", quantity: 3 });
    expect(made.generated_count).toBe(3);
    const buyer = await customer(shop, 10_000);

    expect(await prices(buyer.pb)).toMatchObject({ SOCKS5: 300, HTTPS: 600 });
    const stock = await stockOf(buyer.pb, "SOCKS5");
    expect(stock).toMatchObject({ type: "SOCKS5", for_sale: true, unit_price_cents: 300 });
    expect(stock.locations).toContainEqual({ country: "NO", country_name: "Norway", state: "Oslo", city: "Oslo", available: 3 });

    const order = await purchase(buyer.pb, { type: "socks5", country: "NO", state: "Oslo", quantity: 2 });
    expect(order.order).toMatchObject({ proxy_type: "SOCKS5", country: "NO", quantity: 2, total_cents: 600 });
    expect(order.balance_cents).toBe(10_000 - 600);
    for (const proxy of order.proxies) expect(proxy).toMatchObject({ type: "SOCKS5", country: "NO", status: "ASSIGNED" });
    const after = await stockOf(buyer.pb, "SOCKS5");
    expect(after.locations.find((l) => l.country === "NO")?.available).toBe(1);
  });

  it("shows a type with a plan and no stock as out of stock, and refuses to sell what is not there", async () => {
    const buyer = await customer(shop, 10_000);
    const stock = await stockOf(buyer.pb, "HTTPS");
    expect(stock).toMatchObject({ type: "HTTPS", for_sale: true, unit_price_cents: 600, locations: [] });
    const err = await errorOf(() => purchase(buyer.pb, { type: "HTTPS", country: "KE", quantity: 1 }));
    expect(err.status).toBe(409);
    expect(err.message).toBe(
      "Not enough stock: no HTTPS proxies available in KE; you asked for 1. Choose fewer proxies or another location.",
    );
  });

  it("refuses a type without an active plan with a clear message, even with stock, and charges nothing", async () => {
    await addStock(shop, { type: "HTTP", country: "KE", count: 2 });
    const buyer = await customer(shop, 10_000);
    expect(await prices(buyer.pb)).not.toHaveProperty("HTTP");
    expect(await stockOf(buyer.pb, "HTTP")).toMatchObject({ type: "HTTP", for_sale: false, unit_price_cents: 0 });
    const err = await errorOf(() => purchase(buyer.pb, { type: "HTTP", country: "KE", quantity: 1 }));
    expect(err.status).toBe(400);
    expect(err.message).toBe("HTTP proxies are not for sale right now.");
    expect((fieldErrorsOf(err) as Record<string, { code: string }>)["type"]?.code).toBe("not_for_sale");
    expect(await buyer.pb.collection("proxies").getFullList()).toHaveLength(0);

    // A plan for the type puts it on sale at once.
    const plan = await shop.admin
      .collection("pricing_plans")
      .create({ name: `HTTP ${tag()}`, type: "HTTP", price_cents: 250, features: ["Plain HTTP"], active: true });
    try {
      expect(await prices(buyer.pb)).toMatchObject({ HTTP: 250 });
      const order = await purchase(buyer.pb, { type: "HTTP", country: "KE", quantity: 1 });
      expect(order.order).toMatchObject({ proxy_type: "HTTP", total_cents: 250 });
    } finally {
      await shop.admin.collection("pricing_plans").delete(plan.id);
    }
    expect(await prices(buyer.pb)).not.toHaveProperty("HTTP");
  });
});

describe("locations are ISO 3166-1 countries", () => {
  it("generates and imports in any ISO country, with free-text states and cities where there is no list", async () => {
    const made = await generate({ type: "DATACENTER", country: "ke", state: " Nairobi County ", city: "Nairobi", quantity: 2 });
    expect(made.generated_count).toBe(2);
    const host = `ke-${tag()}.test`;
    const imported = await importText({
      text: `${host}:8080:u1:p1\n${host}:8081:u2:p2`,
      type: "RESIDENTIAL",
      country: "NO",
      state: "Vestland",
    });
    expect(imported.imported).toBe(2);
    // The old code of the United Kingdom is written as GB, its listed states still checked.
    const uk = await generate({ type: "DATACENTER", country: "UK", state: "Scotland", city: "Glasgow", quantity: 1 });
    expect(uk.generated_count).toBe(1);

    // Found by place (this shop stocks nothing else there); imported rows may carry the gateway's host.
    const rows = await shop.su.collection("proxies").getFullList({
      filter: shop.su.filter("id ?= {:a} || id ?= {:b} || id = {:c} || (country = 'NO' && type = 'RESIDENTIAL')", {
        a: made.ids[0],
        b: made.ids[1],
        c: uk.ids[0],
      }),
    });
    const places = rows.map((r) => [r["country"], r["state"], r["city"]].join("/")).sort();
    expect(places).toEqual([
      "GB/Scotland/Glasgow",
      "KE/Nairobi County/Nairobi",
      "KE/Nairobi County/Nairobi",
      "NO/Vestland/",
      "NO/Vestland/",
    ]);

    const buyer = await customer(shop, 0);
    const stock = await stockOf(buyer.pb, "DATACENTER");
    expect(stock.locations).toContainEqual({
      country: "KE",
      country_name: "Kenya",
      state: "Nairobi County",
      city: "Nairobi",
      available: 2,
    });
    expect(stock.locations).toContainEqual({
      country: "GB",
      country_name: "United Kingdom",
      state: "Scotland",
      city: "Glasgow",
      available: 1,
    });
  });

  it("answers every ISO country in the reference list, the listed ones with their states", async () => {
    const places = await shop.admin.send<Record<string, { name: string; states: Record<string, string[]> }>>(
      "/api/admin/proxies/locations",
      {},
    );
    const codes = Object.keys(places);
    expect(codes).toHaveLength(249);
    expect(codes).toEqual(expect.arrayContaining(["US", "CA", "GB", "DE", "FR", "AU", "JP", "BR", "NO", "KE"]));
    expect(places["GB"]).toMatchObject({ name: "United Kingdom" });
    expect(places["GB"]!.states["England"]).toContain("London");
    expect(places["KE"]).toEqual({ name: "Kenya", states: {} });
  });

  it.each([
    [
      { type: "HTTP", country: "XX", quantity: 1 },
      "country",
      "XX is not a country code: use an ISO 3166-1 two-letter code such as US, GB or DE",
    ],
    [
      { type: "HTTP", country: "Norway", quantity: 1 },
      "country",
      "NORWAY is not a country code: use an ISO 3166-1 two-letter code such as US, GB or DE",
    ],
    [{ type: "HTTP", country: "KE", state: "s".repeat(101), quantity: 1 }, "state", "State must be at most 100 characters"],
    [{ type: "HTTP", country: "KE", city: "Nairobi", quantity: 1 }, "state", "Choose a state before a city"],
    [{ type: "HTTP", country: "GB", state: "Yorkshire", quantity: 1 }, "state", "Yorkshire is not a state of United Kingdom in the list"],
  ])("Generate refuses %j with a message on %s, changing nothing", async (body, field, message) => {
    const before = { proxies: await proxyCount(), audits: await auditCount() };
    const err = await errorOf(() => generate(body));
    expect(err.status).toBe(400);
    expect(err.message).toBe(sentence(message));
    expect((fieldErrorsOf(err) as Record<string, { message: string }>)[field]?.message).toBe(sentence(message));
    expect(await proxyCount()).toBe(before.proxies);
    expect(await auditCount()).toBe(before.audits);
  });

  it("Import refuses a code that is not a country", async () => {
    const err = await errorOf(() => importText({ text: `bad-${tag()}.test:1:u:p`, country: "ZZ" }));
    expect(err.status).toBe(400);
    expect(err.message).toBe(sentence("ZZ is not a country code: use an ISO 3166-1 two-letter code such as US, GB or DE"));
  });
});
