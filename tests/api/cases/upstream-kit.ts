// What the upstream health and replacement tests share (issue #28): the health job, a poll
// of it, marking a proxy's upstream failing as the gateway does, and the stock a customer sees.
import { randomUUID } from "node:crypto";
import type PocketBase from "pocketbase";
import { expect } from "vitest";
import { iso, setProxyColumns, type Shop } from "../../support/shop.ts";
import type { TestPocketBase } from "../../support/pocketbase.ts";

export interface HealthReport {
  withdrawn: number;
  returned: number;
  replaced: number;
  down: number;
  recovered: number;
}

export const runHealthJob = (shop: Shop) => shop.su.send<HealthReport>("/api/admin/jobs/upstream-health", { method: "POST" });

/** Runs the job until `done` holds (never a fixed wait: each run is a poll), at most 15 s. */
export async function healthUntil(shop: Shop, done: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    await runHealthJob(shop);
    if (await done()) return;
    if (Date.now() > deadline) throw new Error(`the upstream health job never got to: ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** A place of its own for a test's stock (addStock takes any country text). */
export const newPlace = (prefix = "H") => `${prefix}${randomUUID().slice(0, 6).toUpperCase()}`;

/** Points the proxies at an upstream on loopback `port`, failing since `failedAt` (ms; null: not failing). */
export function exitThrough(tpb: TestPocketBase, ids: string[], port: number, failedAt: number | null): void {
  setProxyColumns(tpb, ids, {
    exit: "upstream",
    upstream_host: "127.0.0.1",
    upstream_port: port,
    upstream_username: "up",
    upstream_failed_at: failedAt === null ? "" : iso(failedAt),
    upstream_error: failedAt === null ? "" : `dial tcp 127.0.0.1:${port}: connect: connection refused`,
  });
}

/** How many proxies of `type` a customer is offered in `country`. */
export async function offered(pb: PocketBase, type: string, country: string): Promise<number> {
  const stock = await pb.send<{ locations: { country: string; available: number }[] }>(`/api/v1/proxies/stock?type=${type}`, {});
  return stock.locations.filter((l) => l.country === country).reduce((n, l) => n + l.available, 0);
}

/** What the routes of these tests answer (the fields the tests read; a refusal's message). */
export interface Answer {
  message?: string;
  proxy?: Record<string, unknown>;
  replacement?: Record<string, unknown>;
  refunded_cents?: number;
  balance_cents?: number;
  order_id?: string;
  transaction_id?: string;
  [field: string]: unknown;
}

/** A POST with an Idempotency-Key that answers status, headers and body (never throws). */
export async function keyedPost(tpb: TestPocketBase, pb: PocketBase, path: string, key: string = randomUUID(), body?: unknown) {
  const res = await fetch(tpb.url + path, {
    method: "POST",
    headers: {
      Authorization: pb.authStore.token,
      "Idempotency-Key": key,
      ...(body === undefined ? {} : { "Content-Type": "application/json" }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const json = (await res.json().catch(() => ({}))) as Answer;
  return { status: res.status, replayed: res.headers.get("Idempotent-Replayed"), body: json };
}

/** The stored row of a proxy, hidden columns included (the superuser sees them). */
export const storedProxy = (shop: Shop, id: string) => shop.su.collection("proxies").getOne(id);

export function expectSameCredentials(before: Record<string, unknown>, after: Record<string, unknown>): void {
  expect({ username: after["username"], password: after["password"] }).toEqual({
    username: before["username"],
    password: before["password"],
  });
}
