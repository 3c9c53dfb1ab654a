// Writes the OpenAPI 3.1 documents from the route definitions: the developer API's (index.ts;
// the shop serves it at /api/v1/openapi.json) and, with the same builder, the console's
// (admin/openapi.ts; not published). Run by `npm run openapi`.
import type * as v from "valibot";
import { API_ROUTES } from "./index";
import { pathParameters, type ApiRoute, type ErrorStatus } from "./define";
import { EVENT_SUMMARIES, eventBody, WEBHOOK_EVENTS, type WebhookEvent } from "./events";
import { namedSchemas, schemaOf as jsonSchemaOf } from "./json-schema";
import { ApiKey } from "./keys";
import { Order, OrderResult, Problem, Proxy } from "./schemas";

export type Json = Record<string, unknown>;

/** Schemas named once under components.schemas and referred to everywhere else. */
const NAMED = { Proxy, Order, OrderResult, ApiKey, Problem };

export type ErrorTexts = Record<ErrorStatus | 401 | 429, string>;

/** What a document holds besides its routes' operations. */
export interface DocumentSpec {
  routes: readonly ApiRoute[];
  /** Schemas named under components.schemas; `error` names the one every failure answers. */
  named: Record<string, v.GenericSchema>;
  error: { schema: string; mediaType: string };
  errorText: ErrorTexts;
  tags: Record<string, string>;
  info: Json;
  security: Json[];
  securitySchemes: Json;
  webhooks?: Json;
}

const ERROR_TEXT: ErrorTexts = {
  400: "The request is malformed or a field is invalid (see errors).",
  401: "No valid session or API key, or the key was revoked or has expired.",
  403: "Not allowed: outside the key's scopes or IP allowlist, over its spend cap, or the account may not do this.",
  404: "No such thing of yours.",
  409: "It conflicts with the current state (for example: not enough stock).",
  410: "Gone.",
  422: "The Idempotency-Key was already used for a different request.",
  429: "Too many requests for this API key: wait for Retry-After seconds.",
};

/** What each group of routes is for, in the reference's headings. */
const TAGS: Record<string, string> = {
  Account: "Your balance, limits and the addresses your proxies accept.",
  Proxies: "The proxies you own: list, buy, renew, rotate, and their traffic.",
  Catalog: "What is in stock and what it costs.",
  Money: "Your ledger and your orders.",
  "API keys": "Keys for this API; made and revoked from a signed-in session only.",
  Webhooks: "Signed notices to your endpoints when something happens.",
  Activity: "Your account's own log: sign-ins, keys, purchases and more.",
  Affiliate: "Your affiliate program: referrals, earnings and how you are paid.",
  Credits: "Buying credits for your balance.",
  Support: "Support tickets (from a signed-in session).",
  Stripe: "Stripe's notices to the shop; customers never call it.",
  Meta: "About this API.",
};

const schemaOf = (schema: v.GenericSchema, definitions: Record<string, v.GenericSchema> = NAMED): Json => jsonSchemaOf(schema, definitions);

const errorContent = (spec: DocumentSpec): Json => ({
  [spec.error.mediaType]: { schema: { $ref: `#/components/schemas/${spec.error.schema}` } },
});

const problemResponse = (spec: DocumentSpec, status: ErrorStatus | 401 | 429): Json => ({
  description: spec.errorText[status],
  content: errorContent(spec),
  ...(status === 429
    ? {
        headers: {
          "Retry-After": { description: "Seconds to wait.", schema: { type: "integer" } },
          "RateLimit-Limit": { description: "Requests a minute for this key.", schema: { type: "integer" } },
          "RateLimit-Remaining": { description: "Left in this minute.", schema: { type: "integer" } },
        },
      }
    : {}),
});

/** A path parameter: a record id (the hooks answer 404 for one that is not the caller's). */
const ID_PARAMETER: Json = {
  type: "string",
  pattern: "^[A-Za-z0-9]{1,50}$",
  examples: ["a1b2c3d4e5f6g7h"],
  "x-error-messages": { pattern: "This is not an id this API gives: ids are 1-50 letters and digits." },
};

/** A query parameter with a list of values says so as the hooks always did (api.queryChoice). */
function withChoiceMessage(name: string, schema: Json): Json {
  const choices = schema["enum"] as string[] | undefined;
  if (!choices || schema["x-error-messages"]) return schema;
  return { ...schema, "x-error-messages": { enum: `${name} must be one of ${choices.join(", ")}.` } };
}

function parameters(r: ApiRoute, spec: DocumentSpec): Json[] {
  const out: Json[] = [];
  for (const name of pathParameters(r.path)) {
    const description = r.params?.[name];
    if (!description) throw new Error(`${r.id}: describe the path parameter {${name}} (params).`);
    out.push({ name, in: "path", required: true, description, schema: ID_PARAMETER });
  }
  if (r.query) {
    const query = schemaOf(r.query, spec.named) as { properties?: Record<string, Json>; required?: string[] };
    for (const [name, schema] of Object.entries(query.properties ?? {})) {
      const { description, ...rest } = withChoiceMessage(name, schema);
      out.push({
        name,
        in: "query",
        required: query.required?.includes(name) ?? false,
        ...(description ? { description } : {}),
        schema: rest,
      });
    }
  }
  if (r.idempotency) {
    out.push({
      name: "Idempotency-Key",
      in: "header",
      required: r.idempotency === "required",
      description:
        "A new random value (a UUID) for each change; the same value when retrying it. A retry answers what the first request got and changes nothing again; the key used for a different request is refused (422).",
      schema: { type: "string", minLength: 1, maxLength: 255, examples: ["9b1deb4d-3b7d-4bad-9bdd-2b0d7b3dcb6d"] },
    });
  }
  return out;
}

/**
 * The failures an operation documents: its own (ApiRoute.errors) and those its shape brings:
 * 400 with inputs to check, 401 and 403 behind a sign-in (403: a key's scope or a non-admin),
 * 404 for a path parameter that names nothing of the caller's, 422 for a reused
 * Idempotency-Key, 429 always.
 */
export function documentedErrors(r: ApiRoute): (ErrorStatus | 401 | 429)[] {
  const errors = new Set<ErrorStatus | 401 | 429>(r.errors ?? []);
  errors.add(429);
  if (r.scope !== "public") errors.add(401);
  if (r.scope !== "public" && r.scope !== "session") errors.add(403);
  if (r.query || r.body || r.idempotency) errors.add(400);
  if (pathParameters(r.path).length) errors.add(404);
  if (r.idempotency) errors.add(422);
  return [...errors].sort();
}

function security(r: ApiRoute): Json[] {
  if (r.scope === "public") return [];
  if (r.scope === "session" || r.scope === "admin") return [{ session: [] }];
  return [{ apiKey: [r.scope] }, { session: [] }];
}

/** The developer API's routes name their API key scope; the console's have none (no key opens them). */
const isDeveloperApi = (r: ApiRoute) => (r.base ?? "/api/v1") === "/api/v1";

function operation(r: ApiRoute, spec: DocumentSpec): Json {
  const status = String(r.status ?? 200);
  const responses: Json = {};
  if (status === "204") responses[status] = { description: "No content." };
  else
    responses[status] = {
      description: "OK",
      content: { [r.mediaType ?? "application/json"]: { schema: schemaOf(r.response, spec.named) } },
    };
  for (const code of documentedErrors(r)) responses[String(code)] = problemResponse(spec, code);
  responses["5XX"] = {
    description: "Something failed on the shop's side; retrying with the same Idempotency-Key is safe.",
    content: errorContent(spec),
  };
  const params = parameters(r, spec);
  return {
    operationId: r.id,
    tags: [r.tag],
    summary: r.summary,
    ...(r.description ? { description: r.description } : {}),
    ...(isDeveloperApi(r) ? { "x-scope": r.scope } : {}),
    ...(r.validated === false ? { "x-request-validation": false } : {}),
    security: security(r),
    ...(params.length ? { parameters: params } : {}),
    ...(r.body ? { requestBody: { required: true, content: { "application/json": { schema: schemaOf(r.body, spec.named) } } } } : {}),
    responses,
  };
}

/** An event as OpenAPI 3.1 writes what the shop sends to a customer's endpoint. */
function webhookOperation(event: WebhookEvent): Json {
  const header = (name: string, description: string) => ({ name, in: "header", required: true, description, schema: { type: "string" } });
  return {
    post: {
      operationId: `event${event.replace(/(^|[._])(\w)/g, (_m, _s, c: string) => c.toUpperCase())}`,
      tags: ["Webhooks"],
      summary: event,
      description: `${EVENT_SUMMARIES[event]} Signed per Standard Webhooks: verify webhook-signature with your endpoint's secret (the standardwebhooks package does it); webhook-id is the same on retries and resends.`,
      parameters: [
        header("webhook-id", "The message id (msg_…): the same on every retry and resend of this event."),
        header("webhook-timestamp", "Unix seconds of this attempt."),
        header("webhook-signature", "v1,<base64 HMAC-SHA256 of id.timestamp.body under the secret>."),
      ],
      requestBody: { required: true, content: { "application/json": { schema: schemaOf(eventBody(event)) } } },
      responses: {
        "2XX": {
          description:
            "Received. Anything else (or no answer within 10 s) is retried: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, until 24 h after the event.",
        },
      },
    },
  };
}

/** The OpenAPI 3.1 document of `spec`; `serverUrl` is the shop's address (the served copy sets it). */
export function buildDocument(spec: DocumentSpec, serverUrl: string): Json {
  const paths: Record<string, Json> = {};
  for (const r of spec.routes) {
    const path = `${r.base ?? "/api/v1"}${r.path}`;
    paths[path] = { ...(paths[path] ?? {}), [r.method.toLowerCase()]: operation(r, spec) };
  }
  const schemas = namedSchemas(spec.named);
  const tags = [...new Set(spec.routes.map((r) => r.tag))].map((name) => ({ name, description: spec.tags[name] ?? name }));
  return {
    openapi: "3.1.0",
    info: spec.info,
    servers: [{ url: serverUrl, description: "This shop" }],
    tags,
    security: spec.security,
    paths,
    ...(spec.webhooks ? { webhooks: spec.webhooks } : {}),
    components: { schemas, securitySchemes: spec.securitySchemes },
  };
}

/** The developer API's document; `serverUrl` is the shop's address (the served copy sets it). */
export function openApiDocument(serverUrl = "http://127.0.0.1:8090"): Json {
  return buildDocument(
    {
      routes: API_ROUTES,
      named: NAMED,
      error: { schema: "Problem", mediaType: "application/problem+json" },
      errorText: ERROR_TEXT,
      tags: TAGS,
      info: {
        title: "Proxy shop API",
        version: "1",
        description:
          "Buy, list, rotate and watch your proxies from code. Authenticate with `Authorization: Bearer <API key>` (Settings → API Access). Every failure answers RFC 9457 problem details; every change takes an Idempotency-Key.",
        license: { name: "Proprietary", identifier: "LicenseRef-Proprietary" },
      },
      security: [{ apiKey: ["read"] }, { session: [] }],
      webhooks: Object.fromEntries(WEBHOOK_EVENTS.map((event) => [event, webhookOperation(event)])),
      securitySchemes: {
        apiKey: {
          type: "http",
          scheme: "bearer",
          bearerFormat: "psk_live_…",
          description: "An API key from Settings → API Access. Each operation names the scope it needs (read, purchase, rotate, webhooks).",
        },
        session: { type: "http", scheme: "bearer", description: "A session token from signing in (what the dashboard uses)." },
      },
    },
    serverUrl,
  );
}
