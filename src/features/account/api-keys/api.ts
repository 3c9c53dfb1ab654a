// Settings → API Access (issue #18): the customer's API keys through the developer API
// (pb_hooks/lib/api/api-keys.js), called through the typed caller with the contract's routes
// (lib/api-contract/keys.ts). Every change sends an Idempotency-Key.
import { api } from "@/lib/api-client";
import type { BodyOf, ResponseOf } from "@/lib/api-contract/define";
import { createApiKey, listApiKeys, revokeApiKey, updateApiKey } from "@/lib/api-contract/keys";

export type ApiKey = ResponseOf<typeof listApiKeys>["items"][number];
export type NewApiKey = BodyOf<typeof createApiKey>;
export type CreatedApiKey = ResponseOf<typeof createApiKey>;

/** The customer's keys, newest first. */
export function fetchApiKeys(signal: AbortSignal): Promise<ResponseOf<typeof listApiKeys>> {
  return api.call(listApiKeys, { signal });
}

/** A new key: the answer holds the key itself, shown once. `idempotencyKey` is the attempt's. */
export function postApiKey(body: NewApiKey, idempotencyKey: string): Promise<CreatedApiKey> {
  return api.call(createApiKey, { body, idempotencyKey });
}

/** A key's new monthly spend cap (null: none); the answer is the key. */
export function patchSpendCap(id: string, spendCapCents: number | null, idempotencyKey: string): Promise<ApiKey> {
  return api.call(updateApiKey, { params: { id }, body: { spend_cap_cents: spendCapCents }, idempotencyKey });
}

/** Revokes a key: it stops working at its next request; the answer is the revoked key. */
export function deleteApiKey(id: string, idempotencyKey: string): Promise<ResponseOf<typeof revokeApiKey>> {
  return api.call(revokeApiKey, { params: { id }, idempotencyKey });
}
