// Calling the console's admin routes from API tests (refusals: errorOf/statusOf in pocketbase.ts).
import { randomUUID } from "node:crypto";
import type PocketBase from "pocketbase";
import type { RecordModel } from "pocketbase";

/** GET an /api/admin/ route with a query. */
export function adminGet<T = Record<string, unknown>>(
  pb: PocketBase,
  path: string,
  query: Record<string, string | number> = {},
): Promise<T> {
  return pb.send<T>(path, { method: "GET", query });
}

/** Send a JSON body to an /api/admin/ route (POST unless told otherwise). */
export function adminSend<T = Record<string, unknown>>(pb: PocketBase, path: string, body: unknown = {}, method = "POST"): Promise<T> {
  return pb.send<T>(path, { method, body: body as Record<string, unknown> });
}

/** Writes one settings row as `su` (the superuser, or an admin where the rules allow it). */
export async function setSetting(su: PocketBase, key: string, value: string): Promise<void> {
  const row = await su.collection("settings").getFirstListItem(su.filter("key = {:key}", { key }));
  await su.collection("settings").update(row.id, { value });
}

/** Turns the shop's demo mode on or off. */
export const setDemoMode = (su: PocketBase, on: boolean) => setSetting(su, "demo_mode", on ? "true" : "false");

/** Runs `run` with demo mode on, and turns it off again whatever happens. */
export async function withDemoMode(su: PocketBase, run: () => Promise<void>): Promise<void> {
  await setDemoMode(su, true);
  try {
    await run();
  } finally {
    await setDemoMode(su, false);
  }
}

/** Audit rows matching a filter, oldest first unless told otherwise. */
export function auditRows(su: PocketBase, filter: string, sort = "created"): Promise<RecordModel[]> {
  return su.collection("audit_logs").getFullList({ filter, sort });
}

/** POST with an Idempotency-Key (a new one unless given), answering the body and the Idempotent-Replayed header. */
export async function sendKeyed<T>(
  pb: PocketBase,
  url: string,
  body: unknown,
  key: string = randomUUID(),
): Promise<{ body: T; replayed: string | null }> {
  let replayed: string | null = null;
  const res = await pb.send<T>(url, {
    method: "POST",
    body: body as Record<string, unknown>,
    headers: { "Idempotency-Key": key },
    fetch: async (input: RequestInfo | URL, init?: RequestInit) => {
      const response = await fetch(input, init);
      replayed = response.headers.get("Idempotent-Replayed");
      return response;
    },
  });
  return { body: res, replayed };
}
