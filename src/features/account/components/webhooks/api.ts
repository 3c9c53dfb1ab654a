// Settings → Webhooks (issue #18): the customer's webhook endpoints through /api/v1/webhooks
// (pb_hooks/lib/webhooks/routes.js), typed by the contract (lib/api-contract/webhooks.ts),
// the list's store, the deliveries of one endpoint and the changes. A reload aborts the request
// it supersedes; every change sends an Idempotency-Key.
import { atom, onMount } from "nanostores";
import type { BodyOf, ResponseOf } from "@/lib/api-contract/define";
import type {
  createWebhook,
  listWebhookDeliveries,
  listWebhooks,
  resendWebhookDelivery,
  updateWebhook,
  WebhookEvent,
} from "@/lib/api-contract/webhooks";
import { errorMessage, isAbort } from "@/lib/api-error";
import { pb, withSignal } from "@/lib/pocketbase";

export type Webhook = ResponseOf<typeof listWebhooks>["items"][number];
export type NewWebhook = BodyOf<typeof createWebhook>;
export type WebhookChange = BodyOf<typeof updateWebhook>;
export type WebhookWithSecret = ResponseOf<typeof createWebhook>;
export type DeliveryPage = ResponseOf<typeof listWebhookDeliveries>;
export type Delivery = DeliveryPage["items"][number];

const PATH = "/api/v1/webhooks";

/** The events offered, in the order, each with when it is sent. */
export const EVENTS: readonly { event: WebhookEvent; text: string }[] = [
  { event: "purchase.completed", text: "Proxies you bought are assigned and ready to use." },
  { event: "proxy.expiring", text: "A proxy expires in 3 days." },
  { event: "proxy.expired", text: "A proxy expired and stopped working." },
  { event: "proxy.quota_reached", text: "A proxy used 80% or all of its monthly traffic quota." },
  { event: "balance.low", text: "Your balance fell under the threshold you set below." },
  { event: "payment.succeeded", text: "A payment added credits to your balance." },
];

export interface WebhookListState {
  status: "loading" | "ready" | "error";
  items: Webhook[];
  error: string;
}

export const $webhooks = atom<WebhookListState>({ status: "loading", items: [], error: "" });
const $reloads = atom(0);

onMount($webhooks, () => {
  let controller: AbortController | null = null;
  const load = () => {
    controller?.abort();
    const current = new AbortController();
    controller = current;
    $webhooks.set({ ...$webhooks.get(), status: "loading", error: "" });
    pb()
      .send<ResponseOf<typeof listWebhooks>>(PATH, { method: "GET", ...withSignal(current.signal) })
      .then(
        (list) => {
          if (!current.signal.aborted) $webhooks.set({ status: "ready", items: list.items, error: "" });
        },
        (err: unknown) => {
          if (current.signal.aborted || isAbort(err)) return;
          $webhooks.set({ ...$webhooks.get(), status: "error", error: errorMessage(err) });
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

export function reloadWebhooks(): void {
  $reloads.set($reloads.get() + 1);
}

/** Puts an endpoint the server answered in the list in place of its old row (or first, when new). */
function showWebhook(webhook: Webhook): void {
  const state = $webhooks.get();
  const known = state.items.some((item) => item.id === webhook.id);
  $webhooks.set({
    ...state,
    items: known ? state.items.map((item) => (item.id === webhook.id ? webhook : item)) : [webhook, ...state.items],
  });
}

const change = <T>(path: string, method: "POST" | "PATCH" | "DELETE", idempotencyKey: string, body?: unknown) =>
  pb().send<T>(`${PATH}${path}`, {
    method,
    ...(body === undefined ? {} : { body }),
    headers: { "Idempotency-Key": idempotencyKey },
    requestKey: null,
  });

const at = (id: string) => `/${encodeURIComponent(id)}`;

/** POST /api/v1/webhooks: the answer holds the signing secret, shown once. */
export async function addWebhook(body: NewWebhook, idempotencyKey: string): Promise<WebhookWithSecret> {
  const created = await change<WebhookWithSecret>("", "POST", idempotencyKey, body);
  showWebhook(created.webhook);
  return created;
}

/** PATCH /api/v1/webhooks/{id}. */
export async function changeWebhook(id: string, body: WebhookChange, idempotencyKey: string): Promise<Webhook> {
  const changed = await change<Webhook>(at(id), "PATCH", idempotencyKey, body);
  showWebhook(changed);
  return changed;
}

/** DELETE /api/v1/webhooks/{id}: the endpoint and its deliveries go. */
export async function removeWebhook(id: string, idempotencyKey: string): Promise<void> {
  try {
    await change<Webhook>(at(id), "DELETE", idempotencyKey);
    const state = $webhooks.get();
    $webhooks.set({ ...state, items: state.items.filter((item) => item.id !== id) });
  } finally {
    reloadWebhooks();
  }
}

/** POST /api/v1/webhooks/{id}/rotate-secret: the new secret, shown once; the old one stops signing. */
export async function rotateSecret(id: string, idempotencyKey: string): Promise<WebhookWithSecret> {
  const rotated = await change<WebhookWithSecret>(`${at(id)}/rotate-secret`, "POST", idempotencyKey);
  showWebhook(rotated.webhook);
  return rotated;
}

/** GET /api/v1/webhooks/{id}/deliveries: one page, newest first. */
export function loadDeliveries(id: string, cursor: string | null, signal: AbortSignal): Promise<DeliveryPage> {
  const query = new URLSearchParams({ limit: "20", ...(cursor ? { cursor } : {}) });
  return pb().send<DeliveryPage>(`${PATH}${at(id)}/deliveries?${query.toString()}`, { method: "GET", ...withSignal(signal) });
}

/** POST /api/v1/webhooks/{id}/deliveries/{delivery}/resend: the new delivery. */
export function resendDelivery(id: string, deliveryId: string, idempotencyKey: string): Promise<ResponseOf<typeof resendWebhookDelivery>> {
  return change(`${at(id)}/deliveries${at(deliveryId)}/resend`, "POST", idempotencyKey);
}
