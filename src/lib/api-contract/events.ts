// The webhook events a customer's endpoints receive (Standard Webhooks: the body is
// {type, timestamp, data}, signed in the webhook-id / webhook-timestamp / webhook-signature
// headers). The OpenAPI document lists them under `webhooks`; the hooks that queue them
// are in pocketbase/pb_hooks/lib/webhooks/.
import * as v from "valibot";
import { Cents, Count, Id, Order, ProxyFields, Timestamp } from "./schemas";

/** A proxy in an event: as the API answers it, without its password. */
const EventProxy = v.omit(ProxyFields, ["password"]);

/** One event: its name, what it announces, and its data. */
export interface WebhookEvent {
  type: string;
  summary: string;
  data: v.GenericSchema;
}

export const WEBHOOK_EVENTS: readonly WebhookEvent[] = [
  {
    type: "purchase.completed",
    summary: "A purchase of proxies went through (renewals do not send it).",
    data: v.object({ order: Order, proxies: v.array(EventProxy), balance_cents: Cents }),
  },
  {
    type: "proxy.expiring",
    summary: "A proxy expires in 3 days (once a term).",
    data: v.object({ proxy: EventProxy, expires_at: Timestamp }),
  },
  {
    type: "proxy.expired",
    summary: "A proxy expired: its credentials no longer work.",
    data: v.object({ proxy: EventProxy }),
  },
  {
    type: "proxy.quota_reached",
    summary: "A proxy used 80% or 100% of its monthly bandwidth quota (each once a UTC month).",
    data: v.object({ proxy: EventProxy, level: v.picklist([80, 100]), bytes: Count, quota_bytes: Count }),
  },
  {
    type: "balance.low",
    summary: "Your balance went below the endpoint's threshold.",
    data: v.object({ balance_cents: Cents, threshold_cents: Cents }),
  },
  {
    type: "payment.succeeded",
    summary: "A credit purchase was paid and credited.",
    data: v.object({ payment_id: Id, amount_cents: Cents, credits_cents: Cents, balance_cents: Cents }),
  },
];

/** The body of an event: Standard Webhooks' envelope. */
export function eventBody(event: WebhookEvent) {
  return v.object({
    type: v.literal(event.type),
    timestamp: Timestamp,
    data: event.data,
  });
}
