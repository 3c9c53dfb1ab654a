// Admin registration by invitation: the public routes of pb_hooks/console-settings.pb.js.
import { ClientResponseError } from "pocketbase";
import { pb } from "@/lib/pocketbase";
import type { UserRecord } from "@/lib/pocketbase-types";
import { adoptSession } from "@/stores/auth";

export interface InvitationCheck {
  valid: true;
  /** The only address that may use the link, or null for anyone. */
  email: string | null;
  expires_at: string;
}

export interface AdminRegistration {
  token: string;
  first_name: string;
  last_name: string;
  email: string;
  password: string;
}

export function checkInvitation(token: string, signal?: AbortSignal): Promise<InvitationCheck> {
  // The token goes in the body: PocketBase's request log keeps URLs.
  return pb().send<InvitationCheck>("/api/shop/admin-invitations/check", {
    method: "POST",
    body: { token },
    requestKey: null,
    ...(signal ? { signal } : {}),
  });
}

/** Creates the admin account and signs this browser in (the server sets the session cookie before this resolves). */
export async function registerAdmin(data: AdminRegistration): Promise<void> {
  const res = await pb().send<{ token: string; record: UserRecord }>("/api/shop/admin-register", {
    method: "POST",
    body: { ...data },
    requestKey: null,
  });
  await adoptSession(res.token, res.record);
}

/** True when the server refused the link itself (unknown 404, used/revoked/expired 410, closed 403). */
export function isLinkRefusal(err: unknown): boolean {
  return err instanceof ClientResponseError && [403, 404, 410].includes(err.status);
}
