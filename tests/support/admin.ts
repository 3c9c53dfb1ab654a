// Calling the console's admin routes from API tests (refusals: errorOf/statusOf in pocketbase.ts).
import type PocketBase from "pocketbase";

/** GET an /api/admin/ route with a query. */
export function adminGet<T = Record<string, unknown>>(
  pb: PocketBase,
  path: string,
  query: Record<string, string | number> = {},
): Promise<T> {
  return pb.send<T>(path, { method: "GET", query });
}

/** Send a JSON body to an /api/admin/ route (POST unless told otherwise). */
export function adminSend<T = Record<string, unknown>>(pb: PocketBase, path: string, body: unknown = {}, method = "POST"): Promise<T> {
  return pb.send<T>(path, { method, body: body as Record<string, unknown> });
}
