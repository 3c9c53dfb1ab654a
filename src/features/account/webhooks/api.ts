// Settings → Webhooks (issue #18): the customer's webhook endpoints through the developer API
// (pb_hooks/lib/webhooks/routes.js), called through the typed caller with the contract's
// routes (lib/api-contract/webhooks.ts). Every change sends an Idempotency-Key.
import { api } from "@/lib/api-client";
import type { BodyOf, ResponseOf } from "@/lib/api-contract/define";
import {
  createWebhook,
  deleteWebhook,
  listWebhookDeliveries,
  listWebhooks,
  resendWebhookDelivery,
  rotateWebhookSecret,
  updateWebhook,
} from "@/lib/api-contract/webhooks";

export type Webhook = ResponseOf<typeof listWebhooks>["items"][number];
export type NewWebhook = BodyOf<typeof createWebhook>;
export type WebhookChange = BodyOf<typeof updateWebhook>;
export type WebhookWithSecret = ResponseOf<typeof createWebhook>;
export type DeliveryPage = ResponseOf<typeof listWebhookDeliveries>;
export type Delivery = DeliveryPage["items"][number];

export function fetchWebhooks(signal: AbortSignal): Promise<ResponseOf<typeof listWebhooks>> {
  return api.call(listWebhooks, { signal });
}

/** A new endpoint: the answer holds the signing secret, shown once. */
export function postWebhook(body: NewWebhook, idempotencyKey: string): Promise<WebhookWithSecret> {
  return api.call(createWebhook, { body, idempotencyKey });
}

export function patchWebhook(id: string, body: WebhookChange, idempotencyKey: string): Promise<Webhook> {
  return api.call(updateWebhook, { params: { id }, body, idempotencyKey });
}

/** The endpoint and its deliveries go. */
export function deleteWebhookEndpoint(id: string, idempotencyKey: string): Promise<ResponseOf<typeof deleteWebhook>> {
  return api.call(deleteWebhook, { params: { id }, idempotencyKey });
}

/** The new secret, shown once; the old one stops signing. */
export function postSecretRotation(id: string, idempotencyKey: string): Promise<WebhookWithSecret> {
  return api.call(rotateWebhookSecret, { params: { id }, idempotencyKey });
}

/** One page of an endpoint's deliveries, newest first. */
export function loadDeliveries(id: string, cursor: string | null, signal: AbortSignal): Promise<DeliveryPage> {
  return api.call(listWebhookDeliveries, { params: { id }, query: { limit: "20", ...(cursor ? { cursor } : {}) }, signal });
}

/** Sends a delivery again: the new delivery. */
export function resendDelivery(id: string, delivery: string, idempotencyKey: string): Promise<ResponseOf<typeof resendWebhookDelivery>> {
  return api.call(resendWebhookDelivery, { params: { id, delivery }, idempotencyKey });
}
