// The shop for a benchmark: PocketBase (with a bench hooks copy, see hooks.ts) behind the
// same public web server as `npm start` (server/web-server.ts: /api and realtime streamed
// through to PocketBase, the rest to Astro), on free ports and a throwaway data dir.
// server/shop.ts startShop() does the same without a hooks directory of one's own.
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import PocketBase from "pocketbase";
import { newCredentialsKey, startPocketBase, type PocketBaseProcess } from "../../server/pocketbase-process.ts";
import { startWebServer, type WebServer } from "../../server/web-server.ts";
import { freePort } from "../../tests/support/pocketbase.ts";
import { ensureBuilt } from "../ensure-built.ts";

export const BENCH_SUPERUSER = { email: "superuser@bench.local", password: "Superuser#Bench2026" };

export interface BenchShop {
  /** The public port (what browsers use). */
  url: string;
  pocketbase: PocketBaseProcess;
  web: WebServer;
  stop(): Promise<void>;
}

export async function startBenchShop(options: { hooksDir?: string; env?: Record<string, string> } = {}): Promise<BenchShop> {
  ensureBuilt();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "proxyshop-bench-"));
  const pocketbase = await startPocketBase({
    dataDir,
    port: await freePort(),
    superuserEmail: BENCH_SUPERUSER.email,
    superuserPassword: BENCH_SUPERUSER.password,
    ...(options.hooksDir ? { hooksDir: options.hooksDir } : {}),
    // Load from one address: lift the rate limiter for the run (test-only knob).
    env: { SHOP_RATE_LIMIT_SCALE: "1000", SHOP_CREDENTIALS_KEY: newCredentialsKey(), PAYMENTS_TEST_MODE: "true", ...options.env },
  });
  let web: WebServer;
  try {
    web = await startWebServer({ port: await freePort(), pocketbaseUrl: pocketbase.url, forwardingSecret: pocketbase.forwardingSecret });
  } catch (err) {
    await pocketbase.stop();
    rmSync(dataDir, { recursive: true, force: true });
    throw err;
  }
  return {
    url: web.url,
    pocketbase,
    web,
    async stop() {
      await web.stop();
      await pocketbase.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The buyers' password (throwaway data dirs only). */
const BUYER_PASSWORD = "Buyer#Bench2026";

/**
 * A verified customer `buyer<n>@bench.local` credited `cents` through the admin balance
 * route (`admin` is a signed-in shop admin); answers the buyer's auth token.
 */
export async function fundedBuyer(url: string, su: PocketBase, admin: PocketBase, n: number, cents: number): Promise<string> {
  const email = `buyer${n}@bench.local`;
  const user = await su.collection("users").create({
    email,
    password: BUYER_PASSWORD,
    passwordConfirm: BUYER_PASSWORD,
    verified: true,
    first_name: "Bea",
    last_name: "Buyer",
  });
  await admin.send(`/api/admin/users/${user.id}/balance`, {
    method: "POST",
    headers: { "Idempotency-Key": randomUUID() },
    body: { transaction_type: "CREDIT", amount_cents: cents, description: "bench funding" },
  });
  const pb = new PocketBase(url);
  await pb.collection("users").authWithPassword(email, BUYER_PASSWORD);
  return pb.authStore.token;
}
