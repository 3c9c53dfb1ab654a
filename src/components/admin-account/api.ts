// The two public routes behind every admin-account link (an invitation, /console/register,
// or the first administrator's setup link, /console/setup): check the link, then create the
// account with it and sign this browser in. Each feature's api.ts names its routes.
import { ClientResponseError } from "pocketbase";
import type { checkAdminInvitation } from "@/lib/api-contract/admin/shop";
import type { ResponseOf } from "@/lib/api-contract/define";
import { pb } from "@/lib/pocketbase";
import type { UserRecord } from "@/lib/pocketbase-types";
import { adoptSession } from "@/stores/auth";

/** A kind of link's routes, and the statuses with which they refuse the link itself. */
export interface AdminLinkRoutes {
  /** POST {token} -> AdminLinkCheck */
  check: string;
  /** POST {token, first_name, last_name, email, password} -> {token, record} */
  create: string;
  refusals: readonly number[];
}

/** What a link's check answers (an invitation's and the setup link's alike). */
export type AdminLinkCheck = ResponseOf<typeof checkAdminInvitation>;

/** The form's fields as the routes take them. */
export interface AdminAccountFields {
  first_name: string;
  last_name: string;
  email: string;
  password: string;
}

export function checkAdminLink(routes: AdminLinkRoutes, token: string, signal?: AbortSignal): Promise<AdminLinkCheck> {
  // The token goes in the body: PocketBase's request log keeps URLs.
  return pb().send<AdminLinkCheck>(routes.check, { method: "POST", body: { token }, requestKey: null, ...(signal ? { signal } : {}) });
}

/** Creates the admin account and signs this browser in (the server sets the session cookie before this resolves). */
export async function createAdminAccount(routes: AdminLinkRoutes, token: string, fields: AdminAccountFields): Promise<void> {
  const res = await pb().send<{ token: string; record: UserRecord }>(routes.create, {
    method: "POST",
    body: { token, ...fields },
    requestKey: null,
  });
  await adoptSession(res.token, res.record);
}

/** True when the server refused the link itself rather than a field. */
export function isLinkRefusal(routes: AdminLinkRoutes, err: unknown): boolean {
  return err instanceof ClientResponseError && routes.refusals.includes(err.status);
}
