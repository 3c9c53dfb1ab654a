// The islands' caller of contract routes (lib/api-contract/client.ts): through the PocketBase
// SDK, so the session's token goes along and a failure is the ClientResponseError that
// lib/api-error.ts reads. Every request is its own (requestKey null): nothing auto-cancels.
import type PocketBase from "pocketbase";
import { apiClient, type ApiClient } from "@/lib/api-contract/client";
import { pb } from "@/lib/pocketbase";

/** A caller through `client` (by default the browser's own; on the server, the request's with its user's session). */
export function apiThrough(client: () => PocketBase): ApiClient {
  return apiClient((request) =>
    client().send(request.path, {
      method: request.method,
      query: request.query,
      headers: request.headers,
      requestKey: null,
      ...(request.body === undefined ? {} : { body: request.body }),
      ...(request.signal ? { signal: request.signal } : {}),
    }),
  );
}

export const api = apiThrough(pb);
