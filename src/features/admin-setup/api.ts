// The first administrator's setup link: the public routes of pb_hooks/admin-setup.pb.js.
import { ClientResponseError } from "pocketbase";
import { pb } from "@/lib/pocketbase";
import type { UserRecord } from "@/lib/pocketbase-types";
import { adoptSession } from "@/stores/auth";

export interface SetupCheck {
  valid: true;
  /** The only address the new administrator may use, or null for any. */
  email: string | null;
  expires_at: string;
}

export interface AdminSetup {
  token: string;
  first_name: string;
  last_name: string;
  email: string;
  password: string;
}

export function checkSetupToken(token: string, signal?: AbortSignal): Promise<SetupCheck> {
  // The token goes in the body: PocketBase's request log keeps URLs.
  return pb().send<SetupCheck>("/api/setup/check", { method: "POST", body: { token }, requestKey: null, ...(signal ? { signal } : {}) });
}

/** Creates the first administrator and signs this browser in. */
export async function createFirstAdmin(data: AdminSetup): Promise<void> {
  const res = await pb().send<{ token: string; record: UserRecord }>("/api/setup/admin", {
    method: "POST",
    body: { ...data },
    requestKey: null,
  });
  await adoptSession(res.token, res.record);
}

/** True when the server refused the link itself (unknown 404, used or expired 410). */
export function isSetupLinkRefusal(err: unknown): boolean {
  return err instanceof ClientResponseError && [404, 410].includes(err.status);
}
