// The webhook events are written down once, in the contract (src/lib/api-contract/events.ts
// WEBHOOK_EVENTS, which the Settings form and the route schemas use); the hooks' queue
// (pb_hooks/lib/webhooks/queue.js) reads them from the facts file npm run openapi writes
// from it (lib/facts.json). The OpenAPI document's webhooks section and the form's list
// with its texts must name the same events.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { EVENTS as FORM_EVENTS } from "@/features/account/webhooks/schemas";
import { WEBHOOK_EVENTS } from "@/lib/api-contract/events";
import { hookModule } from "./support/hook-module.ts";

const queue = hookModule<{ eventTypes(): string[] }>("lib/webhooks/queue.js");

describe("webhook events", () => {
  it("the hooks queue the contract's events, in the same order", () => {
    expect(queue.eventTypes()).toEqual(WEBHOOK_EVENTS);
  });

  it("the OpenAPI document describes each of them once", () => {
    const doc = JSON.parse(readFileSync("pocketbase/pb_hooks/lib/api/openapi.json", "utf8")) as { webhooks: Record<string, unknown> };
    expect(Object.keys(doc.webhooks)).toEqual(WEBHOOK_EVENTS);
  });

  it("the Add endpoint form offers each of them once, with what it is sent for", () => {
    expect(FORM_EVENTS.map(({ event }) => event)).toEqual(WEBHOOK_EVENTS);
    for (const { text } of FORM_EVENTS) expect(text).not.toBe("");
  });
});
