// The database against what the client was told (the Book of support/load.ts):
// - everything acknowledged (a 2xx) is there, exactly as answered;
// - nothing refused (a 4xx) left a trace: refusals store nothing;
// - every order, payment, adjustment and refund in the database was asked for by a request
//   that was acknowledged or still in doubt (sent, no answer: PocketBase was killed); after
//   the load has ended every request has a definite answer, so then only acknowledged ones;
// - at the end, each customer's balance is exactly the sum of the money moves they were
//   told about.
import { adjustmentReference, type Book, type Request } from "./book.ts";
import { queryRows } from "./sqlite.ts";

interface OrderRow {
  id: string;
  user_id: string;
  kind: string;
  total_cents: number;
  items: string;
  transaction_id: string;
  status: string;
  idempotency_key: string;
  refund_idempotency_key: string;
}
interface PaymentRow {
  id: string;
  user_id: string;
  status: string;
  idempotency_key: string;
}
interface LedgerRow {
  id: string;
  user_id: string;
  amount_cents: number;
  reference: string;
}

/**
 * Problems found comparing `dbFile` with `book`. `final`: the load has ended (no request in
 * doubt may remain, balances must add up). `provider`: how credits arrive.
 */
export async function checkAgainstBook(
  dbFile: string,
  book: Book,
  options: { adminId: string; final: boolean; provider: "test" | "stripe" },
): Promise<string[]> {
  const problems: string[] = [];
  const [orders, payments, ledger, balances] = await Promise.all([
    queryRows<OrderRow>(
      dbFile,
      "SELECT id, user_id, kind, total_cents, items, transaction_id, status, idempotency_key, refund_idempotency_key FROM proxy_orders",
    ),
    queryRows<PaymentRow>(dbFile, "SELECT id, user_id, status, idempotency_key FROM payments"),
    queryRows<LedgerRow>(dbFile, "SELECT id, user_id, amount_cents, reference FROM transactions"),
    queryRows<{ user_id: string; balance_cents: number }>(dbFile, "SELECT user_id, balance_cents FROM balances"),
  ]);
  const orderById = new Map(orders.map((o) => [o.id, o]));
  const paymentById = new Map(payments.map((p) => [p.id, p]));
  const ledgerById = new Map(ledger.map((t) => [t.id, t]));
  const requests = [...book.requests.values()];
  const byKey = new Map(requests.map((r) => [r.key, r]));
  const adjustmentKeys = new Map(
    requests.filter((r) => r.kind === "credit" || r.kind === "debit").map((r) => [adjustmentReference(options.adminId, r.key), r]),
  );
  const webhooksOf = new Map<string, Request[]>();
  for (const r of requests)
    if (r.kind === "webhook" && r.paymentId) webhooksOf.set(r.paymentId, [...(webhooksOf.get(r.paymentId) ?? []), r]);
  /** A request that may have made a row: acknowledged, or in doubt while the load still runs. */
  const mayHaveMade = (r: Request | undefined) => !!r && (r.state === "acked" || (!options.final && r.state === "inflight"));
  const problem = (text: string) => problems.push(text);

  // What was acknowledged is there; what was refused left nothing.
  const orderKeys = new Set(orders.map((o) => o.idempotency_key));
  const paymentKeys = new Set(payments.map((p) => p.idempotency_key));
  const refundKeys = new Set(orders.map((o) => o.refund_idempotency_key).filter(Boolean));
  const adjustmentRefs = new Set(ledger.map((t) => t.reference));
  for (const r of requests) {
    if (r.state === "inflight" && options.final) problem(`${r.kind} ${r.key} never got an answer`);
    if (r.state === "refused") {
      const trace =
        ((r.kind === "purchase" || r.kind === "renewal") && orderKeys.has(r.key)) ||
        (r.kind === "checkout" && paymentKeys.has(r.key)) ||
        (r.kind === "refund" && refundKeys.has(r.key)) ||
        ((r.kind === "credit" || r.kind === "debit") && adjustmentRefs.has(adjustmentReference(options.adminId, r.key)));
      if (trace) problem(`${r.kind} ${r.key} was refused (${r.status}: ${r.message}) but left a row`);
      continue;
    }
    if (r.state !== "acked") continue;
    if ((r.kind === "purchase" || r.kind === "renewal") && r.order) {
      const o = orderById.get(r.order.id);
      const items = o ? (JSON.parse(o.items || "[]") as { id: string }[]).map((i) => i.id) : [];
      if (!o) problem(`acknowledged ${r.kind} ${r.order.id} (key ${r.key}) is missing`);
      else if (
        o.user_id !== r.userId ||
        o.kind !== r.kind ||
        o.total_cents !== r.order.total ||
        o.transaction_id !== r.order.transactionId ||
        o.idempotency_key !== r.key ||
        items.join() !== r.order.proxyIds.join()
      ) {
        problem(`acknowledged ${r.kind} ${r.order.id} differs: answered ${JSON.stringify(r.order)}, stored ${JSON.stringify(o)}`);
      }
      const t = ledgerById.get(r.order.transactionId);
      if (!t || t.amount_cents !== -r.order.total || t.user_id !== r.userId) {
        problem(`acknowledged ${r.kind} ${r.order.id}: its ledger row ${r.order.transactionId} is ${t ? JSON.stringify(t) : "missing"}`);
      }
    } else if (r.kind === "checkout" && r.paymentId) {
      const p = paymentById.get(r.paymentId);
      if (!p || p.idempotency_key !== r.key || p.user_id !== r.userId)
        problem(`acknowledged payment ${r.paymentId} is ${p ? JSON.stringify(p) : "missing"}`);
      else if (options.provider === "test" && p.status !== "paid")
        problem(`test-provider payment ${p.id} acknowledged paid is ${p.status}`);
    } else if (r.kind === "webhook" && r.paymentId) {
      const p = paymentById.get(r.paymentId);
      if (p?.status !== "paid") problem(`payment ${r.paymentId} whose webhook was acknowledged is ${p?.status ?? "missing"}`);
    } else if (r.kind === "credit" || r.kind === "debit" || r.kind === "refund") {
      const t = r.transactionId ? ledgerById.get(r.transactionId) : undefined;
      const reference = r.kind === "refund" ? `refund:${r.order?.id ?? ""}` : adjustmentReference(options.adminId, r.key);
      if (!t || t.user_id !== r.userId || t.amount_cents !== r.cents || t.reference !== reference) {
        problem(`acknowledged ${r.kind} ${r.key}: ledger row ${r.transactionId ?? "?"} is ${t ? JSON.stringify(t) : "missing"}`);
      }
      if (r.kind === "refund") {
        const o = r.order ? orderById.get(r.order.id) : undefined;
        if (o?.status !== "refunded" || o.refund_idempotency_key !== r.key) {
          problem(
            `acknowledged refund ${r.key} of order ${r.order?.id ?? "?"}: the order is ${o ? `${o.status} by key ${o.refund_idempotency_key}` : "missing"}`,
          );
        }
      }
    }
  }

  // Everything in the database was asked for (nothing appears by itself, nothing half-done).
  for (const o of orders) {
    const r = byKey.get(o.idempotency_key);
    if (!r || (r.kind !== "purchase" && r.kind !== "renewal") || r.userId !== o.user_id || !mayHaveMade(r)) {
      problem(
        `order ${o.id} (key ${o.idempotency_key || "none"}) was not asked for by an acknowledged or in-doubt request (${r ? `${r.kind} ${r.state}` : "no request"})`,
      );
    }
    if (o.status === "refunded") {
      const refund = byKey.get(o.refund_idempotency_key);
      if (!refund || refund.kind !== "refund" || refund.order?.id !== o.id || !mayHaveMade(refund)) {
        problem(`order ${o.id} is refunded by key ${o.refund_idempotency_key || "none"} that no acknowledged or in-doubt refund used`);
      }
    }
  }
  for (const p of payments) {
    const r = byKey.get(p.idempotency_key);
    if (!r || r.kind !== "checkout" || r.userId !== p.user_id || !mayHaveMade(r)) {
      problem(`payment ${p.id} (key ${p.idempotency_key}) was not asked for by an acknowledged or in-doubt checkout`);
    }
    if (p.status === "paid" && options.provider === "stripe" && !(webhooksOf.get(p.id) ?? []).some(mayHaveMade)) {
      problem(`payment ${p.id} is paid but no webhook for it was acknowledged or in doubt`);
    }
  }
  for (const t of ledger) {
    if (!t.reference.startsWith("adjustment:")) continue;
    if (!mayHaveMade(adjustmentKeys.get(t.reference))) problem(`admin adjustment ${t.id} (${t.amount_cents}) was not asked for`);
  }

  if (options.final) {
    // Each balance is the sum of the money moves its customer was told about.
    const expected = new Map<string, number>();
    const add = (user: string, cents: number) => expected.set(user, (expected.get(user) ?? 0) + cents);
    for (const r of requests) {
      if (r.state !== "acked") continue;
      if (r.kind === "purchase" || r.kind === "renewal" || r.kind === "credit" || r.kind === "debit" || r.kind === "refund")
        add(r.userId, r.cents ?? 0);
    }
    for (const p of book.payments.values()) if (p.paid) add(p.userId, p.cents);
    for (const b of balances) {
      if ((expected.get(b.user_id) ?? 0) !== b.balance_cents) {
        problem(`balance of ${b.user_id} is ${b.balance_cents}, the client was told of moves summing to ${expected.get(b.user_id) ?? 0}`);
      }
    }
  }
  return problems;
}
