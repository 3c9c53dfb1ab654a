// Customer A's rows and customer B's client on one hostile shop, for the cross-account
// suites: what identifies A's data, filters aimed at A, raw calls as B.
import { EventSource } from "eventsource";
import type PocketBase from "pocketbase";
import { afterAll, beforeAll, expect } from "vitest";
import type { TestPocketBase } from "../../support/pocketbase.ts";
import { dbSnapshotter, type DbSnapshotter } from "./db-snapshot.ts";
import { hostileShop, OWNED_COLLECTIONS, startStripeShop, type HostileShop, type OwnedRows } from "./fixtures.ts";

(globalThis as { EventSource?: unknown }).EventSource ??= EventSource;

export interface CrossAccount {
  tpb: TestPocketBase;
  hs: HostileShop;
  db: DbSnapshotter;
  A: OwnedRows;
  B: PocketBase;
  /** Strings that identify A's data: none may appear in anything B receives. */
  secretsOfA: string[];
}

export const x = {} as CrossAccount;

/** Per-user collections (A's ids in each are in x.A). */
export const OWNED = OWNED_COLLECTIONS;

/** What links each collection's rows to their owner, for filters aimed at x.A. */
export const OWNER_PATH: Record<(typeof OWNED)[number] | "users", string> = {
  users: "id",
  balances: "user_id",
  transactions: "user_id",
  proxies: "assigned_to_user_id",
  proxy_orders: "user_id",
  payments: "user_id",
  support_tickets: "user_id",
  chat_messages: "ticket_id.user_id",
  affiliates: "user_id",
  referrals: "affiliate_id.user_id",
  commissions: "affiliate_id.user_id",
};

export function idsOfA(collection: (typeof OWNED)[number] | "users"): string[] {
  return collection === "users" ? [x.A.user.id] : x.A[collection];
}

/** Fails when `text` holds any of A's data, except what B sent itself (`sent`: B named that id). */
export function expectNothingOfA(text: string, what: string, sent = ""): void {
  const found = x.secretsOfA.filter((secret) => text.includes(secret) && !sent.includes(secret));
  expect(found, `${what} holds A's data`).toEqual([]);
}

/** Raw call as B (or anyone with `token`), returning status and text. */
export async function call(
  method: string,
  path: string,
  options: { token?: string; body?: unknown; headers?: Record<string, string> } = {},
) {
  const headers: Record<string, string> = { ...(options.headers ?? {}) };
  const token = options.token ?? x.B.authStore.token;
  if (token) headers["Authorization"] = token;
  if (options.body !== undefined) headers["Content-Type"] = "application/json";
  const res = await fetch(x.tpb.url + path, {
    method,
    headers,
    ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
  });
  const text = await res.text();
  return { status: res.status, text };
}

/** Starts the shop before the file's tests and stops it after. */
let shopProcess: Awaited<ReturnType<typeof startStripeShop>> | undefined;

export function useCrossAccountShop(): void {
  beforeAll(async () => {
    shopProcess = await startStripeShop();
    x.tpb = shopProcess.tpb;
    x.hs = await hostileShop(x.tpb);
    x.A = x.hs.A;
    x.B = x.hs.B.user.pb;
    const su = x.hs.su;
    const proxiesOfA = await su
      .collection("proxies")
      .getFullList({ filter: su.filter("assigned_to_user_id = {:id}", { id: x.A.user.id }) });
    const messagesOfA = await su
      .collection("chat_messages")
      .getFullList({ filter: su.filter("ticket_id.user_id = {:id}", { id: x.A.user.id }) });
    const ticketsOfA = await su.collection("support_tickets").getFullList({ filter: su.filter("user_id = {:id}", { id: x.A.user.id }) });
    const affiliateOfA = await su.collection("affiliates").getOne(x.A.affiliates[0]!);
    x.secretsOfA = [
      x.A.user.email,
      x.A.referred.email,
      affiliateOfA["code"] as string,
      ...OWNED.flatMap((c) => x.A[c]),
      x.A.user.id,
      ...proxiesOfA.flatMap((p) => [p["username"] as string, p["password"] as string]),
      ...ticketsOfA.map((t) => t["subject"] as string),
      ...messagesOfA.map((m) => m["message"] as string).filter((m) => !m.startsWith("Staff reply")),
      ...Object.values(x.A.attachments).flat(),
    ].filter((s) => s && s.length >= 6);
    x.db = dbSnapshotter(x.tpb.dataDir);
  }, 180_000);

  afterAll(async () => {
    (x.db as DbSnapshotter | undefined)?.close();
    await shopProcess?.stop();
  });
}
