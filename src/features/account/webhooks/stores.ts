// The webhook endpoints' list, kept loaded while the panel shows it, and the changes that
// update it with the endpoint the server answered.
import { keptList } from "@/features/account/kept-list";
import {
  deleteWebhookEndpoint,
  fetchWebhooks,
  patchWebhook,
  postSecretRotation,
  postWebhook,
  type NewWebhook,
  type Webhook,
  type WebhookChange,
  type WebhookWithSecret,
} from "@/features/account/webhooks/api";

const webhooks = keptList(fetchWebhooks);

export const $webhooks = webhooks.$list;
export const reloadWebhooks = webhooks.reload;

/** Adds an endpoint; the answer holds the signing secret, shown once. */
export async function addWebhook(body: NewWebhook, idempotencyKey: string): Promise<WebhookWithSecret> {
  const created = await postWebhook(body, idempotencyKey);
  webhooks.show(created.webhook);
  return created;
}

export async function changeWebhook(id: string, body: WebhookChange, idempotencyKey: string): Promise<Webhook> {
  const changed = await patchWebhook(id, body, idempotencyKey);
  webhooks.show(changed);
  return changed;
}

/** Deletes an endpoint and its deliveries. */
export async function removeWebhook(id: string, idempotencyKey: string): Promise<void> {
  try {
    await deleteWebhookEndpoint(id, idempotencyKey);
    webhooks.drop(id);
  } finally {
    webhooks.reload();
  }
}

/** A new signing secret, shown once; the old one stops signing. */
export async function rotateSecret(id: string, idempotencyKey: string): Promise<WebhookWithSecret> {
  const rotated = await postSecretRotation(id, idempotencyKey);
  webhooks.show(rotated.webhook);
  return rotated;
}
