// How a route of the developer API (/api/v1) is written down once: its method and path,
// who may call it (the API key scope), its inputs and its answer as valibot schemas. The
// OpenAPI document (openapi.ts), the islands' types and the API key middleware's scope
// table all come from these definitions.
import type * as v from "valibot";

/**
 * What an API key needs for a route. "session": only a signed-in session (a key cannot
 * manage keys or account security); "public": no sign-in at all.
 */
export type Scope = "read" | "purchase" | "rotate" | "webhooks" | "session" | "public";

export const API_KEY_SCOPES = ["read", "purchase", "rotate", "webhooks"] as const;
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];

export type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/** The failures a route documents besides 401, 429 and 5xx, which every route may answer. */
export type ErrorStatus = 400 | 403 | 404 | 409 | 410 | 422;

type ObjectLike = v.ObjectSchema<v.ObjectEntries, v.ErrorMessage<v.ObjectIssue> | undefined>;

export interface ApiRoute {
  /** The OpenAPI operationId (camelCase). */
  id: string;
  method: Method;
  /** Under `base`, with {name} path parameters as PocketBase routes them. */
  path: string;
  /** Where the route lives: the developer API (the default), the console's or the public account routes. */
  base?: "/api/v1" | "/api/admin" | "/api/shop";
  tag: string;
  summary: string;
  description?: string;
  scope: Scope;
  /** Path parameters, each a string. */
  params?: Record<string, string>;
  query?: ObjectLike;
  body?: v.GenericSchema;
  /** The 2xx answer. */
  response: v.GenericSchema;
  status?: 200 | 201;
  /**
   * The Idempotency-Key header: "required" on routes that move money; "optional" on other
   * changes (sent, a retry with it answers the first answer and changes nothing again).
   */
  idempotency?: "required" | "optional";
  errors: readonly ErrorStatus[];
  /** What the answer's media type is, when it is not JSON. */
  mediaType?: string;
  /** false: the server does not check requests against the document (x-request-validation). */
  validated?: false;
}

/** A route definition, kept exactly as written (its schemas' types stay precise). */
export function route<const R extends ApiRoute>(definition: R): R {
  return definition;
}

/** The JSON answer of a route. */
export type ResponseOf<R extends ApiRoute> = v.InferOutput<R["response"]>;
/** The JSON body a route takes. */
export type BodyOf<R extends ApiRoute> = R["body"] extends v.GenericSchema ? v.InferInput<R["body"]> : never;
/** The query parameters a route takes. */
export type QueryOf<R extends ApiRoute> = R["query"] extends ObjectLike ? v.InferInput<R["query"]> : never;
