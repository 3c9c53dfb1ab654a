import PocketBase from "pocketbase";
import { setProxyColumns } from "../../support/proxy-columns.ts";
import { E2E } from "./env.ts";

/** A PocketBase client signed in as the e2e superuser (for arranging data). */
export async function superuserClient(): Promise<PocketBase> {
  const pb = new PocketBase(E2E.pocketbaseUrl);
  pb.autoCancellation(false);
  await pb.collection("_superusers").authWithPassword(E2E.superuser.email, E2E.superuser.password);
  return pb;
}

/**
 * Sets a proxy's owner, status, expiry or auto-renewal in the e2e shop's data.db: the
 * records API refuses those fields to everyone (issue #13, finding 6).
 */
export function setE2eProxyColumns(ids: string[], columns: Record<string, string | number | boolean>): void {
  const dataDir = process.env["E2E_DATA_DIR"];
  if (!dataDir) throw new Error("E2E_DATA_DIR is not set: the e2e global setup sets it for the workers.");
  setProxyColumns({ dataDir }, ids, columns);
}
