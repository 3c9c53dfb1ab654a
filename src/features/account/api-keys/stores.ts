// The API keys' list, kept loaded while the panel shows it, the changes that update it, and
// the keys whose revocation or spend cap is being asked about.
import { atom } from "nanostores";
import { keptList } from "@/features/account/kept-list";
import {
  deleteApiKey,
  fetchApiKeys,
  patchSpendCap,
  postApiKey,
  type ApiKey,
  type CreatedApiKey,
  type NewApiKey,
} from "@/features/account/api-keys/api";

const keys = keptList(fetchApiKeys);

export const $apiKeys = keys.$list;
export const reloadApiKeys = keys.reload;

/** The key whose revocation is being confirmed (the panel shows the dialog). */
export const $revoking = atom<ApiKey | null>(null);

/** The key whose spend cap is being changed (the panel shows the dialog). */
export const $capping = atom<ApiKey | null>(null);

/** Gives a key a new monthly spend cap (null: none) and shows it in the list. */
export async function changeSpendCap(id: string, spendCapCents: number | null, idempotencyKey: string): Promise<ApiKey> {
  const changed = await patchSpendCap(id, spendCapCents, idempotencyKey);
  keys.show(changed);
  return changed;
}

/** Creates a key and shows it first in the list; the answer holds the key itself, shown once. */
export async function createKey(body: NewApiKey, idempotencyKey: string): Promise<CreatedApiKey> {
  const created = await postApiKey(body, idempotencyKey);
  keys.show(created.api_key);
  keys.reload();
  return created;
}

/** Revokes a key: it stops working at its next request. */
export async function revokeKey(id: string, idempotencyKey: string): Promise<void> {
  try {
    keys.show(await deleteApiKey(id, idempotencyKey));
  } finally {
    keys.reload();
  }
}
