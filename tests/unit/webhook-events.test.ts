// The webhook events are written down in two languages: the hooks' queue (JavaScript, in
// PocketBase's VM: pb_hooks/lib/webhooks/queue.js EVENTS) and the contract
// (src/lib/api-contract/webhooks.ts WEBHOOK_EVENTS, which the Settings form and the route
// schemas use). The OpenAPI document's webhooks section (api-contract/events.ts) and the
// form's list with its texts must name the same events.
import { describe, expect, it } from "vitest";
import { EVENTS as FORM_EVENTS } from "@/features/account/webhooks/schemas";
import { WEBHOOK_EVENTS as DOCUMENTED_EVENTS } from "@/lib/api-contract/events";
import { WEBHOOK_EVENTS } from "@/lib/api-contract/webhooks";
import { hookModule } from "./support/hook-module.ts";

const queue = hookModule<{ EVENTS: readonly string[] }>("lib/webhooks/queue.js");

describe("webhook events", () => {
  it("the hooks queue the contract's events, in the same order", () => {
    expect(queue.EVENTS).toEqual(WEBHOOK_EVENTS);
  });

  it("the OpenAPI document describes each of them once", () => {
    expect(DOCUMENTED_EVENTS.map((event) => event.type)).toEqual(WEBHOOK_EVENTS);
  });

  it("the Add endpoint form offers each of them once, with what it is sent for", () => {
    expect(FORM_EVENTS.map(({ event }) => event)).toEqual(WEBHOOK_EVENTS);
    for (const { text } of FORM_EVENTS) expect(text).not.toBe("");
  });
});
