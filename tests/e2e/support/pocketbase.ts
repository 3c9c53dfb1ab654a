import PocketBase from "pocketbase";
import { E2E } from "./env.ts";

/** A PocketBase client signed in as the e2e superuser (for arranging data). */
export async function superuserClient(): Promise<PocketBase> {
  const pb = new PocketBase(E2E.pocketbaseUrl);
  pb.autoCancellation(false);
  await pb.collection("_superusers").authWithPassword(E2E.superuser.email, E2E.superuser.password);
  return pb;
}
