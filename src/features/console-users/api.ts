// User Management's calls: the admin routes of pocketbase/pb_hooks/accounts.pb.js (users,
// their rights and the user tools) and money.pb.js (balances, refunds). Money routes carry
// an Idempotency-Key (one per attempt).
import { pb, type TypedPocketBase } from "@/lib/pocketbase";
import type { FirstDataContext } from "@/lib/server/first-data";
import type { ProxyStatus, ProxyType, TicketPriority, TicketStatus, TransactionType } from "@/lib/pocketbase-types";

export type RoleFilter = "all" | "admins" | "users";
export const USERS_PER_PAGE = 20;

export interface AdminUser {
  id: string;
  email: string;
  first_name: string;
  last_name: string;
  country: string;
  balance_cents: number;
  is_admin: boolean;
  verified: boolean;
  /** Sessions ended, sign-in refused (the admin's user tools). */
  suspended: boolean;
  /** Deleted on request: personal data erased, the row kept for the ledger. */
  deleted: boolean;
  created: string;
}

export interface UserPage {
  items: AdminUser[];
  page: number;
  perPage: number;
  totalItems: number;
  totalPages: number;
  counts: { all: number; admins: number; users: number };
}

export interface UserQuery {
  search: string;
  role: RoleFilter;
  page: number;
}

export interface AdminOrder {
  id: string;
  number: string;
  kind: "purchase" | "renewal";
  proxy_type: ProxyType | "";
  country: string;
  quantity: number;
  total_cents: number;
  status: "completed" | "refunded";
  created: string;
  refunded_at: string;
  refund_reason: string;
  refundable: boolean;
  within_promise: boolean;
  refundable_reason: string;
}

/** A credit payment as the user drawer shows it (security review #13, findings 2 and 4). */
export interface AdminPayment {
  id: string;
  package_id: string;
  /** "test": credits from the test provider, no money moved. */
  provider: "stripe" | "test";
  status: "pending" | "paid" | "failed" | "partially_refunded" | "refunded" | "disputed";
  amount_cents: number;
  credits_cents: number;
  bonus_cents: number;
  currency: string;
  /** What Stripe refunded so far (cumulative). */
  refunded_cents: number;
  disputed_cents: number;
  dispute_status: "open" | "won" | "lost" | "";
  /** The money kept: Stripe payments minus refunds and a lost dispute; 0 for test payments. */
  kept_cents: number;
  failure_reason: string;
  paid_at: string;
  reversed_at: string;
  created: string;
}

export interface UserDetail {
  user: AdminUser & { onboarding_completed: boolean; password_set: boolean };
  balance_cents: number;
  transactions: {
    id: string;
    type: TransactionType;
    amount_cents: number;
    balance_after_cents: number;
    description: string;
    created: string;
  }[];
  proxies: {
    id: string;
    host: string;
    port: number;
    type: ProxyType;
    country: string;
    state: string;
    city: string;
    status: ProxyStatus;
    expires_at: string;
    auto_renew: boolean;
  }[];
  tickets: { id: string; subject: string; status: TicketStatus; priority: TicketPriority; created: string }[];
  orders: AdminOrder[];
  payments: AdminPayment[];
  totals: { transactions: number; proxies: number; tickets: number; orders: number; payments: number };
  /** The addresses and CIDR ranges the user's proxies answer on the gateway ([] = anywhere; issue #16). */
  ip_allowlist?: string[];
}

const withSignal = (signal?: AbortSignal) => ({ requestKey: null, ...(signal ? { signal } : {}) });

export function fetchUsers(query: UserQuery, signal?: AbortSignal, client: TypedPocketBase = pb()): Promise<UserPage> {
  return client.send<UserPage>("/api/admin/users", {
    method: "GET",
    query: { search: query.search, role: query.role, page: query.page, perPage: USERS_PER_PAGE },
    ...withSignal(signal),
  });
}

/** The page's first data for the query in its URL, read on the server with the admin's session (pages/console/users.astro). */
export function usersFirstData(query: UserQuery) {
  return {
    users: ({ client, signal }: FirstDataContext): Promise<UserPage> => fetchUsers(query, signal, client),
  };
}

export function fetchUserDetail(id: string, signal?: AbortSignal): Promise<UserDetail> {
  return pb().send<UserDetail>(`/api/admin/users/${encodeURIComponent(id)}`, { method: "GET", ...withSignal(signal) });
}

export function adjustBalance(
  userId: string,
  body: { transaction_type: "CREDIT" | "DEBIT"; amount_cents: number; description: string },
  idempotencyKey: string,
): Promise<{ balance_cents: number }> {
  return pb().send(`/api/admin/users/${encodeURIComponent(userId)}/balance`, {
    method: "POST",
    body,
    headers: { "Idempotency-Key": idempotencyKey },
    requestKey: null,
  });
}

/** Grants (with the user's e-mail typed as `confirmEmail`) or removes admin rights. */
export function setAdmin(userId: string, isAdmin: boolean, confirmEmail?: string): Promise<AdminUser> {
  return userTool(userId, "admin", confirmEmail === undefined ? { is_admin: isAdmin } : { is_admin: isAdmin, confirm_email: confirmEmail });
}

/**
 * The user tools (pocketbase/pb_hooks/lib/accounts/user-email.js, user-suspension.js,
 * user-deletion.js): each answers the user as the list shows them.
 */
export function userTool(userId: string, tool: "admin" | "email" | "verify" | "verification" | "suspension" | "delete", body: object = {}) {
  return pb().send<AdminUser>(`/api/admin/users/${encodeURIComponent(userId)}/${tool}`, {
    method: "POST",
    body,
    requestKey: null,
  });
}

export function refundOrder(
  orderId: string,
  body: { reason: string; allow_late: boolean },
  idempotencyKey: string,
): Promise<{ balance_cents: number; released: number; shortened: number }> {
  return pb().send(`/api/admin/orders/${encodeURIComponent(orderId)}/refund`, {
    method: "POST",
    body,
    headers: { "Idempotency-Key": idempotencyKey },
    requestKey: null,
  });
}
