// API keys: made and revoked only from a signed-in session (a key cannot make keys).
import * as v from "valibot";
import { API_KEY_SCOPES, route } from "./define";
import { Cents, Id, Timestamp } from "./schemas";

const TAG = "API keys";

/** At most this many active (not revoked) keys per account. */
export const MAX_ACTIVE_API_KEYS = 50;
/** The highest monthly spend cap a key may have, in US cents ($1,000,000.00). */
export const MAX_SPEND_CAP_CENTS = 100_000_000;

export const ApiKeyScope = v.picklist(API_KEY_SCOPES);

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

export const NewApiKey = v.object({
  name: v.pipe(v.string(), v.trim(), v.minLength(1, "Name is required"), v.maxLength(100, "Name must be at most 100 characters")),
  scopes: v.pipe(v.array(ApiKeyScope), v.minLength(1, "Choose at least one scope")),
  expires_at: v.optional(v.nullable(v.pipe(v.string(), v.description("ISO 8601, in the future; null or absent = never.")))),
  ip_allowlist: v.optional(v.array(v.string())),
  spend_cap_cents: v.optional(v.nullable(v.pipe(v.number(), v.integer(), v.minValue(1)))),
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
  body: NewApiKey,
  response: v.pipe(
    v.object({ api_key: ApiKey, key: v.pipe(v.string(), v.startsWith("psk_live_"), v.description("The secret: store it now.")) }),
    v.title("CreatedApiKey"),
  ),
  errors: [400, 403, 422],
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

export const keyRoutes = [listApiKeys, createApiKey, revokeApiKey];
