// A shop for the soak suite: a PocketBase on its own data dir and port that can be killed
// with SIGKILL and started again on the same data dir, an admin, N verified customers with
// scarce starting balances (admin credits, recorded in the Book) and scarce stock; the first
// few customers can be API-key buyers, each with a key (scopes read and purchase) whose
// monthly spend cap is below what they will try to spend.
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import PocketBase from "pocketbase";
import { startPocketBase, type PocketBaseProcess } from "../../../server/pocketbase-process.ts";
import { freePort, SUPERUSER, TEST_CREDENTIALS_KEY } from "../../support/pocketbase.ts";
import { startStripeMock, type StripeMock } from "../../support/stripe-mock.ts";
import { newBook, type Book } from "./book.ts";
import { adjust, PLACES, type Actor, type LoadOptions } from "./load.ts";
import { call, ServerGate } from "./soak-client.ts";

export const WEBHOOK_SECRET = "whsec_soak_proxyshop";

export interface SoakShop {
  url: string;
  dataDir: string;
  dbFile: string;
  gate: ServerGate;
  provider: "test" | "stripe";
  /** SIGKILL, and wait until the process is gone (the gate is closed first). */
  kill9(): Promise<void>;
  /** Starts PocketBase again on the same data dir and port, then opens the gate. */
  restart(): Promise<void>;
  superuser(): Promise<PocketBase>;
  stop(): Promise<void>;
}

/**
 * PocketBase with the highest rate-limit scale (the whole load comes from one address, and a
 * fast machine sent more than the usual test scale's 3,000 purchases in 10 s; the limiter has
 * its own tests in tests/hostile) and, for "stripe", stripe-mock as Stripe's API with the
 * soak's webhook secret.
 */
export async function startSoakShop(provider: "test" | "stripe"): Promise<SoakShop> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "proxyshop-soak-"));
  const port = await freePort();
  let stripe: StripeMock | undefined;
  const env: Record<string, string> = {
    SHOP_RATE_LIMIT_SCALE: "1000",
    // API-key buyers (issue #18) send their whole load with one key each: the per-key limit
    // has its own tests in tests/hostile/api-keys.test.ts.
    API_KEY_RATE_LIMIT: "1000000",
    SHOP_CREDENTIALS_KEY: TEST_CREDENTIALS_KEY,
    PAYMENTS_TEST_MODE: "true",
  };
  if (provider === "stripe") {
    stripe = await startStripeMock();
    Object.assign(env, { STRIPE_SECRET_KEY: "sk_test_soak", STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET, STRIPE_API_BASE: stripe.url });
  }
  const start = () => startPocketBase({ dataDir, port, superuserEmail: SUPERUSER.email, superuserPassword: SUPERUSER.password, env });
  let pb: PocketBaseProcess = await start();
  const gate = new ServerGate(pb.url);
  return {
    url: pb.url,
    dataDir,
    dbFile: path.join(dataDir, "data.db"),
    gate,
    provider,
    async kill9() {
      gate.down();
      const child = pb.child;
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGKILL");
      await exited;
    },
    async restart() {
      pb = await start();
      gate.up();
    },
    async superuser() {
      const client = new PocketBase(pb.url);
      client.autoCancellation(false);
      await client.collection("_superusers").authWithPassword(SUPERUSER.email, SUPERUSER.password);
      return client;
    },
    async stop() {
      await pb.stop();
      await stripe?.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A verified users record and a token for it (impersonation: no password hashing per customer). */
async function actor(su: PocketBase, email: string, isAdmin: boolean): Promise<Actor> {
  const password = `Soak#${Math.random().toString(36).slice(2)}A1`;
  const record = await su.collection("users").create({
    email,
    password,
    passwordConfirm: password,
    verified: true,
    first_name: "Soak",
    last_name: isAdmin ? "Admin" : "Customer",
    country: "Canada",
    is_admin: isAdmin,
  });
  const client = await su.collection("users").impersonate(record.id, 24 * 3600);
  return { id: record.id, token: client.authStore.token };
}

export interface Population {
  admin: Actor;
  customers: Actor[];
  book: Book;
}

/** A key buyer's key: scopes read and purchase, a monthly spend cap. */
async function apiKeyOf(shop: SoakShop, customer: Actor, capCents: number): Promise<NonNullable<Actor["apiKey"]>> {
  const res = await call(shop.url, "POST", "/api/v1/api-keys", {
    token: customer.token,
    body: { name: "soak buyer", scopes: ["read", "purchase"], spend_cap_cents: capCents },
  });
  if (res.status !== 201) throw new Error(`making an API key failed: ${res.status} ${JSON.stringify(res.body)}`);
  const made = res.body as { key: string; api_key: { id: string } };
  return { id: made.api_key.id, token: `Bearer ${made.key}`, capCents };
}

/**
 * `customers` customers, each credited `startCents` by the admin (through the console route,
 * recorded in the book), and `stockPerPlace` AVAILABLE proxies at each of PLACES (through the
 * console's generate route).
 */
export async function populate(
  shop: SoakShop,
  options: {
    seed: number;
    customers: number;
    startCents: number;
    stockPerPlace: number;
    /** The first `keyBuyers` customers buy and renew through an API key capped at `keyCapCents` a month. */
    keyBuyers?: number;
    keyCapCents?: number;
  },
): Promise<Population> {
  const su = await shop.superuser();
  const tag = `${options.seed}-${Date.now().toString(36)}`;
  const admin = await actor(su, `soak-admin-${tag}@soak.test`, true);
  const customers: Actor[] = [];
  for (let i = 0; i < options.customers; i += 10) {
    const batch = Array.from({ length: Math.min(10, options.customers - i) }, (_, j) => actor(su, `soak-${tag}-${i + j}@soak.test`, false));
    customers.push(...(await Promise.all(batch)));
  }
  for (const buyer of customers.slice(0, options.keyBuyers ?? 0)) buyer.apiKey = await apiKeyOf(shop, buyer, options.keyCapCents ?? 900);
  const book = newBook();
  const loadOptions = loadOptionsFor(shop, { admin, customers, book }, options.seed, () => false);
  await Promise.all(customers.map((c) => adjust(loadOptions, c.id, "CREDIT", options.startCents)));
  for (const place of PLACES) {
    const res = await call(shop.url, "POST", "/api/admin/proxies/generate", {
      token: admin.token,
      body: { ...place, quantity: options.stockPerPlace },
    });
    if (res.status !== 200) throw new Error(`generating stock failed: ${res.status} ${JSON.stringify(res.body)}`);
  }
  return { admin, customers, book };
}

export function loadOptionsFor(shop: SoakShop, population: Population, seed: number, stopped: () => boolean): LoadOptions {
  return {
    gate: shop.gate,
    book: population.book,
    seed,
    customers: population.customers,
    admin: population.admin,
    provider: shop.provider,
    webhookSecret: WEBHOOK_SECRET,
    stopped,
  };
}
