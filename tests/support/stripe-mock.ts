// stripe-mock (Stripe's API with canned answers) on loopback for the payment tests, and
// webhook events signed the way Stripe signs them. stripe-mock never sends webhooks, so the
// tests sign events themselves with the endpoint secret.
import { spawn, type ChildProcess } from "node:child_process";
import { createHmac, randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import path from "node:path";
import { ROOT } from "../../server/pocketbase-process.ts";
import { freePort } from "./pocketbase.ts";

export const STRIPE_MOCK_MODULE = "github.com/stripe/stripe-mock@v0.203.0";
export const STRIPE_MOCK_BIN = path.join(ROOT, "pocketbase", "bin", "stripe-mock");

export interface StripeMock {
  url: string;
  stop(): Promise<void>;
}

export async function startStripeMock(): Promise<StripeMock> {
  if (!existsSync(STRIPE_MOCK_BIN)) {
    throw new Error(`${STRIPE_MOCK_BIN} is missing: run \`npx tsx scripts/build-test-tools.ts\` (npm test does).`);
  }
  const port = await freePort();
  // Both listeners on loopback ports of their own: with -http-addr alone stripe-mock still
  // opens HTTPS on [::]:12112, which a second stripe-mock (another test file) cannot bind.
  const httpsPort = await freePort();
  const child: ChildProcess = spawn(STRIPE_MOCK_BIN, ["-http-addr", `127.0.0.1:${port}`, "-https-addr", `127.0.0.1:${httpsPort}`], {
    stdio: "ignore",
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 20_000;
  for (;;) {
    try {
      // Any answer (401 without a key) means it is listening.
      await fetch(`${url}/v1/charges`);
      break;
    } catch {
      if (Date.now() > deadline || child.exitCode !== null) throw new Error("stripe-mock did not start");
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  return {
    url,
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once("exit", r));
      child.kill("SIGTERM");
      await exited;
    },
  };
}

/** A Stripe-Signature header for `payload`: t=<unix>,v1=<hex HMAC-SHA256 of "t.payload">. */
export function stripeSignature(payload: string, secret: string, timestamp = Math.floor(Date.now() / 1000)): string {
  const v1 = createHmac("sha256", secret).update(`${timestamp}.${payload}`).digest("hex");
  return `t=${timestamp},v1=${v1}`;
}

/** The webhook endpoint secret test shops are started with (stripeEnv). */
export const TEST_WEBHOOK_SECRET = "whsec_test_shop";

/** The environment that makes a test PocketBase take payments with Stripe through `mock`. */
export function stripeEnv(mock: StripeMock, webhookSecret = TEST_WEBHOOK_SECRET): Record<string, string> {
  return {
    STRIPE_SECRET_KEY: "sk_test_shop",
    STRIPE_WEBHOOK_SECRET: webhookSecret,
    STRIPE_API_BASE: mock.url,
    SHOP_APP_URL: "https://shop.test",
  };
}

/** A Stripe event of `type` about `object`, as the JSON Stripe posts (a new event id unless given). */
export function stripeEvent(type: string, object: Record<string, unknown>, id = `evt_${randomUUID()}`): string {
  return JSON.stringify({ id, type, data: { object } });
}

/** The Checkout Session of a pending Stripe payment, paid in full; `overrides` change what an event says. */
export function paidSession(payment: { id: string; [field: string]: unknown }, overrides: Record<string, unknown> = {}) {
  return {
    id: payment["provider_session_id"],
    object: "checkout.session",
    client_reference_id: payment.id,
    metadata: { payment_id: payment.id },
    payment_status: "paid",
    amount_total: payment["amount_cents"],
    currency: "usd",
    payment_intent: `pi_${payment.id}`,
    ...overrides,
  };
}

/** POSTs `payload` to the shop's Stripe webhook with a signature (by default signed with the test shops' secret). */
export function deliverStripe(pocketbaseUrl: string, payload: string, signature = stripeSignature(payload, TEST_WEBHOOK_SECRET)) {
  return fetch(`${pocketbaseUrl}/api/v1/payments/stripe/webhook`, {
    method: "POST",
    headers: { "content-type": "application/json", "stripe-signature": signature },
    body: payload,
  });
}

/**
 * What Stripe sends once the customer paid a pending Stripe payment (a checkout answered
 * it): checkout.session.completed, signed, delivered to the shop's webhook. Real payments
 * are the only ones that earn commissions (security review #13, finding 2).
 */
export async function payByStripe(
  pocketbaseUrl: string,
  payment: { id: string; [field: string]: unknown },
  webhookSecret = TEST_WEBHOOK_SECRET,
): Promise<void> {
  const payload = stripeEvent("checkout.session.completed", paidSession(payment), `evt_${payment.id}`);
  const res = await deliverStripe(pocketbaseUrl, payload, stripeSignature(payload, webhookSecret));
  if (res.status !== 200) throw new Error(`The Stripe webhook answered ${res.status}: ${await res.text()}`);
}
