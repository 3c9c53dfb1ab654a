// The webhook events a customer's endpoints receive (Standard Webhooks: the body is
// {type, timestamp, data}, signed in the webhook-id / webhook-timestamp / webhook-signature
// headers). The OpenAPI document lists them under `webhooks`; the hooks that queue them
// are in pocketbase/pb_hooks/lib/webhooks/ and read this list from the facts file
// (lib/facts.json, see facts.ts).
import * as v from "valibot";
import { Cents, Count, Id, Order, ProxyFields, Timestamp } from "./schemas";

/** The events an endpoint can subscribe to, in the order. */
export const WEBHOOK_EVENTS = [
  "purchase.completed",
  "proxy.expiring",
  "proxy.expired",
  "proxy.quota_reached",
  "balance.low",
  "payment.succeeded",
] as const;

/** An event's name ("purchase.completed" ...). */
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

/** What each event announces. */
export const EVENT_SUMMARIES: Record<WebhookEvent, string> = {
  "purchase.completed": "A purchase of proxies went through (renewals do not send it).",
  "proxy.expiring": "A proxy expires in 3 days (once a term).",
  "proxy.expired": "A proxy expired: its credentials no longer work.",
  "proxy.quota_reached": "A proxy used 80% or 100% of its monthly bandwidth quota (each once a UTC month).",
  "balance.low": "Your balance went below the endpoint's threshold.",
  "payment.succeeded": "A credit purchase was paid and credited.",
};

/** A proxy in an event: as the API answers it, without its password. */
const EventProxy = v.omit(ProxyFields, ["password"]);

/** The data each event carries. */
const EVENT_DATA: Record<WebhookEvent, v.GenericSchema> = {
  "purchase.completed": v.object({ order: Order, proxies: v.array(EventProxy), balance_cents: Cents }),
  "proxy.expiring": v.object({ proxy: EventProxy, expires_at: Timestamp }),
  "proxy.expired": v.object({ proxy: EventProxy }),
  "proxy.quota_reached": v.object({ proxy: EventProxy, level: v.picklist([80, 100]), bytes: Count, quota_bytes: Count }),
  "balance.low": v.object({ balance_cents: Cents, threshold_cents: Cents }),
  "payment.succeeded": v.object({ payment_id: Id, amount_cents: Cents, credits_cents: Cents, balance_cents: Cents }),
};

/** The body of an event: Standard Webhooks' envelope. */
export function eventBody(event: WebhookEvent) {
  return v.object({
    type: v.literal(event),
    timestamp: Timestamp,
    data: EVENT_DATA[event],
  });
}
