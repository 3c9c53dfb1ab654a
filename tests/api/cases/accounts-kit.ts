// The accounts shop's helpers, shared by accounts.test.ts and its case modules: fresh e-mail
// addresses, sign-ups through /api/shop/signup and clients signed in with their token.
import type PocketBase from "pocketbase";
import type { PocketBaseFixture } from "../../support/use-shop.ts";

export const APP_URL = "http://shop.test:4321";

export interface AuthResponse {
  token: string;
  record: Record<string, unknown> & { id: string; email: string };
}

export interface AccountKit {
  email: (tag: string) => string;
  signup: (body: Record<string, unknown>, client?: PocketBase) => Promise<AuthResponse>;
  signedIn: (auth: AuthResponse) => PocketBase;
}

export function accountKit(shop: PocketBaseFixture): AccountKit {
  let seq = 0;
  return {
    email: (tag) => `${tag}-${seq++}@api.test`,
    signup: (body, client = shop.tpb.client()) => client.send<AuthResponse>("/api/shop/signup", { method: "POST", body }),
    signedIn: (auth) => {
      const client = shop.tpb.client();
      client.authStore.save(auth.token, auth.record as never);
      return client;
    },
  };
}
