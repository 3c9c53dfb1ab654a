// The facts of the contract the hooks need, gathered from the definitions: webhook events
// with their summaries, activity kinds, API key scopes and limits, the webhook limits, the
// gateway ports of each proxy type, its sticky sessions' minutes and the placeholders a
// plan's feature text may hold. `npm run openapi` writes them to
// pocketbase/pb_hooks/lib/facts.json (beside catalog.json: core data); the hooks read that
// file through lib/core/facts.js (the way they read catalog.json), so neither language
// states them a second time.
import { ACTIVITY_KINDS } from "./activity";
import { API_KEY_SCOPES } from "./define";
import { EVENT_SUMMARIES, WEBHOOK_EVENTS } from "./events";
import { MAX_ACTIVE_API_KEYS, MAX_SPEND_CAP_CENTS } from "./keys";
import { GATEWAY_SESSION_MINUTES, PLAN_PLACEHOLDERS } from "./plan-facts";
import { GATEWAY_DEFAULT_PORTS, PROXY_TYPE_PORTS } from "./schemas";
import { BALANCE_LOW_CENTS, MAX_WEBHOOK_DESCRIPTION, MAX_WEBHOOK_URL, MAX_WEBHOOKS } from "./webhooks";

/** The facts file's content (its shape is typed for the hooks in pb_hooks/lib/core/facts.js). */
export function contractFacts() {
  return {
    $comment: "Written by `npm run openapi` from src/lib/api-contract/facts.ts: do not edit.",
    webhooks: {
      events: WEBHOOK_EVENTS.map((type) => ({ type, summary: EVENT_SUMMARIES[type] })),
      max_endpoints: MAX_WEBHOOKS,
      max_url_length: MAX_WEBHOOK_URL,
      max_description_length: MAX_WEBHOOK_DESCRIPTION,
      balance_low_cents: { ...BALANCE_LOW_CENTS },
    },
    activity_kinds: [...ACTIVITY_KINDS],
    api_keys: { scopes: [...API_KEY_SCOPES], max_active: MAX_ACTIVE_API_KEYS, max_spend_cap_cents: MAX_SPEND_CAP_CENTS },
    gateway_ports: { defaults: { ...GATEWAY_DEFAULT_PORTS }, by_type: PROXY_TYPE_PORTS },
    gateway_sessions: { default_minutes: GATEWAY_SESSION_MINUTES.default, max_minutes: GATEWAY_SESSION_MINUTES.max },
    plan_placeholders: Object.keys(PLAN_PLACEHOLDERS),
  };
}

export type ContractFacts = ReturnType<typeof contractFacts>;
