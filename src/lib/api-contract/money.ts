// Your ledger and your orders.
import * as v from "valibot";
import { route } from "./define";
import { Cents, Id, Order, Timestamp, page, pageQuery } from "./schemas";

export const TRANSACTION_TYPES = ["CREDIT", "DEBIT", "PROXY_PURCHASE", "REFUND"] as const;

const Transaction = v.pipe(
  v.object({
    id: Id,
    type: v.picklist(TRANSACTION_TYPES),
    amount_cents: v.pipe(Cents, v.description("Positive adds to the balance, negative takes from it.")),
    balance_after_cents: Cents,
    description: v.string(),
    created: Timestamp,
  }),
  v.title("Transaction"),
);

const dateQuery = (what: string) => v.optional(v.pipe(v.string(), v.description(`${what}: ISO 8601; a date alone is its UTC midnight.`)));

export const listTransactions = route({
  id: "listTransactions",
  method: "GET",
  path: "/transactions",
  tag: "Money",
  summary: "Your ledger",
  description: "Every change of your balance, newest first; your balance is their sum.",
  scope: "read",
  query: v.object({
    type: v.optional(v.picklist(TRANSACTION_TYPES)),
    from: dateQuery("From (inclusive)"),
    to: dateQuery("To (exclusive)"),
    ...pageQuery,
  }),
  response: page(Transaction, "TransactionPage"),
  errors: [400],
});

export const listOrders = route({
  id: "listOrders",
  method: "GET",
  path: "/orders",
  tag: "Money",
  summary: "Your purchases and renewals",
  scope: "read",
  query: v.object({ kind: v.optional(v.picklist(["purchase", "renewal"])), ...pageQuery }),
  response: page(Order, "OrderPage"),
  errors: [400],
});

export const moneyRoutes = [listTransactions, listOrders];
