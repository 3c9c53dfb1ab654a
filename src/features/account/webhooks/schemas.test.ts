// The "Add endpoint" form's checks and the body it sends (the server's own checks are in
// tests/api/webhooks-routes.test.ts; these mirror them for instant feedback).
import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { EMPTY_WEBHOOK, NewWebhookSchema, WEBHOOK_MESSAGES } from "@/features/account/webhooks/schemas";

const messages = (input: unknown): Partial<Record<string, string[]>> => {
  const result = v.safeParse(NewWebhookSchema, input);
  return result.success ? {} : (v.flatten<typeof NewWebhookSchema>(result.issues).nested ?? {});
};

describe("NewWebhookSchema", () => {
  it("sends the URL trimmed, the ticked events and no threshold without balance.low", () => {
    expect(
      v.parse(NewWebhookSchema, { ...EMPTY_WEBHOOK, url: " https://example.com/hooks ", events: "purchase.completed", threshold: "5" }),
    ).toEqual({ url: "https://example.com/hooks", events: ["purchase.completed"], description: "", balance_low_cents: null });
  });

  it("sends the low-balance threshold in cents with balance.low", () => {
    const body = v.parse(NewWebhookSchema, { ...EMPTY_WEBHOOK, url: "https://example.com", events: ["balance.low"], threshold: "12.5" });
    expect(body.balance_low_cents).toBe(1250);
    expect(
      v.parse(NewWebhookSchema, { ...EMPTY_WEBHOOK, url: "https://example.com", events: ["balance.low"] }).balance_low_cents,
    ).toBeNull();
  });

  it("names each problem under its field", () => {
    expect(messages({ ...EMPTY_WEBHOOK, events: false })).toEqual({
      url: [WEBHOOK_MESSAGES.urlRequired],
      events: [WEBHOOK_MESSAGES.noEvent],
    });
    expect(messages({ ...EMPTY_WEBHOOK, url: "example.com", events: ["proxy.expired"] })).toEqual({ url: [WEBHOOK_MESSAGES.urlInvalid] });
    expect(messages({ ...EMPTY_WEBHOOK, url: `https://example.com/${"a".repeat(2000)}`, events: ["proxy.expired"] }).url).toEqual([
      WEBHOOK_MESSAGES.urlTooLong,
    ]);
    expect(messages({ ...EMPTY_WEBHOOK, url: "https://example.com", events: ["balance.low"], threshold: "1.234" })).toEqual({
      threshold: [WEBHOOK_MESSAGES.thresholdFraction],
    });
    expect(messages({ ...EMPTY_WEBHOOK, url: "https://example.com", events: ["balance.low"], threshold: "0" }).threshold).toEqual([
      WEBHOOK_MESSAGES.thresholdNotPositive,
    ]);
    expect(
      messages({ ...EMPTY_WEBHOOK, url: "https://example.com", events: ["proxy.expired"], description: "x".repeat(201) }).description,
    ).toEqual([WEBHOOK_MESSAGES.descriptionTooLong]);
  });
});
