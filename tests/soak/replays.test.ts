// Replays (issue #8): one payment webhook delivered 20 times, all at once and one after
// another, credits once (and pays the referrer's commission once); one purchase
// Idempotency-Key sent 100 times at once buys once and every 2xx answer is the same order;
// an admin's credit and refund keys sent 30 times at once move money once; Stripe's refund
// and dispute events (security review #13, finding 4) delivered 20 times each, and a
// dispute's close before its opening, reverse the credits and the commission once. The
// database then passes every money invariant.
import type PocketBase from "pocketbase";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkMoneyInvariants, integrityCheck } from "./support/invariants.ts";
import { sessionCompleted, stripeSignature } from "./support/load-payments.ts";
import type { Actor } from "./support/load.ts";
import { call, type Answer } from "./support/soak-client.ts";
import { queryRows } from "./support/sqlite.ts";
import { populate, startSoakShop, WEBHOOK_SECRET, type SoakShop } from "./support/soak-shop.ts";

let shop: SoakShop;
let su: PocketBase;
let admin: Actor;
let buyer: Actor;

beforeAll(async () => {
  shop = await startSoakShop("stripe");
  const population = await populate(shop, { seed: 77, customers: 1, startCents: 5000, stockPerPlace: 5 });
  admin = population.admin;
  buyer = population.customers[0] as Actor;
  su = await shop.superuser();
});
afterAll(async () => {
  await shop?.stop();
});

const post = (path: string, token: string | undefined, body: unknown, key: string) =>
  call(shop.url, "POST", path, { token, body, headers: { "Idempotency-Key": key } });

async function balanceOf(userId: string): Promise<number> {
  return (await su.collection("balances").getFirstListItem(`user_id = "${userId}"`))["balance_cents"] as number;
}

async function ledgerRows(userId: string, reference: string) {
  return su
    .collection("transactions")
    .getFullList({ filter: su.filter("user_id = {:userId} && reference ~ {:reference}", { userId, reference }) });
}

/** A verified customer who signed up with the admin's referral code, and that affiliate's id. */
async function customerReferredByAdmin(first: string, last: string) {
  const affiliate = await su.collection("affiliates").getFirstListItem(`user_id = "${admin.id}"`);
  const signup = await call(shop.url, "POST", "/api/shop/signup", {
    body: {
      first_name: first,
      last_name: last,
      email: `${first.toLowerCase()}-${Date.now()}@soak.test`,
      country: "Spain",
      ref: affiliate["code"],
    },
  });
  const referred = { id: (signup.body["record"] as { id: string }).id, token: String(signup.body["token"]) };
  await su.collection("users").update(referred.id, { verified: true });
  return { referred, affiliateId: affiliate.id };
}

/** Delivers a signed event 20 times (all at once or one after another); every answer 200, their outcomes. */
async function deliverTwenty(payload: string, concurrent: boolean): Promise<string[]> {
  const deliver = () =>
    call(shop.url, "POST", "/api/v1/payments/stripe/webhook", {
      raw: payload,
      headers: { "stripe-signature": stripeSignature(payload, WEBHOOK_SECRET) },
    });
  const answers: Answer[] = [];
  if (concurrent) answers.push(...(await Promise.all(Array.from({ length: 20 }, deliver))));
  else for (let i = 0; i < 20; i++) answers.push(await deliver());
  expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
  return answers.map((a) => String(a.body["outcome"]));
}

describe("one webhook delivered 20 times credits once", () => {
  let referred: { id: string; token: string };
  let affiliateId: string;

  beforeAll(async () => {
    // A customer referred by the admin, so each credit also earns one commission.
    ({ referred, affiliateId } = await customerReferredByAdmin("Ria", "Replay"));
  });

  it.each([
    ["all at once", true],
    ["one after another", false],
  ])("%s", async (_name, concurrent) => {
    const balanceBefore = await balanceOf(referred.id);
    const earningsBefore = (await su.collection("affiliates").getOne(affiliateId))["total_earnings_cents"] as number;
    const checkout = await post("/api/v1/credits/checkout", referred.token, { package_id: "package-50" }, `checkout-${String(concurrent)}`);
    expect(checkout.status).toBe(200);
    const payment = checkout.body["payment"] as Record<string, unknown>;
    const outcomes = await deliverTwenty(sessionCompleted(payment), concurrent);
    expect(outcomes.filter((o) => o === "credited")).toHaveLength(1);
    expect(outcomes.filter((o) => o === "already_paid")).toHaveLength(19);
    if (!concurrent) expect(outcomes[0]).toBe("credited");
    const id = String(payment["id"]);
    expect((await ledgerRows(referred.id, `payment:${id}`)).map((r) => r["amount_cents"])).toEqual([5000]);
    expect((await ledgerRows(referred.id, `payment-bonus:${id}`)).map((r) => r["amount_cents"])).toEqual([500]);
    expect(await balanceOf(referred.id)).toBe(balanceBefore + 5500);
    expect(await su.collection("commissions").getFullList({ filter: `payment_id = "${id}"` })).toHaveLength(1);
    expect((await su.collection("affiliates").getOne(affiliateId))["total_earnings_cents"]).toBe(earningsBefore + 900);
  });
});

describe("finding 4: refund and dispute events delivered 20 times reverse once", () => {
  let referred: { id: string; token: string };
  let affiliateId: string;

  beforeAll(async () => {
    ({ referred, affiliateId } = await customerReferredByAdmin("Reva", "Reversal"));
  });

  async function paid(key: string): Promise<Record<string, unknown>> {
    const checkout = await post("/api/v1/credits/checkout", referred.token, { package_id: "package-50" }, key);
    expect(checkout.status).toBe(200);
    const payment = checkout.body["payment"] as Record<string, unknown>;
    expect(await deliverTwenty(sessionCompleted(payment), true)).toContain("credited");
    return payment;
  }

  const chargeEvent = (type: string, object: Record<string, unknown>) =>
    JSON.stringify({ id: `evt_${type}_${String(object["id"])}_${Date.now()}`, type, data: { object } });

  it.each([
    ["all at once", true],
    ["one after another", false],
  ])("a full refund, %s", async (_name, concurrent) => {
    const payment = await paid(`reversal-refund-${String(concurrent)}`);
    const id = String(payment["id"]);
    const earningsBefore = (await su.collection("affiliates").getOne(affiliateId))["total_earnings_cents"] as number;
    const balanceBefore = await balanceOf(referred.id);
    const refund = chargeEvent("charge.refunded", {
      id: `ch_${id}`,
      payment_intent: `pi_${id}`,
      amount: 4500,
      amount_refunded: 4500,
      currency: "usd",
    });
    const outcomes = await deliverTwenty(refund, concurrent);
    expect(outcomes.filter((o) => o === "reversed")).toHaveLength(1);
    expect(outcomes.filter((o) => o === "already_reversed")).toHaveLength(19);
    expect((await ledgerRows(referred.id, `reversal:${id}:`)).map((r) => r["amount_cents"])).toEqual([-5500]);
    expect(await balanceOf(referred.id)).toBe(balanceBefore - 5500);
    expect((await su.collection("affiliates").getOne(affiliateId))["total_earnings_cents"]).toBe(earningsBefore - 900);
  });

  it("a dispute lost, its close delivered 20 times before its opening is delivered 20 times", async () => {
    const payment = await paid("reversal-dispute");
    const id = String(payment["id"]);
    const balanceBefore = await balanceOf(referred.id);
    const dispute = (type: string, status: string) =>
      chargeEvent(type, { id: `dp_${id}`, charge: `ch_${id}`, payment_intent: `pi_${id}`, amount: 4500, currency: "usd", status });
    const closed = await deliverTwenty(dispute("charge.dispute.closed", "lost"), true);
    expect(closed.filter((o) => o === "lost")).toHaveLength(1);
    expect(await deliverTwenty(dispute("charge.dispute.created", "needs_response"), true)).toEqual(Array(20).fill("already_closed"));
    expect((await ledgerRows(referred.id, `reversal:${id}:`)).map((r) => r["amount_cents"])).toEqual([-5500]);
    expect(await balanceOf(referred.id)).toBe(balanceBefore - 5500);
    expect(await su.collection("payments").getOne(id)).toMatchObject({ status: "disputed", dispute_status: "lost" });
  });
});

describe("one Idempotency-Key sent many times at once moves money once", () => {
  it("a purchase key sent 100 times: one order, one ledger row, the same answer to every 2xx reply", async () => {
    const before = await balanceOf(buyer.id);
    const body = { type: "DATACENTER", country: "US", state: "Texas", quantity: 2 };
    const answers = await Promise.all(Array.from({ length: 100 }, () => post("/api/v1/proxies/purchase", buyer.token, body, "buy-once")));
    expect(answers.map((a) => a.status)).toEqual(Array(100).fill(200));
    expect(answers.filter((a) => !a.replayed)).toHaveLength(1);
    const first = answers.find((a) => !a.replayed)?.body;
    for (const a of answers) expect(a.body).toEqual(first);

    const order = first?.["order"] as Record<string, unknown>;
    const orders = await queryRows(
      shop.dbFile,
      "SELECT id, total_cents FROM proxy_orders WHERE user_id = :user AND idempotency_key = 'buy-once'",
      { user: buyer.id },
    );
    expect(orders).toEqual([{ id: order["id"], total_cents: order["total_cents"] }]);
    expect((await ledgerRows(buyer.id, "order:")).map((r) => [r["reference"], r["amount_cents"]])).toEqual([
      [`order:${String(order["id"])}`, -Number(order["total_cents"])],
    ]);
    expect(await balanceOf(buyer.id)).toBe(before - Number(order["total_cents"]));
    expect(first?.["balance_cents"]).toBe(before - Number(order["total_cents"]));
    const assigned = await su.collection("proxies").getFullList({ filter: `assigned_to_user_id = "${buyer.id}"` });
    expect(assigned.map((p) => p.id).sort()).toEqual((first?.["proxies"] as { id: string }[]).map((p) => p.id).sort());
  });

  it("an admin credit key and a refund key sent 30 times each: one ledger row each", async () => {
    const before = await balanceOf(buyer.id);
    const credits = await Promise.all(
      Array.from({ length: 30 }, () =>
        post(
          `/api/admin/users/${buyer.id}/balance`,
          admin.token,
          { transaction_type: "CREDIT", amount_cents: 700, description: "replayed credit" },
          "credit-once",
        ),
      ),
    );
    expect(credits.map((a) => a.status)).toEqual(Array(30).fill(200));
    expect(credits.filter((a) => !a.replayed)).toHaveLength(1);
    const firstCredit = credits.find((a) => !a.replayed)?.body;
    for (const a of credits) expect(a.body).toEqual(firstCredit);
    expect(await balanceOf(buyer.id)).toBe(before + 700);

    const order = await su.collection("proxy_orders").getFirstListItem(`user_id = "${buyer.id}"`);
    const refunds = await Promise.all(
      Array.from({ length: 30 }, () =>
        post(`/api/admin/orders/${String(order["id"])}/refund`, admin.token, { reason: "replayed refund" }, "refund-once"),
      ),
    );
    expect(refunds.map((a) => a.status)).toEqual(Array(30).fill(200));
    expect(refunds.filter((a) => !a.replayed)).toHaveLength(1);
    const firstRefund = refunds.find((a) => !a.replayed)?.body;
    for (const a of refunds) expect(a.body).toEqual(firstRefund);
    expect((await ledgerRows(buyer.id, "refund:")).map((r) => r["amount_cents"])).toEqual([order["total_cents"]]);
    expect(await balanceOf(buyer.id)).toBe(before + 700 + Number(order["total_cents"]));
  });

  it("leaves a database that passes every money invariant", async () => {
    expect(await integrityCheck(shop.dbFile)).toBe("ok");
    const report = await checkMoneyInvariants(shop.dbFile);
    expect(report.problems).toEqual([]);
    expect(report.ok).toBe(true);
  });
});
