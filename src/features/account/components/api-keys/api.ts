// Settings → API Access (issue #18): the customer's API keys through /api/v1/api-keys
// (pb_hooks/lib/api/api-keys.js), typed by the contract (lib/api-contract/keys.ts), the
// list's store, and what a row shows. A reload aborts the request it supersedes; every write
// sends an Idempotency-Key.
import { atom, onMount } from "nanostores";
import type { ApiKeyScope, BodyOf, ResponseOf } from "@/lib/api-contract/define";
import type { createApiKey, listApiKeys, revokeApiKey } from "@/lib/api-contract/keys";
import { errorMessage, isAbort } from "@/lib/api-error";
import { parseDate } from "@/lib/dates";
import { pb, withSignal } from "@/lib/pocketbase";

export type ApiKey = ResponseOf<typeof listApiKeys>["items"][number];
export type NewApiKey = BodyOf<typeof createApiKey>;
export type CreatedApiKey = ResponseOf<typeof createApiKey>;
type RevokedApiKey = ResponseOf<typeof revokeApiKey>;

const PATH = "/api/v1/api-keys";

/** The scopes offered, in order, each with what it lets a program do. */
export const SCOPES: readonly { scope: ApiKeyScope; label: string; text: string }[] = [
  { scope: "read", label: "Read", text: "See your balance, proxies, usage, orders, transactions, locations and prices." },
  { scope: "purchase", label: "Purchase", text: "Buy and renew proxies and turn auto-renew on or off, spending your balance." },
  { scope: "rotate", label: "Rotate", text: "Give proxies new credentials and change your proxy IP allowlist." },
  { scope: "webhooks", label: "Webhooks", text: "Add, change and remove your webhook endpoints and resend deliveries." },
];

export type ApiKeyStatus = "Active" | "Revoked" | "Expired";

/** Revoked wins over Expired: a revoked key never works again. */
export function keyStatus(key: Pick<ApiKey, "revoked_at" | "expires_at">, now: Date = new Date()): ApiKeyStatus {
  if (key.revoked_at) return "Revoked";
  const expires = parseDate(key.expires_at);
  return expires && expires.getTime() <= now.getTime() ? "Expired" : "Active";
}

export interface ApiKeyListState {
  status: "loading" | "ready" | "error";
  items: ApiKey[];
  error: string;
}

export const $apiKeys = atom<ApiKeyListState>({ status: "loading", items: [], error: "" });
const $reloads = atom(0);

onMount($apiKeys, () => {
  let controller: AbortController | null = null;
  const load = () => {
    controller?.abort();
    const current = new AbortController();
    controller = current;
    $apiKeys.set({ ...$apiKeys.get(), status: "loading", error: "" });
    pb()
      .send<ResponseOf<typeof listApiKeys>>(PATH, { method: "GET", ...withSignal(current.signal) })
      .then(
        (list) => {
          if (!current.signal.aborted) $apiKeys.set({ status: "ready", items: list.items, error: "" });
        },
        (err: unknown) => {
          if (current.signal.aborted || isAbort(err)) return;
          $apiKeys.set({ ...$apiKeys.get(), status: "error", error: errorMessage(err) });
        },
      );
  };
  load();
  const stop = $reloads.listen(load);
  return () => {
    stop();
    controller?.abort();
  };
});

export function reloadApiKeys(): void {
  $reloads.set($reloads.get() + 1);
}

/** Puts a key the server answered in the list in place of its old row (or first, when new). */
function showKey(key: ApiKey): void {
  const state = $apiKeys.get();
  const known = state.items.some((item) => item.id === key.id);
  $apiKeys.set({ ...state, items: known ? state.items.map((item) => (item.id === key.id ? key : item)) : [key, ...state.items] });
}

/** POST /api/v1/api-keys: the answer holds the key itself, shown once. `idempotencyKey` is the attempt's. */
export async function createKey(body: NewApiKey, idempotencyKey: string): Promise<CreatedApiKey> {
  const created = await pb().send<CreatedApiKey>(PATH, {
    method: "POST",
    body,
    headers: { "Idempotency-Key": idempotencyKey },
    requestKey: null,
  });
  showKey(created.api_key);
  reloadApiKeys();
  return created;
}

/** DELETE /api/v1/api-keys/{id}: the key stops working at its next request. */
export async function revokeKey(id: string, idempotencyKey: string): Promise<void> {
  try {
    const revoked = await pb().send<RevokedApiKey>(`${PATH}/${encodeURIComponent(id)}`, {
      method: "DELETE",
      headers: { "Idempotency-Key": idempotencyKey },
      requestKey: null,
    });
    showKey(revoked);
  } finally {
    reloadApiKeys();
  }
}
