// The MCP server's way into the shop: its settings from the environment and one call of the
// developer API (/api/v1) per contract route. The method, path and answer type of every
// call come from src/lib/api-contract, so the tools and the API cannot drift apart.
import { randomUUID } from "node:crypto";
import { apiClient, MissingParameterError, urlOf, type CallInput } from "../src/lib/api-contract/client.ts";
import type { ApiRoute, ResponseOf } from "../src/lib/api-contract/define.ts";

export const DEFAULT_SHOP_URL = "http://127.0.0.1:4321";

export interface McpConfig {
  /** The API key (psk_live_...). */
  apiKey: string;
  /** The shop's origin, without a trailing slash. */
  shopUrl: string;
}

/** A setting the server cannot start without, told as a sentence for the MCP client's log. */
export class ConfigError extends Error {}

/** Reads PROXY_SHOP_API_KEY and PROXY_SHOP_URL; throws a ConfigError saying what to set. */
export function readConfig(env: NodeJS.ProcessEnv): McpConfig {
  const apiKey = env["PROXY_SHOP_API_KEY"]?.trim() ?? "";
  if (!apiKey)
    throw new ConfigError(
      "PROXY_SHOP_API_KEY is not set: create an API key under Settings → API Access (or POST /api/v1/api-keys) and pass it in the MCP server's environment.",
    );
  if (!/^psk_[a-z]+_[A-Za-z0-9]+$/.test(apiKey))
    throw new ConfigError("PROXY_SHOP_API_KEY is not an API key of the shop: keys start with psk_live_ (Settings → API Access).");
  const raw = env["PROXY_SHOP_URL"]?.trim() || DEFAULT_SHOP_URL;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`PROXY_SHOP_URL is not a URL: "${raw}" (e.g. ${DEFAULT_SHOP_URL}).`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw new ConfigError(`PROXY_SHOP_URL must be an http:// or https:// URL, not "${raw}".`);
  return { apiKey, shopUrl: `${url.origin}${url.pathname.replace(/\/+$/, "")}` };
}

/** The API refused a call: `detail` is the problem's detail, as the dashboard would show it. */
export class ApiProblem extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
    readonly code: string | undefined,
  ) {
    super(detail);
  }
}

export interface ShopApi {
  call<R extends ApiRoute>(route: R, input?: CallInput<R>): Promise<ResponseOf<R>>;
}

/** Every problem's detail comes back as an ApiProblem; a shop that cannot be reached too. */
export function shopApi(config: McpConfig, fetchImpl: typeof fetch = fetch): ShopApi {
  const client = apiClient(async (request) => {
    const headers: Record<string, string> = {
      ...request.headers,
      Authorization: `Bearer ${config.apiKey}`,
      Accept: "application/json",
    };
    if (request.body !== undefined) headers["Content-Type"] = "application/json";
    let res: Response;
    try {
      res = await fetchImpl(`${config.shopUrl}${urlOf(request)}`, {
        method: request.method,
        headers,
        ...(request.body === undefined ? {} : { body: JSON.stringify(request.body) }),
        signal: AbortSignal.timeout(30_000),
      });
    } catch (error) {
      const reason = error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : String(error);
      throw new ApiProblem(
        0,
        `Could not reach the shop at ${config.shopUrl} (${reason}). Is it running, and is PROXY_SHOP_URL right?`,
        "unreachable",
      );
    }
    const text = await res.text();
    let body: unknown = null;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      body = null;
    }
    if (!res.ok) throw problemOf(res.status, body);
    return body;
  });
  return {
    call(route, input = {}) {
      // A fresh key per call: the MCP client retrying a tool call is a new intention, while the
      // shop still guards each request against a double submit on the way.
      const idempotencyKey = route.idempotency ? randomUUID() : undefined;
      return client.call(route, { ...(idempotencyKey ? { idempotencyKey } : {}), ...input }).catch((error: unknown) => {
        throw error instanceof MissingParameterError ? new ApiProblem(400, error.message, "missing_parameter") : error;
      });
    },
  };
}

function problemOf(status: number, body: unknown): ApiProblem {
  const problem = (body && typeof body === "object" ? body : {}) as {
    detail?: unknown;
    message?: unknown;
    code?: unknown;
    errors?: unknown;
  };
  let detail =
    typeof problem.detail === "string" && problem.detail ? problem.detail : typeof problem.message === "string" ? problem.message : "";
  if (!detail) detail = `The shop answered ${status}.`;
  // Field errors name what to change; the detail alone may only say "check the fields".
  if (problem.errors && typeof problem.errors === "object") {
    const fields = Object.entries(problem.errors as Record<string, { message?: unknown }>)
      .map(([field, error]) => (typeof error?.message === "string" ? `${field}: ${error.message}` : ""))
      .filter((line) => line && !detail.includes(line.slice(line.indexOf(": ") + 2)));
    if (fields.length) detail = `${detail}\n${fields.join("\n")}`;
  }
  return new ApiProblem(status, detail, typeof problem.code === "string" ? problem.code : undefined);
}
