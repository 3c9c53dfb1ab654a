// POSTing to the shop's routes through the web server, the way the browser's calls go.
import { E2E } from "./env.ts";

/** POSTs a JSON body (as `token`, with extra headers) and answers the JSON; throws on a non-2xx answer. */
export async function api<T>(path: string, init: { token?: string; body: unknown; headers?: Record<string, string> }): Promise<T> {
  const res = await fetch(`${E2E.baseUrl}${path}`, {
    method: "POST",
    headers: { "Content-Type": "application/json", ...(init.token ? { Authorization: init.token } : {}), ...init.headers },
    body: JSON.stringify(init.body),
  });
  const json = (await res.json()) as T;
  if (!res.ok) throw new Error(`${path} answered ${res.status}: ${JSON.stringify(json)}`);
  return json;
}
