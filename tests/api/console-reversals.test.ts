// Security review #13, the console side of findings 2 and 4: the user detail of User
// Management (GET /api/admin/users/{id}) lists the user's credit payments, so the drawer
// can mark test-provider payments (no money moved) and show what Stripe refunds and
// disputes did to a payment. One data dir, two runs: first with the test provider
// (PAYMENTS_TEST_MODE=true), then with Stripe through stripe-mock, so one customer has both.
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type PocketBase from "pocketbase";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminGet } from "../support/admin.ts";
import { signIn, startTestPocketBase, type TestPocketBase, type TestUser } from "../support/pocketbase.ts";
import { checkout, customer, expectEveryBalanceMatchesItsLedger, shopClients, type Shop } from "../support/shop.ts";
import { payByStripe, startStripeMock, stripeEnv, stripeSignature, TEST_WEBHOOK_SECRET, type StripeMock } from "../support/stripe-mock.ts";

interface DetailPayment {
  id: string;
  package_id: string;
  provider: string;
  status: string;
  amount_cents: number;
  credits_cents: number;
  bonus_cents: number;
  refunded_cents: number;
  disputed_cents: number;
  dispute_status: string;
  kept_cents: number;
  paid_at: string;
  reversed_at: string;
  created: string;
}
interface Detail {
  payments: DetailPayment[];
  transactions: { type: string; amount_cents: number; description: string }[];
  totals: Record<string, number>;
}

describe("finding 2 and 4 (console): a user's payments in the user detail", () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "proxyshop-test-reversals-"));
  let stripe: StripeMock;
  let tpb: TestPocketBase | undefined;
  let shop: Shop;
  let buyer: TestUser & { pb: PocketBase };
  let testPaymentId = "";

  beforeAll(async () => {
    // First run: the test provider credits without money.
    tpb = await startTestPocketBase({ PAYMENTS_TEST_MODE: "true" }, { dataDir });
    shop = await shopClients(tpb);
    buyer = await customer(shop);
    testPaymentId = (await checkout(buyer.pb, "package-10")).payment.id;
    await tpb.stop();
    // Second run on the same data: Stripe (stripe-mock), so real payments and reversals.
    stripe = await startStripeMock();
    tpb = await startTestPocketBase({ PAYMENTS_TEST_MODE: "", ...stripeEnv(stripe) }, { dataDir });
    shop = await shopClients(tpb);
    buyer = { ...buyer, pb: await signIn(tpb, buyer) };
  });
  afterAll(async () => {
    await tpb?.stop();
    await stripe?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  async function deliver(type: string, object: Record<string, unknown>): Promise<void> {
    const payload = JSON.stringify({ id: `evt_${randomUUID()}`, type, data: { object } });
    const res = await fetch(`${tpb!.url}/api/v1/payments/stripe/webhook`, {
      method: "POST",
      headers: { "content-type": "application/json", "stripe-signature": stripeSignature(payload, TEST_WEBHOOK_SECRET) },
      body: payload,
    });
    expect(res.status, await res.clone().text()).toBe(200);
  }

  async function stripePayment(packageId: string) {
    const { payment } = await checkout(buyer.pb, packageId);
    await payByStripe(tpb!.url, payment);
    return shop.su.collection("payments").getOne(payment.id);
  }

  it("finding 2: a test-provider payment is listed as provider test, with no money kept", async () => {
    const detail = await adminGet<Detail>(shop.admin, `/api/admin/users/${buyer.id}`);
    expect(detail.payments).toEqual([
      expect.objectContaining({
        id: testPaymentId,
        provider: "test",
        status: "paid",
        package_id: "package-10",
        amount_cents: 1000,
        credits_cents: 1000,
        refunded_cents: 0,
        dispute_status: "",
        kept_cents: 0,
      }),
    ]);
    expect(detail.totals["payments"]).toBe(1);
  });

  it("finding 4: Stripe payments show their refund and dispute state newest first, with the money kept", async () => {
    const refunded = await stripePayment("package-50"); // pays 4500
    await deliver("charge.refunded", {
      id: `ch_${refunded.id}`,
      object: "charge",
      payment_intent: refunded["provider_payment_id"],
      amount: 4500,
      amount_refunded: 1500,
      currency: "usd",
      refunded: false,
    });
    const disputed = await stripePayment("package-25"); // pays 2400
    const dispute = (type: string, status: string) =>
      deliver(type, {
        id: `dp_${disputed.id}`,
        object: "dispute",
        charge: `ch_${disputed.id}`,
        payment_intent: disputed["provider_payment_id"],
        amount: 2400,
        currency: "usd",
        status,
      });
    await dispute("charge.dispute.created", "needs_response");
    await dispute("charge.dispute.closed", "lost");
    const kept = await stripePayment("package-10"); // pays 1000

    const detail = await adminGet<Detail>(shop.admin, `/api/admin/users/${buyer.id}`);
    expect(
      detail.payments.map((p) => [
        p.id,
        p.provider,
        p.status,
        p.amount_cents,
        p.refunded_cents,
        p.disputed_cents,
        p.dispute_status,
        p.kept_cents,
      ]),
    ).toEqual([
      [kept.id, "stripe", "paid", 1000, 0, 0, "", 1000],
      [disputed.id, "stripe", "disputed", 2400, 0, 2400, "lost", 0],
      [refunded.id, "stripe", "partially_refunded", 4500, 1500, 0, "", 3000],
      [testPaymentId, "test", "paid", 1000, 0, 0, "", 0],
    ]);
    expect(detail.payments.find((p) => p.id === refunded.id)?.reversed_at).not.toBe("");
    expect(detail.totals["payments"]).toBe(4);
    // The reversals are DEBIT rows of the ledger the drawer already shows.
    expect(detail.transactions.filter((t) => t.type === "DEBIT").map((t) => t.description)).toEqual([
      `Payment disputed (chargeback) (payment ${disputed.id.slice(0, 8).toUpperCase()}): $26.00 in credits reversed`,
      `Payment partly refunded by Stripe (payment ${refunded.id.slice(0, 8).toUpperCase()}): $18.33 in credits reversed`,
    ]);
    // The overview's revenue follows the same rule: 3000 + 0 + 1000 kept; the test payment apart.
    const overview = await adminGet<{ total_revenue_cents: number; test_payments_cents: number }>(shop.admin, "/api/admin/overview");
    expect(overview).toMatchObject({ total_revenue_cents: 4000, test_payments_cents: 1000 });
    await expectEveryBalanceMatchesItsLedger(shop.su);
  });

  it("finding 2 and 4: only admins read a user's payments", async () => {
    const other = await customer(shop);
    const err = await other.pb.send(`/api/admin/users/${buyer.id}`, {}).catch((e: { status: number }) => e);
    expect((err as { status: number }).status).toBe(403);
  });
});
