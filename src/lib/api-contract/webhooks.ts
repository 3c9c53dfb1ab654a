// Webhooks: a customer's endpoints, their signing secrets (shown once) and deliveries
// (pb_hooks/lib/webhooks/routes.js). Deliveries are signed per Standard Webhooks and retried
// for 24 hours by the shop's dispatcher.
import * as v from "valibot";
import { exampleOf, routeList, routesOf } from "./define";
import { WEBHOOK_EVENTS } from "./events";
import { Count, Id, Timestamp, itemList, page, pageQuery, positiveCents } from "./schemas";

export type { WebhookEvent } from "./events";

export const DELIVERY_STATUSES = ["pending", "delivering", "succeeded", "failed"] as const;

/** At most this many endpoints per account. */
export const MAX_WEBHOOKS = 10;
export const MAX_WEBHOOK_URL = 2000;
export const MAX_WEBHOOK_DESCRIPTION = 200;
/** balance.low's threshold, in US cents. */
export const BALANCE_LOW_CENTS = { min: 1, max: 100_000_000 } as const;

export const WebhookEventName = v.picklist(WEBHOOK_EVENTS, `Events are ${WEBHOOK_EVENTS.join(", ")}`);

const BALANCE_LOW_MESSAGE = "The low-balance threshold must be a whole number of cents from 1 to 100,000,000 (or none)";
const BalanceLow = v.pipe(
  v.nullable(positiveCents(BALANCE_LOW_CENTS.max, BALANCE_LOW_MESSAGE)),
  v.description("balance.low is sent when your balance falls under this many US cents; null = no threshold."),
);

export const Webhook = v.pipe(
  v.object({
    id: Id,
    url: v.string(),
    description: v.string(),
    events: v.array(WebhookEventName),
    enabled: v.boolean(),
    balance_low_cents: BalanceLow,
    disabled_reason: v.pipe(v.string(), v.description('Why the shop turned the endpoint off; "" when it did not.')),
    created: Timestamp,
    updated: Timestamp,
  }),
  v.title("Webhook"),
  v.description("An endpoint of yours that receives signed events (never its secret)."),
  v.examples([
    {
      id: "w4h8k2n6p9s3v7y",
      url: "https://example.com/webhooks",
      description: "Orders to the warehouse",
      events: ["purchase.completed", "balance.low"],
      enabled: true,
      balance_low_cents: 5000,
      disabled_reason: "",
      created: "2026-11-27T12:40:27Z",
      updated: "2026-11-27T12:40:27Z",
    },
  ]),
);

const Url = v.pipe(
  v.string("Enter the endpoint's URL, e.g. https://example.com/webhooks."),
  v.minLength(1, "Enter the endpoint's URL, e.g. https://example.com/webhooks."),
  v.maxLength(MAX_WEBHOOK_URL, `The URL must be at most ${MAX_WEBHOOK_URL} characters.`),
  v.regex(/^\s*[A-Za-z][A-Za-z0-9+.-]*:\/\/\S/, "Enter a valid URL, e.g. https://example.com/webhooks."),
  v.description("https:// (plain http and loopback hosts only on a shop running on one machine); no private addresses."),
);
const Events = v.pipe(
  v.array(WebhookEventName, "Choose at least one event"),
  v.minLength(1, "Choose at least one event"),
  v.description("The events to send; at least one."),
);
const Description = v.nullable(
  v.pipe(
    v.string("The description must be text"),
    v.maxLength(MAX_WEBHOOK_DESCRIPTION, `The description must be at most ${MAX_WEBHOOK_DESCRIPTION} characters`),
  ),
);

const Secret = v.pipe(
  v.string(),
  v.startsWith("whsec_"),
  v.description("The signing secret (Standard Webhooks), shown this once: verify each delivery's webhook-signature with it."),
);

export const WebhookWithSecret = v.pipe(
  v.object({ webhook: Webhook, secret: Secret }),
  v.title("WebhookWithSecret"),
  v.examples([{ webhook: exampleOf(Webhook), secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw" }]),
);

export const Delivery = v.pipe(
  v.object({
    id: Id,
    event: v.string(),
    status: v.picklist(DELIVERY_STATUSES),
    attempts: Count,
    last_status_code: v.pipe(Count, v.description("The receiver's HTTP status of the last attempt; 0 when none came.")),
    last_response_ms: v.pipe(Count, v.description("How long the last attempt took, in milliseconds.")),
    last_error: v.string(),
    created: Timestamp,
    delivered_at: v.nullable(Timestamp),
    next_attempt_at: v.pipe(v.nullable(Timestamp), v.description("When the next attempt is due; null when none is planned.")),
  }),
  v.title("WebhookDelivery"),
  v.examples([
    {
      id: "d2f6j9m3q7t1w5z",
      event: "purchase.completed",
      status: "succeeded",
      attempts: 1,
      last_status_code: 200,
      last_response_ms: 84,
      last_error: "",
      created: "2026-11-27T12:40:27Z",
      delivered_at: "2026-11-27T12:40:28Z",
      next_attempt_at: null,
    },
  ]),
);

const webhooks = routesOf({
  tag: "Webhooks",
  scope: "webhooks",
  idempotency: "optional",
  params: { id: "The endpoint's id.", delivery: "The delivery's id." },
});

export const listWebhooks = webhooks.get("/webhooks", {
  summary: "Your webhook endpoints",
  description: "Newest first.",
  response: itemList(Webhook, "WebhookList"),
});

export const createWebhook = webhooks.post("/webhooks", {
  summary: "Add a webhook endpoint",
  description: `The answer holds the endpoint's signing secret, shown this once. At most ${MAX_WEBHOOKS} endpoints an account.`,
  status: 201,
  body: v.pipe(
    v.object({
      url: Url,
      events: Events,
      description: v.optional(Description),
      balance_low_cents: v.optional(BalanceLow),
    }),
    v.examples([
      {
        url: "https://example.com/webhooks",
        events: ["purchase.completed", "balance.low"],
        description: "Orders to the warehouse",
        balance_low_cents: 5000,
      },
    ]),
  ),
  response: WebhookWithSecret,
});

export const updateWebhook = webhooks.patch("/webhooks/{id}", {
  summary: "Change a webhook endpoint",
  description: "Only the fields sent change. Turning an endpoint on again clears why it was turned off.",
  body: v.pipe(
    v.object({
      url: v.optional(Url),
      events: v.optional(Events),
      description: v.optional(Description),
      enabled: v.optional(v.boolean("enabled must be true or false")),
      balance_low_cents: v.optional(BalanceLow),
    }),
    v.examples([{ events: ["purchase.completed", "proxy.expiring"], enabled: true }]),
  ),
  response: Webhook,
});

export const deleteWebhook = webhooks.delete("/webhooks/{id}", {
  summary: "Remove a webhook endpoint",
  description: "Its deliveries go with it; nothing more is sent to it.",
  response: Webhook,
});

export const rotateWebhookSecret = webhooks.post("/webhooks/{id}/rotate-secret", {
  summary: "New signing secret for an endpoint",
  description: "The answer holds the new secret, shown this once; the old one stops signing at once.",
  response: WebhookWithSecret,
});

export const listWebhookDeliveries = webhooks.get("/webhooks/{id}/deliveries", {
  summary: "Deliveries to an endpoint",
  description: "Newest first, with each one's status, attempts, last HTTP status and response time.",
  query: v.object({ status: v.optional(v.picklist(DELIVERY_STATUSES)), ...pageQuery }),
  response: page(Delivery, "WebhookDeliveryPage"),
});

export const resendWebhookDelivery = webhooks.post("/webhooks/{id}/deliveries/{delivery}/resend", {
  summary: "Send a delivery again",
  description:
    "A new delivery with the same payload and webhook-id (so a receiver that de-duplicates on it stays idempotent), due at once. A turned-off endpoint is a 409.",
  response: Delivery,
  errors: [409],
});

export const webhookRoutes = routeList({
  listWebhooks,
  createWebhook,
  updateWebhook,
  deleteWebhook,
  rotateWebhookSecret,
  listWebhookDeliveries,
  resendWebhookDelivery,
});
