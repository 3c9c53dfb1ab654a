// stripe-mock (Stripe's API with canned answers) on loopback for the payment tests, and
// webhook events signed the way Stripe signs them. stripe-mock never sends webhooks, so the
// tests sign events themselves with the endpoint secret.
import { spawn, type ChildProcess } from "node:child_process";
import { createHmac } from "node:crypto";
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
