// One typed way to call a contract route, for the islands, the MCP server and the tests: the
// route object gives the method, the path (with its {name} parameters), the query and whether
// an Idempotency-Key goes with it; the answer is typed by the route's response schema. How the
// request travels (the PocketBase SDK with the session, fetch with an API key) is the
// transport's business, so every caller shares the part that must not drift.
import type { ApiRoute, BodyOf, PathParamsOf, QueryOf, ResponseOf } from "./define";

/** What one call sends: the route's path parameters, query and body, typed by the contract. */
export interface CallInput<R extends ApiRoute> {
  params?: Record<PathParamsOf<R["path"]>, string>;
  query?: [QueryOf<R>] extends [never] ? never : QueryOf<R>;
  body?: BodyOf<R>;
  /**
   * The attempt's key: the same on every retry of one intention (required where the route says
   * so). null sends none on purpose, to see the server refuse it.
   */
  idempotencyKey?: string | null;
  signal?: AbortSignal;
}

/** The request a transport sends: a full path ("/api/v1/..."), its query and headers. */
export interface RouteRequest {
  method: ApiRoute["method"];
  path: string;
  query: Record<string, string>;
  headers: Record<string, string>;
  body?: unknown;
  signal?: AbortSignal;
}

export type Transport = (request: RouteRequest) => Promise<unknown>;

export interface ApiClient {
  call<R extends ApiRoute>(route: R, input?: CallInput<R>): Promise<ResponseOf<R>>;
}

/** A path parameter the caller left out: a programming error, said plainly. */
export class MissingParameterError extends Error {}

/** The request for one call of `route`; throws when a path parameter or a required key is missing. */
export function requestOf<R extends ApiRoute>(route: R, input: CallInput<R> = {}): RouteRequest {
  const params = (input.params ?? {}) as Record<string, string>;
  const path = route.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name];
    if (!value) throw new MissingParameterError(`The ${name} is required.`);
    return encodeURIComponent(value);
  });
  const query: Record<string, string> = {};
  for (const [name, value] of Object.entries((input.query ?? {}) as Record<string, string | number | boolean | undefined>))
    if (value !== undefined && value !== "") query[name] = String(value);
  const headers: Record<string, string> = {};
  if (input.idempotencyKey) headers["Idempotency-Key"] = input.idempotencyKey;
  else if (input.idempotencyKey === undefined && route.idempotency === "required")
    throw new MissingParameterError(`${route.method} ${route.path} needs an Idempotency-Key.`);
  return {
    method: route.method,
    path: `${route.base ?? "/api/v1"}${path}`,
    query,
    headers,
    ...(input.body === undefined ? {} : { body: input.body }),
    ...(input.signal ? { signal: input.signal } : {}),
  };
}

/** A caller of contract routes over `transport`. */
export function apiClient(transport: Transport): ApiClient {
  return {
    async call(route, input) {
      return transport(requestOf(route, input));
    },
  };
}

/** `path?query` of a request, for transports that take a URL. */
export function urlOf(request: RouteRequest): string {
  const search = new URLSearchParams(request.query).toString();
  return search ? `${request.path}?${search}` : request.path;
}
