// Who calls the developer API in the API tests: a customer's session or a new API key of
// theirs, each as an apiClient (so every answer is checked against the OpenAPI document),
// and the problem details a refusal answers.
import { expect } from "vitest";
import { createApiKey } from "@/lib/api-contract/keys";
import type { ApiKeyScope } from "@/lib/api-contract/define";
import { apiClient, type ApiClient } from "./api-contract.ts";
import type { Customer, Shop } from "./shop.ts";

/** A refusal of /api/v1 (RFC 9457 problem details), every bad field under its name in `errors`. */
export interface Problem {
  status: number;
  detail: string;
  code?: string;
  errors?: Record<string, { code: string; message: string }>;
}

export interface ApiCallers {
  /** `user`'s session, as a client. */
  sessionOf: (user: Customer) => ApiClient;
  /** A new API key of `user` with `scopes` (made with their session), as a client. */
  keyOf: (user: Customer, scopes: string[]) => Promise<ApiClient>;
}

/** The callers on `shop` (read when called: a useShop fixture may be passed before it starts). */
export function apiCallers(shop: Pick<Shop, "tpb">): ApiCallers {
  const sessionOf = (user: Customer): ApiClient => apiClient(shop.tpb.url, user.pb.authStore.token);
  const keyOf = async (user: Customer, scopes: string[]): Promise<ApiClient> => {
    const created = await sessionOf(user).call(createApiKey, { body: { name: "API test key", scopes: scopes as ApiKeyScope[] } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    return apiClient(shop.tpb.url, created.body.key);
  };
  return { sessionOf, keyOf };
}
