// API keys: made, capped and revoked only from a signed-in session (a key cannot make keys).
import * as v from "valibot";
import { API_KEY_SCOPES, exampleOf, routeList, routesOf } from "./define";
import { Cents, Id, Timestamp, itemList, positiveCents } from "./schemas";

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
  v.examples([
    {
      id: "k9a3s7d1f5g8h2j",
      name: "Inventory sync",
      prefix: "psk_live_3fA9",
      scopes: ["read", "purchase"],
      expires_at: "2027-12-31T00:00:00Z",
      ip_allowlist: ["203.0.113.7"],
      spend_cap_cents: 50000,
      spent_this_month_cents: 1500,
      last_used_at: "2026-11-27T12:40:27Z",
      last_used_ip: "203.0.113.7",
      revoked_at: null,
      created: "2026-11-01T09:00:00Z",
    },
  ]),
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

const keys = routesOf({ tag: "API keys", scope: "session", idempotency: "optional", params: { id: "The key's id." } });

export const listApiKeys = keys.get("/api-keys", {
  summary: "Your API keys",
  description: "Active keys first, then revoked ones; never the keys themselves.",
  response: itemList(ApiKey, "ApiKeyList"),
  errors: [403],
});

export const createApiKey = keys.post("/api-keys", {
  summary: "Create an API key",
  description: "The answer holds the key itself, shown this once: the shop keeps only its hash.",
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
    v.examples([{ api_key: exampleOf(ApiKey), key: "psk_live_3fA9c2Lq8Zr5Tw1Vn7Yb4Mx6Ke0Hd" }]),
  ),
  errors: [403],
});

export const updateApiKey = keys.patch("/api-keys/{id}", {
  summary: "Change an API key's monthly spend cap",
  description:
    "Sets the cap on what the key may spend a UTC month (null removes it); it counts from the start of this month, so a cap below this month's spend stops the key's purchases until the next. A revoked key cannot be changed.",
  body: v.pipe(
    v.object({ spend_cap_cents: v.nullable(positiveCents(MAX_SPEND_CAP_CENTS, SPEND_CAP_MESSAGE)) }),
    v.examples([{ spend_cap_cents: 25000 }, { spend_cap_cents: null }]),
  ),
  response: ApiKey,
  errors: [403],
});

export const revokeApiKey = keys.delete("/api-keys/{id}", {
  summary: "Revoke an API key",
  description: "Takes effect on the key's next request.",
  response: ApiKey,
  errors: [403],
});

export const keyRoutes = routeList({ listApiKeys, createApiKey, updateApiKey, revokeApiKey });
