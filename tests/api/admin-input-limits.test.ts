// The admin's forms answer in words (issue #15, "The admin's tools" and "Smaller defects"):
// a balance adjustment over the limit and a plan price over the maximum are refused with
// a sentence naming the limit (no internal field names), the valid cases still pass, and
// the proxy batches count "1 proxy" for one.
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { adminSend } from "../support/admin.ts";
import { createTestUser, errorOf, fieldErrorsOf } from "../support/pocketbase.ts";
import { ledgerOf } from "../support/shop.ts";
import { useShop } from "../support/use-shop.ts";

const shop = useShop();
const tag = () => randomUUID().slice(0, 8);

function adjust(userId: string, transaction_type: string, amount_cents: number) {
  return shop.admin.send<{ balance_cents: number }>(`/api/admin/users/${userId}/balance`, {
    method: "POST",
    body: { transaction_type, amount_cents, description: "limit test" },
    headers: { "Idempotency-Key": randomUUID() },
  });
}

describe("balance adjustment limit", () => {
  it("refuses $100,000,000 with a sentence naming the $1,000,000.00 limit, in words", async () => {
    const user = await createTestUser(shop.su);
    for (const type of ["CREDIT", "DEBIT"]) {
      const err = await errorOf(() => adjust(user.id, type, 10_000_000_000));
      expect(err.status).toBe(400);
      expect(err.message).toBe("Amount must be at most $1,000,000.00 per adjustment.");
      expect(err.message).not.toMatch(/amount_cents|\d{6,}/);
      expect(fieldErrorsOf(err)["amount_cents"]).toMatchObject({
        code: "validation_max_amount",
        message: expect.stringMatching(/^Amount must be at most \$1,000,000\.00 per adjustment\.?$/),
      });
    }
    expect((await ledgerOf(shop, user.id)).rows).toHaveLength(0);
  });

  it("still accepts an adjustment of exactly the limit", async () => {
    const user = await createTestUser(shop.su);
    expect((await adjust(user.id, "CREDIT", 100_000_000)).balance_cents).toBe(100_000_000);
    expect((await adjust(user.id, "DEBIT", 100_000_000)).balance_cents).toBe(0);
  });
});

describe("pricing plan price limit", () => {
  const valid = { type: "HTTP", price_cents: 250, features: ["Fast"], popular: false, active: false };
  const plansNamed = (name: string) =>
    shop.su.collection("pricing_plans").getFullList({ filter: shop.su.filter("name = {:name}", { name }) });

  it("refuses $99,999,999 on create and update with the $10,000.00 maximum in words", async () => {
    const name = `Huge ${tag()}`;
    const err = await errorOf(() => shop.admin.collection("pricing_plans").create({ ...valid, name, price_cents: 9_999_999_900 }));
    expect(err.status).toBe(400);
    expect(err.message).toBe("Price must be at most $10,000.00 per proxy.");
    expect(fieldErrorsOf(err)["price_cents"]).toMatchObject({
      message: expect.stringMatching(/^Price must be at most \$10,000\.00 per proxy\.?$/),
    });
    expect(await plansNamed(name)).toHaveLength(0);

    const plan = await shop.admin.collection("pricing_plans").create({ ...valid, name });
    const update = await errorOf(() => shop.admin.collection("pricing_plans").update(plan.id, { price_cents: 1_000_001 }));
    expect(update.status).toBe(400);
    expect(update.message).toBe("Price must be at most $10,000.00 per proxy.");
    expect(await shop.su.collection("pricing_plans").getOne(plan.id)).toMatchObject({ price_cents: 250 });
  });

  it("still accepts a price of exactly $10,000.00 and an ordinary one", async () => {
    const name = `Max ${tag()}`;
    const plan = await shop.admin.collection("pricing_plans").create({ ...valid, name, price_cents: 1_000_000 });
    expect(plan["price_cents"]).toBe(1_000_000);
    const cheap = await shop.admin.collection("pricing_plans").update(plan.id, { price_cents: 199 });
    expect(cheap["price_cents"]).toBe(199);
  });
});

describe("pricing plan features", () => {
  it("may name a fact's placeholder, and a placeholder the contract does not know is refused (issue #28)", async () => {
    const base = { type: "HTTP", price_cents: 250, popular: false, active: false };
    const plan = await shop.admin
      .collection("pricing_plans")
      .create({ ...base, name: `Facts ${tag()}`, features: ["Sticky sessions up to {session_max_hours} hours", "Plain {text"] });
    expect(plan["features"]).toEqual(["Sticky sessions up to {session_max_hours} hours", "Plain {text"]);
    const err = await errorOf(() => shop.admin.collection("pricing_plans").update(plan.id, { features: ["Up to {session_hours} hours"] }));
    expect(err.status).toBe(400);
    expect(fieldErrorsOf(err)["features"]).toMatchObject({
      message: expect.stringMatching(/^Unknown placeholder: use \{session_max_minutes\}, /),
    });
    expect((await shop.su.collection("pricing_plans").getOne(plan.id))["features"]).toEqual(plan["features"]);
  });
});

describe("generate quantity", () => {
  it("answers 'at least 1' for a negative quantity", async () => {
    const err = await errorOf(() => adminSend(shop.admin, "/api/admin/proxies/generate", { type: "HTTP", country: "US", quantity: -2 }));
    expect(err.status).toBe(400);
    expect(fieldErrorsOf(err)["quantity"]).toMatchObject({ message: expect.stringMatching(/^Quantity must be at least 1\.?$/) });
  });
});

describe("proxy batch messages count one proxy as '1 proxy'", () => {
  it("generate and import say 1 proxy for one and N proxies for more", async () => {
    const one = await adminSend<{ message: string }>(shop.admin, "/api/admin/proxies/generate", {
      type: "HTTP",
      country: "US",
      quantity: 1,
    });
    expect(one.message).toBe("Successfully generated 1 proxy");
    const two = await adminSend<{ message: string }>(shop.admin, "/api/admin/proxies/generate", {
      type: "HTTP",
      country: "US",
      quantity: 2,
    });
    expect(two.message).toBe("Successfully generated 2 proxies");

    const single = await adminSend<{ message: string }>(shop.admin, "/api/admin/proxies/import", { text: `one-${tag()}.test:8080:u:p` });
    expect(single.message).toBe("Successfully imported 1 proxy");
    const pair = await adminSend<{ message: string }>(shop.admin, "/api/admin/proxies/import", {
      text: `a-${tag()}.test:8080:u:p\nb-${tag()}.test:8080:u:p`,
    });
    expect(pair.message).toBe("Successfully imported 2 proxies");
  });
});
