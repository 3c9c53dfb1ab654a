// User Management (pb_hooks/accounts.pb.js, money.pb.js): the users, one user's detail, the
// user tools (admin rights, e-mail, verification, suspension, deletion on request) and the
// money routes (balance adjustments, order refunds), each audited. Money routes take an
// Idempotency-Key (one per attempt).
import * as v from "valibot";
import { catalog } from "../../shared-data";
import { route } from "../define";
import { PAYMENT_STATUSES } from "../credits";
import { TRANSACTION_TYPES } from "../money";
import { PROXY_TYPES } from "../../catalog";
import { TICKET_PRIORITIES } from "../support";
import { AdminUser, Count, DbDate, Int, looseSearch, pageEntries, pagingQuery } from "./common";

const TAG = "Users";
const ADMIN = "/api/admin" as const;
const USER = { id: "The user's id." };

export const PROXY_STATUSES = ["AVAILABLE", "ASSIGNED", "EXPIRED", "MAINTENANCE"] as const;
export const TICKET_STATUSES = ["open", "pending", "closed"] as const;
export const USER_ROLES = ["all", "admins", "users"] as const;

export const listUsers = route({
  id: "listUsers",
  method: "GET",
  path: "/users",
  base: ADMIN,
  tag: TAG,
  summary: "Users, newest first, with the counts of each role",
  scope: "admin",
  query: v.object({
    search: looseSearch("In the e-mail or the names (the first 100 characters)."),
    role: v.optional(v.pipe(v.picklist(USER_ROLES, "Role must be all, admins or users."), v.description("Default all."))),
    ...pagingQuery,
  }),
  response: v.object({ ...pageEntries(AdminUser), counts: v.object({ all: Count, admins: Count, users: Count }) }),
  errors: [400],
});

/** A proxy type, or "" for a renewal of several types. */
const ORDER_PROXY_TYPES = [...PROXY_TYPES, ""] as const;

export const AdminOrder = v.object({
  id: v.string(),
  number: v.string(),
  kind: v.picklist(["purchase", "renewal"]),
  proxy_type: v.picklist(ORDER_PROXY_TYPES),
  country: v.string(),
  quantity: Count,
  total_cents: Int,
  status: v.picklist(["completed", "refunded"]),
  created: DbDate,
  refunded_at: DbDate,
  refund_reason: v.string(),
  refundable: v.boolean(),
  within_promise: v.boolean(),
  refundable_reason: v.string(),
});

/** A credit payment as the user's detail shows it. */
export const AdminPayment = v.object({
  id: v.string(),
  package_id: v.string(),
  provider: v.pipe(v.picklist(["stripe", "test"]), v.description('"test": credits from the test provider, no money moved.')),
  status: v.picklist(PAYMENT_STATUSES),
  amount_cents: Int,
  credits_cents: Int,
  bonus_cents: Int,
  currency: v.string(),
  refunded_cents: v.pipe(Int, v.description("What Stripe refunded so far (cumulative).")),
  disputed_cents: Int,
  dispute_status: v.picklist(["open", "won", "lost", ""]),
  kept_cents: v.pipe(Int, v.description("The money kept: Stripe payments minus refunds and a lost dispute; 0 for test payments.")),
  failure_reason: v.string(),
  paid_at: DbDate,
  reversed_at: DbDate,
  created: DbDate,
});

export const getUser = route({
  id: "getUser",
  method: "GET",
  path: "/users/{id}",
  base: ADMIN,
  tag: TAG,
  summary: "One user with their latest transactions, proxies, tickets, orders and payments",
  scope: "admin",
  params: USER,
  response: v.object({
    user: v.object({ ...AdminUser.entries, onboarding_completed: v.boolean(), password_set: v.boolean() }),
    balance_cents: Int,
    ip_allowlist: v.pipe(v.array(v.string()), v.description("The addresses and CIDR ranges the user's proxies answer on ([] = anywhere).")),
    transactions: v.array(
      v.object({
        id: v.string(),
        type: v.picklist(TRANSACTION_TYPES),
        amount_cents: Int,
        balance_after_cents: Int,
        description: v.string(),
        reference: v.string(),
        created: DbDate,
      }),
    ),
    proxies: v.array(
      v.object({
        id: v.string(),
        host: v.string(),
        port: Int,
        username: v.string(),
        type: v.picklist(PROXY_TYPES),
        country: v.string(),
        state: v.string(),
        city: v.string(),
        status: v.picklist(PROXY_STATUSES),
        expires_at: DbDate,
        auto_renew: v.boolean(),
      }),
    ),
    tickets: v.array(
      v.object({
        id: v.string(),
        subject: v.string(),
        status: v.picklist(TICKET_STATUSES),
        priority: v.picklist(TICKET_PRIORITIES),
        created: DbDate,
      }),
    ),
    orders: v.array(AdminOrder),
    payments: v.array(AdminPayment),
    totals: v.object({ transactions: Count, proxies: Count, tickets: Count, orders: Count, payments: Count }),
  }),
  errors: [404],
});

const CONFIRM_EMAIL = "Type the user's e-mail address to confirm.";
const confirmEmail = v.pipe(
  v.string(CONFIRM_EMAIL),
  v.metadata({ errorCode: "confirm_email_mismatch" }),
  v.description("The user's e-mail, typed to confirm."),
);

export const setUserAdmin = route({
  id: "setUserAdmin",
  method: "POST",
  path: "/users/{id}/admin",
  base: ADMIN,
  tag: TAG,
  summary: "Grant or remove admin rights",
  description:
    "Granting needs the user's e-mail typed as confirm_email. Never your own; the last administrator stays. Audited users.admin_grant / users.admin_revoke.",
  scope: "admin",
  params: USER,
  body: v.pipe(
    v.object({
      is_admin: v.boolean("Admin status (is_admin) must be true or false."),
      confirm_email: v.optional(confirmEmail),
    }),
    v.examples([{ is_admin: false }]),
  ),
  response: AdminUser,
  errors: [400, 403, 404, 409],
});

export const changeUserEmail = route({
  id: "changeUserEmail",
  method: "POST",
  path: "/users/{id}/email",
  base: ADMIN,
  tag: TAG,
  summary: "Change a user's e-mail address",
  description: "The new address is unverified and gets the verification mail; the old one is told. Audited users.email_change.",
  scope: "admin",
  params: USER,
  body: v.pipe(
    v.object({
      email: v.pipe(
        v.string("Enter a valid e-mail address."),
        v.email("Enter a valid e-mail address."),
        v.metadata({ errorCode: "validation_is_email" }),
      ),
    }),
    v.examples([{ email: "new.address@example.com" }]),
  ),
  response: AdminUser,
  errors: [400, 403, 404, 409],
});

export const verifyUser = route({
  id: "verifyUser",
  method: "POST",
  path: "/users/{id}/verify",
  base: ADMIN,
  tag: TAG,
  summary: "Mark a user's e-mail as verified",
  description: "Audited users.verify.",
  scope: "admin",
  params: USER,
  response: AdminUser,
  errors: [400, 403, 404, 409],
});

export const resendVerification = route({
  id: "resendVerification",
  method: "POST",
  path: "/users/{id}/verification",
  base: ADMIN,
  tag: TAG,
  summary: "Send the verification mail again",
  description: "Refused (400) for a verified address; 503 when the mail could not be sent.",
  scope: "admin",
  params: USER,
  response: AdminUser,
  errors: [400, 403, 404, 409],
});

export const setUserSuspended = route({
  id: "setUserSuspended",
  method: "POST",
  path: "/users/{id}/suspension",
  base: ADMIN,
  tag: TAG,
  summary: "Suspend a user or lift the suspension",
  description: "Suspending ends every session and refuses sign-in; never your own account. Audited users.suspend / users.unsuspend.",
  scope: "admin",
  params: USER,
  body: v.pipe(v.object({ suspended: v.boolean("Suspended must be true or false.") }), v.examples([{ suspended: true }])),
  response: AdminUser,
  errors: [400, 403, 404, 409],
});

export const deleteUser = route({
  id: "deleteUser",
  method: "POST",
  path: "/users/{id}/delete",
  base: ADMIN,
  tag: TAG,
  summary: "Delete an account on request",
  description:
    "Erases the personal data and keeps the row for the ledger; the user's e-mail typed as confirm_email. Not your own, not an admin. Audited users.delete.",
  scope: "admin",
  params: USER,
  body: v.pipe(v.object({ confirm_email: confirmEmail }), v.examples([{ confirm_email: "jane.doe@example.com" }])),
  response: AdminUser,
  errors: [400, 403, 404, 409],
});

const AMOUNT = "Amount must be at least $0.01, in whole cents.";

export const adjustBalance = route({
  id: "adjustBalance",
  method: "POST",
  path: "/users/{id}/balance",
  base: ADMIN,
  tag: TAG,
  summary: "Credit or debit a user's balance",
  description: "One ledger row and its audit row (balance.adjust) in one transaction; a debit never takes the balance below zero (409).",
  scope: "admin",
  params: USER,
  idempotency: "required",
  body: v.pipe(
    v.object({
      transaction_type: v.picklist(["CREDIT", "DEBIT"], "Transaction type must be CREDIT or DEBIT."),
      amount_cents: v.pipe(
        v.number(AMOUNT),
        v.integer(AMOUNT),
        v.minValue(1, AMOUNT),
        v.maxValue(catalog.balance_adjustment.max_cents, `${catalog.balance_adjustment.max_message}.`),
        v.metadata({ errorCode: "validation_max_amount" }),
      ),
      description: v.pipe(
        v.string("A description is required."),
        v.minLength(1, "A description is required."),
        v.maxLength(500, "A description is at most 500 characters."),
      ),
    }),
    v.examples([{ transaction_type: "CREDIT", amount_cents: 500, description: "Goodwill credit for the outage on 27 November" }]),
  ),
  response: v.pipe(v.object({ balance_cents: Int }), v.description("The balance right after the entry.")),
  errors: [400, 403, 404, 409, 422],
});

export const refundOrder = route({
  id: "refundOrder",
  method: "POST",
  path: "/orders/{id}/refund",
  base: ADMIN,
  tag: TAG,
  summary: "Refund a proxy order",
  description:
    "Credits the order back (a REFUND ledger row), returns its proxies to stock or takes the renewal back; after the refund promise only with allow_late. 409 already refunded, too old, or extended by a later renewal. Audited proxy_orders.refund.",
  scope: "admin",
  params: { id: "The order's id." },
  idempotency: "required",
  body: v.pipe(
    v.object({
      reason: v.pipe(
        v.string("A reason for the refund is required."),
        v.minLength(1, "A reason for the refund is required."),
        v.description("3-500 characters."),
        v.maxLength(500, "The reason must be at most 500 characters."),
      ),
      allow_late: v.optional(v.boolean("Late refund confirmation (allow_late) must be true or false.")),
    }),
    v.examples([{ reason: "The proxies never connected", allow_late: false }]),
  ),
  response: v.object({
    order: v.record(v.string(), v.unknown()),
    transaction: v.nullable(v.record(v.string(), v.unknown())),
    balance_cents: Int,
    released: v.pipe(Count, v.description("Proxies back in stock.")),
    shortened: v.pipe(Count, v.description("Proxies whose renewal was taken back.")),
  }),
  errors: [400, 403, 404, 409, 422],
});

export const userRoutes = [
  listUsers,
  getUser,
  setUserAdmin,
  changeUserEmail,
  verifyUser,
  resendVerification,
  setUserSuspended,
  deleteUser,
  adjustBalance,
  refundOrder,
];
