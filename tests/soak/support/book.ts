// The Book: what the soak's client was told, request by request (one Idempotency-Key each),
// which the database must match at the end.
import { createHash } from "node:crypto";

export type Kind = "purchase" | "renewal" | "checkout" | "webhook" | "credit" | "debit" | "refund";

export interface OrderAck {
  id: string;
  userId: string;
  kind: "purchase" | "renewal";
  total: number;
  transactionId: string;
  /** The proxies the order sold (its items). */
  proxyIds: string[];
  /** The proxies the answer showed: all of them at first, on a replay those still held. */
  shownProxyIds: string[];
}

/** One request (one Idempotency-Key) and what became of it. */
export interface Request {
  key: string;
  kind: Kind;
  userId: string;
  body: unknown;
  /** inflight: sent, no answer yet (in doubt while PocketBase is down); acked: 2xx; refused: 4xx. */
  state: "inflight" | "acked" | "refused";
  status?: number;
  message?: string;
  /** Tries it took (more than 1: it was in doubt and sent again). */
  tries: number;
  order?: OrderAck;
  paymentId?: string;
  transactionId?: string;
  /** The signed amount this request moved on the user's balance when acknowledged. */
  cents?: number;
}

/** Webhook deliveries per payment (the key of a delivery is `webhook:<payment id>`). */
export interface Book {
  requests: Map<string, Request>;
  /** Orders acknowledged, by id. */
  orders: Map<string, OrderAck>;
  /** Payments created by an acknowledged checkout: id -> {userId, credits + bonus, paid seen by the client}. */
  payments: Map<string, { userId: string; cents: number; paid: boolean; key: string }>;
  /** Problems the client saw (5xx, unexpected statuses, replays that differ). */
  problems: string[];
  /** How many requests got no answer at least once (in doubt). */
  inDoubt: number;
  /** 2xx answers so far (the crash test waits for the load to be going again before a kill). */
  acks: number;
}

export function newBook(): Book {
  return { requests: new Map(), orders: new Map(), payments: new Map(), problems: [], inDoubt: 0, acks: 0 };
}

/** The ledger reference of an admin balance adjustment (lib/accounts/console-users.js adjustmentReference). */
export function adjustmentReference(adminId: string, key: string): string {
  return `adjustment:${createHash("sha256").update(`${adminId}\n${key}`).digest("hex")}`;
}
