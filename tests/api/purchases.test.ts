// Buying and keeping proxies against a real PocketBase: server prices, stock and balance
// checks that change nothing when they refuse, Idempotency-Key replays, concurrency,
// renewals, auto-renew, new credentials and the read routes. Every test ends with each
// balance equal to the sum of its ledger.
import { randomUUID } from "node:crypto";
import type { PurchaseResult } from "@/features/buy-proxies/api";
import { MAX_PURCHASE_QUANTITY } from "@/lib/catalog";
import { describe, expect, it } from "vitest";
import { errorOf, statusOf, fieldErrorsOf } from "../support/pocketbase.ts";
import { addStock, customer, DAY, ledgerOf, purchase } from "../support/shop.ts";
import { useShop } from "../support/use-shop.ts";
import { ownedProxyCases } from "./cases/owned-proxies.ts";

// Prices: the default plans make RESIDENTIAL 450 and DATACENTER 150 (cheapest active plan).
const shop = useShop();

const parse = (date: unknown) => Date.parse(String(date).replace(" ", "T"));

describe("POST /api/v1/proxies/purchase", () => {
  it("assigns stock, debits the server's price in one ledger row and answers the order", async () => {
    const country = "PT";
    await addStock(shop, { type: "RESIDENTIAL", country, state: "Lisbon", city: "Lisbon", count: 3 });
    await addStock(shop, { type: "RESIDENTIAL", country, state: "Porto", count: 2 });
    const buyer = await customer(shop, 5000);
    const before = Date.now();

    const res = await purchase(buyer.pb, {
      type: "residential",
      country,
      state: "Lisbon",
      quantity: 2,
      price_cents: 1,
      unit_price_cents: 1,
    });

    expect(res.balance_cents).toBe(5000 - 2 * 450);
    expect(res.order).toMatchObject({
      kind: "purchase",
      proxy_type: "RESIDENTIAL",
      quantity: 2,
      total_cents: 900,
      status: "completed",
    });
    expect(res.proxies).toHaveLength(2);
    for (const proxy of res.proxies) {
      expect(proxy).toMatchObject({ status: "ASSIGNED", country, state: "Lisbon", auto_renew: false });
      expect(proxy["password"]).toBeTruthy();
      const expires = parse(proxy["expires_at"]);
      expect(expires).toBeGreaterThanOrEqual(before + 30 * DAY - 5000);
      expect(expires).toBeLessThanOrEqual(Date.now() + 30 * DAY + 5000);
    }
    const { rows } = await ledgerOf(shop, buyer.id);
    const spend = rows.filter((r) => r["type"] === "PROXY_PURCHASE");
    expect(spend).toHaveLength(1);
    expect(spend[0]).toMatchObject({ amount_cents: -900, reference: `order:${res.order.id}`, balance_after_cents: 4100 });
    expect(spend[0]!["description"]).toContain(`order ${res.order.id.slice(0, 8).toUpperCase()}`);
    expect(res.order.transaction_id).toBe(spend[0]!.id);
    // The customer sees them as theirs; stock went down by two.
    expect(await buyer.pb.collection("proxies").getFullList()).toHaveLength(2);
    expect(
      (await shop.su.collection("proxies").getList(1, 1, { filter: `country = "${country}" && status = "AVAILABLE"` })).totalItems,
    ).toBe(3);
  });

  it("charges the cheapest active plan of the type, else the built-in price", async () => {
    await addStock(shop, { type: "DATACENTER", country: "NO", count: 2 });
    const buyer = await customer(shop, 1000);
    const cheap = await shop.admin
      .collection("pricing_plans")
      .create({ name: "Cheap DC", type: "DATACENTER", price_cents: 90, features: ["x"], active: true });
    expect((await purchase(buyer.pb, { type: "DATACENTER", country: "NO", quantity: 1 })).order["total_cents"]).toBe(90);
    // No active datacenter plan at all: the built-in 100 cents.
    const plans = await shop.su.collection("pricing_plans").getFullList({ filter: 'type = "DATACENTER" && active = true' });
    for (const plan of plans) await shop.su.collection("pricing_plans").update(plan.id, { active: false });
    try {
      expect((await purchase(buyer.pb, { type: "DATACENTER", country: "NO", quantity: 1 })).order["total_cents"]).toBe(100);
    } finally {
      for (const plan of plans) if (plan.id !== cheap.id) await shop.su.collection("pricing_plans").update(plan.id, { active: true });
      await shop.su.collection("pricing_plans").delete(cheap.id);
    }
  });

  it.each([
    [{ country: "US", quantity: 1 }, "type", "Proxy type must be one of RESIDENTIAL, DATACENTER, SOCKS5, HTTP, HTTPS."],
    [{ type: "RESIDENTIAL", quantity: 1 }, "country", "Country is required."],
    [{ type: "RESIDENTIAL", country: "US", quantity: 0 }, "quantity", "Quantity must be at least 1."],
    [{ type: "RESIDENTIAL", country: "US", quantity: MAX_PURCHASE_QUANTITY + 1 }, "quantity", "Maximum 100 proxies per purchase."],
    [{ type: "RESIDENTIAL", country: "US", quantity: 1.5 }, "quantity", "Quantity must be a whole number."],
    [{ type: "RESIDENTIAL", country: "US", quantity: "3" }, "quantity", "Quantity must be a whole number."],
    [{ type: "RESIDENTIAL", country: "XX", quantity: 1 }, "country", "Unknown country XX."],
  ])("refuses %j with the field's message and changes nothing", async (body, field, message) => {
    const buyer = await customer(shop, 1000);
    const err = await errorOf(() => purchase(buyer.pb, body));
    expect(err.status).toBe(400);
    expect(fieldErrorsOf(err)[field]["message"]).toBe(message);
    expect((await ledgerOf(shop, buyer.id)).balance).toBe(1000);
    expect(await shop.su.collection("proxy_orders").getFullList({ filter: `user_id = "${buyer.id}"` })).toHaveLength(0);
  });

  it("needs an Idempotency-Key, a signed-in customer and a verified e-mail", async () => {
    await addStock(shop, { country: "IE", count: 1 });
    const buyer = await customer(shop, 1000);
    const body = { type: "RESIDENTIAL", country: "IE", quantity: 1 };
    expect((await errorOf(() => purchase(buyer.pb, body, null))).message).toMatch(/Idempotency-Key header is required/);
    expect(await statusOf(() => purchase(buyer.pb, body, "bad key with spaces"))).toBe(400);
    expect(await statusOf(() => purchase(shop.tpb.client(), body))).toBe(401);
    const unverified = await customer(shop, 1000, { verified: false });
    const err = await errorOf(() => purchase(unverified.pb, body));
    expect(err.status).toBe(403);
    expect(err.message).toMatch(/verify your email address/);
    expect((await shop.su.collection("proxies").getList(1, 1, { filter: 'country = "IE" && status = "AVAILABLE"' })).totalItems).toBe(1);
    expect((await ledgerOf(shop, unverified.id)).balance).toBe(1000);
  });

  it("refuses a purchase the balance does not cover, naming the shortfall, and charges nothing", async () => {
    await addStock(shop, { country: "BE", count: 3 });
    const buyer = await customer(shop, 1000);
    const err = await errorOf(() => purchase(buyer.pb, { type: "RESIDENTIAL", country: "BE", quantity: 3 }));
    expect(err.status).toBe(400);
    expect(err.message).toBe(
      "Insufficient balance: 3 Residential proxies cost $13.50 and your balance is $10.00. Add $3.50 in credits and try again.",
    );
    expect(fieldErrorsOf(err)["quantity"]["code"]).toBe("insufficient_balance");
    expect((await shop.su.collection("proxies").getList(1, 1, { filter: 'country = "BE" && status = "AVAILABLE"' })).totalItems).toBe(3);
    expect((await ledgerOf(shop, buyer.id)).rows).toHaveLength(1);
  });

  it("refuses a purchase the stock does not cover, naming what is there, and charges nothing", async () => {
    await addStock(shop, { country: "AT", state: "Vienna", count: 2 });
    await addStock(shop, { country: "AT", state: "Tyrol", count: 5 });
    const buyer = await customer(shop, 10_000);
    const err = await errorOf(() => purchase(buyer.pb, { type: "RESIDENTIAL", country: "AT", state: "Vienna", quantity: 3 }));
    expect(err.status).toBe(409);
    expect(err.message).toBe(
      "Not enough stock: only 2 Residential proxies available in AT / Vienna; you asked for 3. Choose fewer proxies or another location.",
    );
    const none = await errorOf(() => purchase(buyer.pb, { type: "DATACENTER", country: "AT", quantity: 1 }));
    expect(none.message).toMatch(/^Not enough stock: no Datacenter proxies available in AT;/);
    expect((await ledgerOf(shop, buyer.id)).balance).toBe(10_000);
    expect((await shop.su.collection("proxies").getList(1, 1, { filter: 'country = "AT" && status = "AVAILABLE"' })).totalItems).toBe(7);
  });

  it("answers a retry with the same key with the first order and buys once; another body with that key is refused", async () => {
    await addStock(shop, { country: "DK", count: 4 });
    const buyer = await customer(shop, 5000);
    const key = randomUUID();
    const body = { type: "RESIDENTIAL", country: "DK", quantity: 2 };
    const first = await purchase(buyer.pb, body, key);
    const again = await purchase(buyer.pb, { quantity: 2, country: "DK", type: "RESIDENTIAL" }, key);
    expect(again.order.id).toBe(first.order.id);
    expect(again.proxies.map((p) => p.id)).toEqual(first.proxies.map((p) => p.id));
    expect(again.balance_cents).toBe(first.balance_cents);

    const err = await errorOf(() => purchase(buyer.pb, { ...body, quantity: 1 }, key));
    expect(err.status).toBe(422);
    expect(err.message).toMatch(/Idempotency-Key was already used for a different request/);
    // The key belongs to this customer: another customer's same key is their own purchase.
    const other = await customer(shop, 5000);
    expect((await purchase(other.pb, body, key)).order.id).not.toBe(first.order.id);

    expect(await shop.su.collection("proxy_orders").getFullList({ filter: `user_id = "${buyer.id}"` })).toHaveLength(1);
    expect((await ledgerOf(shop, buyer.id)).balance).toBe(5000 - 900);
  });

  it("buys once when 100 concurrent requests replay one key", async () => {
    await addStock(shop, { country: "FI", count: 10 });
    const buyer = await customer(shop, 50_000);
    const key = randomUUID();
    const results = await Promise.allSettled(
      Array.from({ length: 100 }, () => purchase(buyer.pb, { type: "RESIDENTIAL", country: "FI", quantity: 2 }, key)),
    );
    const answers = results.filter((r): r is PromiseFulfilledResult<PurchaseResult> => r.status === "fulfilled").map((r) => r.value);
    expect(answers).toHaveLength(100);
    expect(new Set(answers.map((a) => a.order.id)).size).toBe(1);
    expect(await shop.su.collection("proxy_orders").getFullList({ filter: `user_id = "${buyer.id}"` })).toHaveLength(1);
    expect((await ledgerOf(shop, buyer.id)).balance).toBe(50_000 - 900);
    expect((await shop.su.collection("proxies").getList(1, 1, { filter: 'country = "FI" && status = "AVAILABLE"' })).totalItems).toBe(8);
  });

  it("never overspends or assigns a proxy twice under 50 concurrent purchases of one customer", async () => {
    const ids = await addStock(shop, { country: "SE", count: 60 });
    // Enough balance for 25 purchases of 2 (2 x 450 each), enough stock for 30.
    const buyer = await customer(shop, 25 * 900 + 100);
    const results = await Promise.allSettled(
      Array.from({ length: 50 }, () => purchase(buyer.pb, { type: "RESIDENTIAL", country: "SE", quantity: 2 })),
    );
    const ok = results.filter((r) => r.status === "fulfilled");
    expect(ok).toHaveLength(25);
    for (const r of results) {
      if (r.status === "rejected") expect((r.reason as { message: string }).message).toMatch(/^Insufficient balance/);
    }
    const { balance, rows } = await ledgerOf(shop, buyer.id);
    expect(balance).toBe(100);
    expect(rows.filter((r) => r["type"] === "PROXY_PURCHASE")).toHaveLength(25);
    const mine = await shop.su.collection("proxies").getFullList({ filter: `assigned_to_user_id = "${buyer.id}"` });
    expect(mine).toHaveLength(50);
    const orders = await shop.su.collection("proxy_orders").getFullList({ filter: `user_id = "${buyer.id}"` });
    const assigned = orders.flatMap((o) => (o["items"] as { id: string }[]).map((i) => i.id));
    expect(new Set(assigned).size).toBe(50);
    expect(assigned.every((id) => ids.includes(id))).toBe(true);
  });
});

ownedProxyCases(shop);
