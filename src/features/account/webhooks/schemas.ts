// The "Add endpoint" form: what it checks before sending, mirroring the server's checks
// (lib/webhooks/routes.js, lib/webhooks/endpoint-url.js), which stay the truth (https and
// public addresses are the server's to decide: a shop on one machine takes loopback http).
// The form holds texts; its output is the POST body, the low-balance threshold in whole cents
// (sent only with balance.low).
import * as v from "valibot";
import { WEBHOOK_EVENTS, type WebhookEvent } from "@/lib/api-contract/events";
import { BALANCE_LOW_CENTS, MAX_WEBHOOK_DESCRIPTION, MAX_WEBHOOK_URL } from "@/lib/api-contract/webhooks";
import type { NewWebhook } from "@/features/account/webhooks/api";

/** The events offered, in the issue's order, each with when it is sent. */
export const EVENTS: readonly { event: WebhookEvent; text: string }[] = [
  { event: "purchase.completed", text: "Proxies you bought are assigned and ready to use." },
  { event: "proxy.expiring", text: "A proxy expires in 3 days." },
  { event: "proxy.expired", text: "A proxy expired and stopped working." },
  { event: "proxy.quota_reached", text: "A proxy used 80% or all of its monthly traffic quota." },
  { event: "balance.low", text: "Your balance fell under the threshold you set below." },
  { event: "payment.succeeded", text: "A payment added credits to your balance." },
];

export const WEBHOOK_MESSAGES = {
  urlRequired: "Enter the endpoint's URL, e.g. https://example.com/webhooks.",
  urlTooLong: `The URL must be at most ${MAX_WEBHOOK_URL} characters.`,
  urlInvalid: "Enter a valid URL, e.g. https://example.com/webhooks.",
  noEvent: "Choose at least one event",
  descriptionTooLong: `The description must be at most ${MAX_WEBHOOK_DESCRIPTION} characters`,
  thresholdNotNumber: "Enter the threshold in dollars, for example 10 or 12.50",
  thresholdFraction: "The threshold cannot have fractions of a cent (at most 2 decimal places)",
  thresholdNotPositive: "The threshold must be more than $0.00, or leave it empty",
  thresholdTooLarge: "The threshold can be at most $1,000,000.00",
} as const;

/** "12.5" dollars -> 1250 cents; null when empty. */
export function dollarsToCents(text: string): number | null {
  const trimmed = text.trim();
  return trimmed === "" ? null : Math.round(Number(trimmed) * 100);
}

/** The threshold's message, or "" when it is empty or a positive dollar amount. */
export function thresholdError(text: string): string {
  const trimmed = text.trim();
  if (trimmed === "") return "";
  if (!/^(\d+\.?\d*|\.\d+)$/.test(trimmed)) return WEBHOOK_MESSAGES.thresholdNotNumber;
  if (!/^\d*(\.\d{0,2})?$/.test(trimmed)) return WEBHOOK_MESSAGES.thresholdFraction;
  if (!(Number(trimmed) > 0)) return WEBHOOK_MESSAGES.thresholdNotPositive;
  return (dollarsToCents(trimmed) ?? 0) > BALANCE_LOW_CENTS.max ? WEBHOOK_MESSAGES.thresholdTooLarge : "";
}

/** True for an absolute http(s) URL. */
function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return (url.protocol === "https:" || url.protocol === "http:") && url.hostname !== "";
  } catch {
    return false;
  }
}

export const NewWebhookSchema = v.pipe(
  v.object({
    url: v.pipe(
      v.string(),
      v.trim(),
      v.nonEmpty(WEBHOOK_MESSAGES.urlRequired),
      v.maxLength(MAX_WEBHOOK_URL, WEBHOOK_MESSAGES.urlTooLong),
      v.check((url) => url === "" || isHttpUrl(url), WEBHOOK_MESSAGES.urlInvalid),
    ),
    // An unticked group gives false, a single ticked box its value: both become a list.
    events: v.pipe(
      v.union([v.array(v.picklist(WEBHOOK_EVENTS)), v.picklist(WEBHOOK_EVENTS), v.literal(false)]),
      v.transform((value) => (value === false ? [] : Array.isArray(value) ? value : [value])),
      v.minLength(1, WEBHOOK_MESSAGES.noEvent),
    ),
    description: v.pipe(v.string(), v.trim(), v.maxLength(MAX_WEBHOOK_DESCRIPTION, WEBHOOK_MESSAGES.descriptionTooLong)),
    threshold: v.string(),
  }),
  // The threshold is checked only with balance.low (without it the field is hidden and not sent).
  v.forward(
    v.rawCheck(({ dataset, addIssue }) => {
      if (!dataset.typed || !dataset.value.events.includes("balance.low")) return;
      const message = thresholdError(dataset.value.threshold);
      if (message) addIssue({ message });
    }),
    ["threshold"],
  ),
  v.transform(({ url, events, description, threshold }): NewWebhook => ({
    url,
    events,
    description,
    balance_low_cents: events.includes("balance.low") ? dollarsToCents(threshold) : null,
  })),
);

export type NewWebhookInput = v.InferInput<typeof NewWebhookSchema>;
export type NewWebhookOutput = v.InferOutput<typeof NewWebhookSchema>;

export const EMPTY_WEBHOOK: NewWebhookInput = { url: "", events: [], description: "", threshold: "" };

/** The form field that shows a server error on each body field. */
export const SERVER_FIELDS = {
  url: "url",
  events: "events",
  description: "description",
  balance_low_cents: "threshold",
} as const satisfies Record<string, keyof NewWebhookInput>;
