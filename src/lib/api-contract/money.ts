// Your ledger and your orders.
import * as v from "valibot";
import { routeList, routesOf } from "./define";
import { Cents, Id, Order, Timestamp, page, pageQuery, periodQuery } from "./schemas";

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
  v.examples([
    {
      id: "t5m1q8w3e7r2t6y",
      type: "PROXY_PURCHASE",
      amount_cents: -500,
      balance_after_cents: 4500,
      description: "1 RESIDENTIAL proxy, US",
      created: "2026-11-27T12:40:27Z",
    },
  ]),
);

const money = routesOf({ tag: "Money", scope: "read" });

export const listTransactions = money.get("/transactions", {
  summary: "Your ledger",
  description: "Every change of your balance, newest first; your balance is their sum.",
  query: v.object({
    type: v.optional(v.picklist(TRANSACTION_TYPES)),
    ...periodQuery,
    ...pageQuery,
  }),
  response: page(Transaction, "TransactionPage"),
});

export const listOrders = money.get("/orders", {
  summary: "Your purchases and renewals",
  query: v.object({ kind: v.optional(v.picklist(["purchase", "renewal"])), ...pageQuery }),
  response: page(Order, "OrderPage"),
});

export const moneyRoutes = routeList({ listTransactions, listOrders });
