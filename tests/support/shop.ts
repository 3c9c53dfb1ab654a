// Arranging shop data for API tests: customers funded through the ledger, stock, calls to
// the money routes, and the invariant every test ends with (balance = sum of ledger).
import { randomUUID } from "node:crypto";
import type { PurchaseResult } from "@/features/buy-proxies/api";
import { requestOf, type CallInput } from "@/lib/api-contract/client";
import { createCreditCheckout } from "@/lib/api-contract/credits";
import type { ApiRoute, BodyOf, ResponseOf } from "@/lib/api-contract/define";
import { purchaseProxies } from "@/lib/api-contract/proxies";
import type { PaymentRecord } from "@/lib/pocketbase-types";
import type PocketBase from "pocketbase";
import type { RecordModel } from "pocketbase";
import { expect } from "vitest";
import { createTestUser, signIn, type TestPocketBase, type TestUser } from "./pocketbase.ts";
import { payByStripe } from "./stripe-mock.ts";

export interface Shop {
  tpb: TestPocketBase;
  su: PocketBase;
  admin: PocketBase;
}

let seq = 0;

export const DAY = 86_400_000;
/** A time as PocketBase stores dates ("2026-01-02 03:04:05.000Z"). */
export const iso = (ms: number) => new Date(ms).toISOString().replace("T", " ");

/** Runs the proxy expiry job now, through its superuser route. */
export const runExpiryJob = (shop: Shop) => shop.su.send("/api/admin/jobs/proxy-expiry", { method: "POST" });

/** The superuser and a signed-in shop admin of `tpb`. */
export async function shopClients(tpb: TestPocketBase): Promise<Shop> {
  const su = await tpb.superuser();
  const adminUser = await createTestUser(su, { is_admin: true, email: `admin-${Date.now()}-${seq++}@api.test` });
  return { tpb, su, admin: await signIn(tpb, adminUser) };
}

export interface Customer extends TestUser {
  pb: PocketBase;
}

/** A verified customer (unless told otherwise), signed in, funded with `cents` through the admin route. */
export async function customer(shop: Shop, cents = 0, options: { verified?: boolean } = {}): Promise<Customer> {
  const user = await createTestUser(shop.su, { email: `customer-${Date.now()}-${seq++}@api.test` });
  if (options.verified === false) await shop.su.collection("users").update(user.id, { verified: false });
  if (cents > 0) await credit(shop, user.id, cents);
  return { ...user, pb: await signIn(shop.tpb, user) };
}

/** Credits a user through the admin balance route (a new Idempotency-Key each call). */
export async function credit(shop: Shop, userId: string, cents: number): Promise<void> {
  await shop.admin.send(`/api/admin/users/${userId}/balance`, {
    method: "POST",
    body: { transaction_type: "CREDIT", amount_cents: cents, description: "test funding" },
    headers: { "Idempotency-Key": randomUUID() },
  });
}

export interface StockOptions {
  type?: string;
  country?: string;
  state?: string;
  city?: string;
  count: number;
}

/** `count` AVAILABLE proxies (created as the superuser); returns their ids. */
export async function addStock(shop: Shop, options: StockOptions): Promise<string[]> {
  const tag = `${Date.now().toString(36)}${seq++}`;
  const ids: string[] = [];
  for (let i = 0; i < options.count; i++) {
    const record = await shop.su.collection("proxies").create({
      host: `stock-${tag}.test`,
      port: 1000 + i,
      username: `u-${tag}-${i}`,
      password: `p-${tag}-${i}`,
      type: options.type ?? "RESIDENTIAL",
      country: options.country ?? "US",
      state: options.state ?? "",
      city: options.city ?? "",
      status: "AVAILABLE",
    });
    ids.push(record.id);
  }
  return ids;
}

/** A proxy row to create through the records API: an AVAILABLE HTTP proxy in the US, with `fields` on it. */
export function proxyFields(fields: { host: string; port: number; username: string; password: string }) {
  return { ...fields, type: "HTTP", country: "US", status: "AVAILABLE" };
}

/** A customer funded with `cents` who bought `count` proxies of a new country (`prefix` + 6 characters) through the purchase route. */
export async function proxyBuyer(shop: Shop, options: { count?: number; cents?: number; type?: string; prefix?: string } = {}) {
  const { count = 2, cents = 10_000, type = "RESIDENTIAL", prefix = "X" } = options;
  const country = `${prefix}${randomUUID().slice(0, 6)}`;
  await addStock(shop, { type, country, count });
  const user = await customer(shop, cents);
  const res = await purchase(user.pb, { type, country, quantity: count });
  return { user, order: res.order, proxies: res.proxies, country };
}

/** Proxy columns the records API refuses (finding 6), written in the test PocketBase's data.db. */
export { setProxyColumns } from "./proxy-columns.ts";

/** POST a money route with an Idempotency-Key (a new one unless given). */
export function post<T = PurchaseResult>(pb: PocketBase, path: string, body: unknown, key: string | null = randomUUID()): Promise<T> {
  return pb.send<T>(path, { method: "POST", body, headers: key === null ? {} : { "Idempotency-Key": key } });
}

/**
 * A contract route (lib/api-contract) called as `pb`, through the SDK like the islands'
 * lib/api-client.ts. A keyed route gets a new Idempotency-Key unless `key` is given; null
 * sends none (to see the refusal).
 */
export function callAs<R extends ApiRoute>(
  pb: PocketBase,
  route: R,
  input: CallInput<R> = {},
  key?: string | null,
): Promise<ResponseOf<R>> {
  const idempotencyKey = key === undefined ? (route.idempotency ? randomUUID() : null) : key;
  const request = requestOf(route, { ...input, idempotencyKey });
  return pb.send(request.path, {
    method: request.method,
    query: request.query,
    headers: request.headers,
    ...(request.body === undefined ? {} : { body: request.body }),
  });
}

/** POST /api/v1/proxies/purchase; the body as sent (a test may send a wrong one). */
export const purchase = (pb: PocketBase, body: unknown, key?: string | null) =>
  callAs(pb, purchaseProxies, { body: body as BodyOf<typeof purchaseProxies> }, key);

/** Balance, ledger sum and ledger rows of one user, read as the superuser. */
export async function ledgerOf(shop: Shop, userId: string): Promise<{ balance: number; sum: number; rows: RecordModel[] }> {
  const balance = await shop.su.collection("balances").getFirstListItem(shop.su.filter("user_id = {:id}", { id: userId }));
  const rows = await shop.su
    .collection("transactions")
    .getFullList({ filter: shop.su.filter("user_id = {:id}", { id: userId }), sort: "created" });
  return { balance: balance["balance_cents"] as number, sum: rows.reduce((s, r) => s + (r["amount_cents"] as number), 0), rows };
}

/**
 * The ledger invariant over every user: balance = sum of ledger rows, never negative except
 * as the debt of a reversed payment (a user with a "reversal:" ledger row: Stripe refunds
 * and chargebacks).
 */
export async function expectEveryBalanceMatchesItsLedger(su: PocketBase): Promise<void> {
  const balances = await su.collection("balances").getFullList({ fields: "user_id,balance_cents" });
  const rows = await su.collection("transactions").getFullList({ fields: "user_id,amount_cents,reference" });
  const sums = new Map<string, number>();
  const reversed = new Set<string>();
  for (const row of rows) {
    sums.set(row["user_id"] as string, (sums.get(row["user_id"] as string) ?? 0) + (row["amount_cents"] as number));
    if (String(row["reference"]).startsWith("reversal:")) reversed.add(row["user_id"] as string);
  }
  for (const balance of balances) {
    expect(balance["balance_cents"], `balance of ${balance["user_id"]}`).toBe(sums.get(balance["user_id"] as string) ?? 0);
    if (!reversed.has(balance["user_id"] as string)) {
      expect(balance["balance_cents"] as number, `balance of ${balance["user_id"]}`).toBeGreaterThanOrEqual(0);
    }
  }
}

/** POST /api/v1/credits/checkout for a credit package (a new Idempotency-Key unless given). */
export const checkout = (pb: PocketBase, packageId: unknown, key?: string | null) =>
  callAs(pb, createCreditCheckout, { body: { package_id: packageId as BodyOf<typeof createCreditCheckout>["package_id"] } }, key);

/** A checkout of `packageId` by `pb`, paid through Stripe (the signed checkout.session.completed); the payment as stored. */
export async function payWithStripe(shop: Shop, pb: PocketBase, packageId: string, webhookSecret?: string): Promise<PaymentRecord> {
  const { payment } = await checkout(pb, packageId);
  await payByStripe(shop.tpb.url, payment, webhookSecret);
  return shop.su.collection("payments").getOne<PaymentRecord>(payment.id);
}

/** Signs a customer up through the sign-up route with `code` as their referral (verified unless told otherwise). */
export async function referredCustomer(shop: Shop, code: string, options: { verified?: boolean; first?: string } = {}) {
  const email = `referred-${randomUUID()}@api.test`;
  const auth = await shop.tpb.client().send<{ token: string; record: RecordModel }>("/api/shop/signup", {
    method: "POST",
    body: { first_name: options.first ?? "Rita", last_name: "Referred", email, country: "Spain", ref: code },
  });
  const verified = options.verified ?? true;
  if (verified) await shop.su.collection("users").update(auth.record.id, { verified: true });
  const pb = shop.tpb.client();
  pb.authStore.save(auth.token, { ...auth.record, verified });
  return { id: auth.record.id, email, pb };
}
