// How a route of the developer API (/api/v1) is written down once: its method and path,
// who may call it (the API key scope), its inputs and its answer as valibot schemas. The
// OpenAPI document (openapi.ts), the islands' types and the API key middleware's scope
// table all come from these definitions.
import type * as v from "valibot";

/**
 * What an API key needs for a route. "session": only a signed-in session (a key cannot
 * manage keys or account security); "admin": a shop admin's session (the console's
 * /api/admin routes; no key opens them); "public": no sign-in at all.
 */
export type Scope = "read" | "purchase" | "rotate" | "webhooks" | "session" | "admin" | "public";

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
  /** What each {name} of the path is (a file's routes share theirs through routesOf). */
  params?: Record<string, string>;
  query?: ObjectLike;
  body?: v.GenericSchema;
  /** The 2xx answer. */
  response: v.GenericSchema;
  status?: 200 | 201 | 204;
  /**
   * The Idempotency-Key header: "required" on routes that move money; "optional" on other
   * changes (sent, a retry with it answers the first answer and changes nothing again).
   */
  idempotency?: "required" | "optional";
  /** The failures it documents besides the common ones; none when left out. */
  errors?: readonly ErrorStatus[];
  /** What the answer's media type is, when it is not JSON. */
  mediaType?: string;
  /** false: the server does not check requests against the document (x-request-validation). */
  validated?: false;
}

/** A route definition, kept exactly as written (its schemas' types stay precise). */
export function route<const R extends ApiRoute>(definition: R): R {
  return definition;
}

/**
 * What the routes of one file share: their tag, scope and base, what their path parameters
 * are, and the Idempotency-Key of their changes (a GET takes none). A route may say otherwise
 * in its own definition (its params add to the file's).
 */
export type RouteDefaults = Pick<ApiRoute, "tag" | "scope"> & Partial<Pick<ApiRoute, "base" | "idempotency" | "params">>;

/**
 * A route's own part of its definition: what the file's defaults do not say (or say otherwise).
 * Its id is the name the file's routeList gives it.
 */
export type RouteDefinition = Omit<ApiRoute, "id" | "method" | "path" | keyof RouteDefaults> & Partial<RouteDefaults>;

/** A route made from a file's defaults and its own definition (the definition wins). */
export type MadeRoute<D extends RouteDefaults, M extends Method, P extends string, R extends RouteDefinition> = Omit<
  M extends "GET" ? Omit<D, "idempotency"> : D,
  keyof R
> &
  R & { id: string; method: M; path: P };

type RouteMaker<D extends RouteDefaults, M extends Method> = <const P extends string, const R extends RouteDefinition>(
  path: P,
  definition: R,
) => MadeRoute<D, M, P, R>;

/**
 * The route makers of one file: `const webhook = routesOf({ tag: "Webhooks", scope:
 * "webhooks", idempotency: "optional" })`, then `export const createWebhook =
 * webhook.post("/webhooks", { summary, body, response, errors })`, named in the file's
 * routeList. server/lean-contract.ts cuts both objects in the browser's bundles as it cuts a
 * route({...}).
 */
export function routesOf<const D extends RouteDefaults>(defaults: D) {
  const maker =
    <M extends Method>(method: M): RouteMaker<D, M> =>
    (path, definition) => {
      const { idempotency, ...shared } = defaults;
      const applied = method === "GET" || idempotency === undefined ? shared : { ...shared, idempotency };
      const params = defaults.params || definition.params ? { params: { ...defaults.params, ...definition.params } } : {};
      return { ...applied, ...definition, ...params, method, path } as never;
    };
  return { get: maker("GET"), post: maker("POST"), put: maker("PUT"), patch: maker("PATCH"), delete: maker("DELETE") };
}

/**
 * The routes of a file, in order, each named by its key: `routeList({ listWebhooks,
 * createWebhook })` gives listWebhooks the operationId "listWebhooks", so a route's name is
 * written once.
 */
export function routeList(routes: Record<string, Omit<ApiRoute, "id"> & { id?: string }>): ApiRoute[] {
  return Object.entries(routes).map(([id, made]) => Object.assign(made, { id }));
}

/** The {name}s of a route's path, in order. */
export type PathParamsOf<P extends string> = P extends `${string}{${infer Name}}${infer Rest}` ? Name | PathParamsOf<Rest> : never;

/** The {name}s of `path`, in order. */
export const pathParameters = (path: string): string[] => [...path.matchAll(/\{(\w+)\}/g)].map(([, name]) => name ?? "");

/** The JSON answer of a route. */
export type ResponseOf<R extends ApiRoute> = v.InferOutput<R["response"]>;
/** The JSON body a route takes. */
export type BodyOf<R extends ApiRoute> = R["body"] extends v.GenericSchema ? v.InferInput<R["body"]> : never;
/** The query parameters a route takes. */
export type QueryOf<R extends ApiRoute> = R["query"] extends ObjectLike ? v.InferInput<R["query"]> : never;

/** The examples a schema carries (v.examples in its pipe): a body's are what the server accepts. */
export function examplesOf(schema: v.GenericSchema | undefined): readonly unknown[] {
  const pipe = (schema as { pipe?: readonly { type: string; examples?: readonly unknown[] }[] } | undefined)?.pipe ?? [];
  return pipe.flatMap((item) => (item.type === "examples" ? (item.examples ?? []) : []));
}

/** The first example of `schema`, to build the example of what holds it (a page, an answer). */
export function exampleOf<S extends v.GenericSchema>(schema: S): v.InferOutput<S> {
  const [first] = examplesOf(schema);
  if (first === undefined) throw new Error("This schema has no example (v.examples): give it one.");
  return first;
}
