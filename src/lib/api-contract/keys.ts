// API keys: made, capped and revoked only from a signed-in session (a key cannot make keys).
import * as v from "valibot";
import { API_KEY_SCOPES, route } from "./define";
import { Cents, Id, Timestamp, positiveCents } from "./schemas";

const TAG = "API keys";

/** At most this many active (not revoked) keys per account. */
export const MAX_ACTIVE_API_KEYS = 50;
/** The highest monthly spend cap a key may have, in US cents ($1,000,000.00). */
export const MAX_SPEND_CAP_CENTS = 100_000_000;

export const ApiKeyScope = v.picklist(API_KEY_SCOPES, `Scopes are ${API_KEY_SCOPES.join(", ")}`);

export const ApiKey = v.pipe(
  v.object({
    id: Id,
    name: v.string(),
    prefix: v.pipe(v.string(), v.description("The key's first characters, to tell keys apart (psk_live_…).")),
    scopes: v.array(ApiKeyScope),
    expires_at: v.nullable(Timestamp),
    ip_allowlist: v.pipe(v.array(v.string()), v.description("Addresses and CIDR ranges the key works from; empty = anywhere.")),
    spend_cap_cents: v.pipe(v.nullable(Cents), v.description("What the key may spend a UTC month; null = no cap.")),
    spent_this_month_cents: Cents,
    last_used_at: v.nullable(Timestamp),
    last_used_ip: v.string(),
    revoked_at: v.nullable(Timestamp),
    created: Timestamp,
  }),
  v.title("ApiKey"),
);

const SPEND_CAP_MESSAGE = "The spend cap must be a whole number of cents from 1 to 100,000,000 (or none)";
const EXPIRY_MESSAGE = "Expiry must be a date, e.g. 2027-01-31";

export const NewApiKey = v.object({
  name: v.pipe(
    v.string("Name is required"),
    v.regex(/\S/, "Name is required"),
    v.trim(),
    v.minLength(1, "Name is required"),
    v.maxLength(100, "Name must be at most 100 characters"),
  ),
  scopes: v.pipe(v.array(ApiKeyScope, "Choose at least one scope"), v.minLength(1, "Choose at least one scope")),
  expires_at: v.optional(
    v.nullable(
      v.pipe(
        v.string(EXPIRY_MESSAGE),
        v.metadata({ errorCode: "validation_invalid_date" }),
        v.description("ISO 8601, in the future; null or absent = never."),
      ),
    ),
  ),
  ip_allowlist: v.optional(v.nullable(v.array(v.string(), "The IP allowlist must be a list of addresses or CIDR ranges."))),
  spend_cap_cents: v.optional(v.nullable(positiveCents(MAX_SPEND_CAP_CENTS, SPEND_CAP_MESSAGE))),
});

export const listApiKeys = route({
  id: "listApiKeys",
  method: "GET",
  path: "/api-keys",
  tag: TAG,
  summary: "Your API keys",
  description: "Active keys first, then revoked ones; never the keys themselves.",
  scope: "session",
  response: v.pipe(v.object({ items: v.array(ApiKey) }), v.title("ApiKeyList")),
  errors: [403],
});

export const createApiKey = route({
  id: "createApiKey",
  method: "POST",
  path: "/api-keys",
  tag: TAG,
  summary: "Create an API key",
  description: "The answer holds the key itself, shown this once: the shop keeps only its hash.",
  scope: "session",
  idempotency: "optional",
  status: 201,
  body: v.pipe(
    NewApiKey,
    v.examples([
      {
        name: "Inventory sync",
        scopes: ["read", "purchase"],
        expires_at: "2027-12-31",
        ip_allowlist: ["203.0.113.7"],
        spend_cap_cents: 50000,
      },
    ]),
  ),
  response: v.pipe(
    v.object({ api_key: ApiKey, key: v.pipe(v.string(), v.startsWith("psk_live_"), v.description("The secret: store it now.")) }),
    v.title("CreatedApiKey"),
  ),
  errors: [400, 403, 422],
});

export const updateApiKey = route({
  id: "updateApiKey",
  method: "PATCH",
  path: "/api-keys/{id}",
  tag: TAG,
  summary: "Change an API key's monthly spend cap",
  description:
    "Sets the cap on what the key may spend a UTC month (null removes it); it counts from the start of this month, so a cap below this month's spend stops the key's purchases until the next. A revoked key cannot be changed.",
  scope: "session",
  idempotency: "optional",
  params: { id: "The key's id." },
  body: v.pipe(
    v.object({ spend_cap_cents: v.nullable(positiveCents(MAX_SPEND_CAP_CENTS, SPEND_CAP_MESSAGE)) }),
    v.examples([{ spend_cap_cents: 25000 }, { spend_cap_cents: null }]),
  ),
  response: ApiKey,
  errors: [400, 403, 404, 422],
});

export const revokeApiKey = route({
  id: "revokeApiKey",
  method: "DELETE",
  path: "/api-keys/{id}",
  tag: TAG,
  summary: "Revoke an API key",
  description: "Takes effect on the key's next request.",
  scope: "session",
  idempotency: "optional",
  params: { id: "The key's id." },
  response: ApiKey,
  errors: [403, 404, 422],
});

export const keyRoutes = [listApiKeys, createApiKey, updateApiKey, revokeApiKey];
