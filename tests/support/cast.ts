// The cast of privileged-fields.test.ts and its case modules: Alice and Bob (customers) and
// Ada (an admin) in one test PocketBase, with clients signed in as Alice and as Ada.
import type PocketBase from "pocketbase";
import { beforeAll } from "vitest";
import { createTestUser, signIn, type TestUser } from "./pocketbase.ts";
import type { PocketBaseFixture } from "./use-shop.ts";

export interface Cast {
  alice: TestUser;
  bob: TestUser;
  admin: TestUser;
  asAlice: PocketBase;
  asAdmin: PocketBase;
}

/**
 * Registers the hook that makes the cast in `pocketbase`'s shop (after it starts), and answers
 * the object it fills in: use its fields inside tests and hooks, not at collection time.
 */
export function useCast(pocketbase: PocketBaseFixture): Cast {
  const cast = {} as Cast;
  beforeAll(async () => {
    const { su, tpb } = pocketbase;
    const alice = await createTestUser(su, { first_name: "Alice" });
    const bob = await createTestUser(su, { first_name: "Bob" });
    const admin = await createTestUser(su, { first_name: "Ada", is_admin: true });
    Object.assign(cast, { alice, bob, admin, asAlice: await signIn(tpb, alice), asAdmin: await signIn(tpb, admin) });
  });
  return cast;
}
