// User Management's calls: the contract's user routes (@/lib/api-contract/admin/users: the
// users, their rights and the user tools, balances and refunds), through the typed caller.
// Money routes carry an Idempotency-Key (one per attempt).
import { api, apiThrough } from "@/lib/api-client";
import type { BodyOf, ResponseOf } from "@/lib/api-contract/define";
import {
  adjustBalance as adjustBalanceRoute,
  changeUserEmail,
  deleteUser,
  getUser,
  listUsers,
  refundOrder as refundOrderRoute,
  resendVerification,
  setUserAdmin,
  setUserSuspended,
  verifyUser,
  type USER_ROLES,
} from "@/lib/api-contract/admin/users";
import { pb, type TypedPocketBase } from "@/lib/pocketbase";
import type { FirstDataContext } from "@/lib/server/first-data";

export type RoleFilter = (typeof USER_ROLES)[number];
export const USERS_PER_PAGE = 20;

export type UserPage = ResponseOf<typeof listUsers>;
export type AdminUser = UserPage["items"][number];
export type UserDetail = ResponseOf<typeof getUser>;
export type AdminOrder = UserDetail["orders"][number];
/** A credit payment as the user drawer shows it (security review #13, findings 2 and 4). */
export type AdminPayment = UserDetail["payments"][number];

export interface UserQuery {
  search: string;
  role: RoleFilter;
  page: number;
}

export function fetchUsers(query: UserQuery, signal?: AbortSignal, client: TypedPocketBase = pb()): Promise<UserPage> {
  return apiThrough(() => client).call(listUsers, {
    query: { search: query.search, role: query.role, page: query.page, perPage: USERS_PER_PAGE },
    ...(signal ? { signal } : {}),
  });
}

/** The page's first data for the query in its URL, read on the server with the admin's session (pages/console/users.astro). */
export function usersFirstData(query: UserQuery) {
  return {
    users: ({ client, signal }: FirstDataContext): Promise<UserPage> => fetchUsers(query, signal, client),
  };
}

export function fetchUserDetail(id: string, signal?: AbortSignal): Promise<UserDetail> {
  return api.call(getUser, { params: { id }, ...(signal ? { signal } : {}) });
}

export function adjustBalance(userId: string, body: BodyOf<typeof adjustBalanceRoute>, idempotencyKey: string) {
  return api.call(adjustBalanceRoute, { params: { id: userId }, body, idempotencyKey });
}

/** Grants (with the user's e-mail typed as `confirmEmail`) or removes admin rights. */
export function setAdmin(userId: string, isAdmin: boolean, confirmEmail?: string): Promise<AdminUser> {
  return userTool(userId, "admin", confirmEmail === undefined ? { is_admin: isAdmin } : { is_admin: isAdmin, confirm_email: confirmEmail });
}

/** The user tools' routes, by the path segment the dialogs name them with. */
const TOOLS = {
  admin: setUserAdmin,
  email: changeUserEmail,
  verify: verifyUser,
  verification: resendVerification,
  suspension: setUserSuspended,
  delete: deleteUser,
} as const;

/**
 * The user tools (pocketbase/pb_hooks/lib/accounts/user-email.js, user-suspension.js,
 * user-deletion.js): each answers the user as the list shows them.
 */
export function userTool(userId: string, tool: keyof typeof TOOLS, body: object = {}): Promise<AdminUser> {
  return api.call(TOOLS[tool], { params: { id: userId }, ...(Object.keys(body).length > 0 ? { body: body as never } : {}) });
}

export function refundOrder(orderId: string, body: BodyOf<typeof refundOrderRoute>, idempotencyKey: string) {
  return api.call(refundOrderRoute, { params: { id: orderId }, body, idempotencyKey });
}
