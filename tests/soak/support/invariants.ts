// The money invariants of the shop (../shared/ARCHITECTURE.md "Money and other invariants",
// docs/data-model.md), checked straight on a data.db: the live WAL database beside a running
// PocketBase, what a kill -9 left behind, or a restored backup / Litestream copy. Read-only,
// through Python's sqlite3 (support/sqlite.ts).
//
// What is checked (each broken rule is one line in `problems`, naming the rows):
// - Balances: every user has one balance row, every balance row a user; no balance is
//   negative except as the debt of a reversed payment (a user with a `reversal:` row);
//   every balance equals the sum of its user's ledger rows.
// - Ledger rows (`transactions`): a known type with the sign it promises (CREDIT and REFUND
//   > 0, DEBIT and PROXY_PURCHASE < 0, never 0); balance_after_cents never taken below zero
//   except by a `reversal:<payment>:...` row (a Stripe refund or chargeback), and a
//   running total: in commit order (rowid: all writes go through one connection, and a copy
//   or VACUUM keeps the relative order) each row's balance_after_cents is the previous one
//   plus its amount, starting from 0, and the last one is the balance.
// - Every ledger row says what it is for, and that thing exists and agrees with it:
//   `order:<id>` a PROXY_PURCHASE of minus the order's total, the order's own transaction_id;
//   `refund:<id>` a REFUND of the order's total, the order refunded; `payment:<id>` a CREDIT
//   of the payment's credits_cents carrying its provider payment id, the payment paid;
//   `payment-bonus:<id>` a CREDIT of its bonus_cents, the payment paid; `welcome` a CREDIT;
//   `adjustment:<hash>` an admin CREDIT or DEBIT with its audit row (users.balance_credit|
//   debit naming this transaction and amount); `reversal:<payment id>:<step>` a DEBIT (or,
//   for a dispute won, a CREDIT) of that user's credited Stripe payment, the reversals of a
//   payment never more than it credited. References are unique per user (an index),
//   so nothing is credited, charged or refunded twice.
// - Orders (`proxy_orders`): each has exactly its ledger row (above); items are distinct
//   proxies, as many as `quantity`, their unit prices summing to total_cents; completed or
//   refunded, refunded exactly when its REFUND row exists; a renewal renews only proxies its
//   user had bought earlier.
// - Payments: paid exactly when their credit row exists; the bonus row exactly when paid
//   with a bonus; a paid payment carries the provider's payment id; at most one commission
//   per payment, only for a paid one, 20% of the money paid. Each affiliate's total and
//   pending earnings are the sums of its commissions (all, and pending ones).
// - Proxies: ASSIGNED and EXPIRED ones have an owner who exists, AVAILABLE ones none; an
//   owned proxy's latest purchase order is its owner's and is not refunded; a proxy in a
//   completed (not refunded) purchase younger than the 30-day term is still held by that
//   buyer; no proxy is sold again while an earlier buyer's unrefunded 30-day term runs (so
//   a proxy never has two owners).
// - The books balance: the total of all balances equals money credited minus money spent,
//   computed twice. From the ledger: sum(CREDIT + REFUND amounts) - |sum(DEBIT +
//   PROXY_PURCHASE amounts)|. From the business records, independently of the ledger:
//   credited = paid payments' credits_cents + bonus_cents + welcome credits (the ledger's
//   `welcome` rows: nothing else records them) + admin credits (audit users.balance_credit
//   amount_cents) + refunded orders' total_cents; spent = every order's total_cents (a
//   refunded one was spent, then refunded) + admin debits (audit users.balance_debit).
import { readFileSync } from "node:fs";
import { OPEN_READ_ONLY, runPython, withDatabase } from "./sqlite.ts";

export interface InvariantReport {
  ok: boolean;
  problems: string[];
  users: number;
  ledgerRows: number;
  totalBalanceCents: number;
}

/** Problems reported at most (a broken database can break one rule on every row). */
const MAX_PROBLEMS = 200;

/** The checks, in Python: `check(con)` answers the problems and counts of one database. */
const CHECK_SCRIPT = readFileSync(new URL("./money-invariants.py", import.meta.url), "utf8");

/** Reads a data.db (live WAL db or a restored copy, opened read-only) and checks the money invariants. */
export async function checkMoneyInvariants(dbFile: string): Promise<InvariantReport> {
  const [report] = await checkMoneyInvariantsOfEach([dbFile]);
  if (!report) throw new Error("no report");
  return report;
}

/** checkMoneyInvariants of several databases in one Python process (the checks' own tests). */
export async function checkMoneyInvariantsOfEach(dbFiles: string[]): Promise<InvariantReport[]> {
  const reports = await runPython<Omit<InvariantReport, "ok">[]>(
    [
      CHECK_SCRIPT,
      "out = []",
      "for path in arg:",
      ...OPEN_READ_ONLY.split("\n").map((l) => `    ${l}`),
      "    out.append(check(con))",
      "    con.close()",
    ].join("\n"),
    dbFiles,
  );
  return reports.map(report);
}

function report(res: Omit<InvariantReport, "ok">): InvariantReport {
  const problems =
    res.problems.length > MAX_PROBLEMS
      ? [...res.problems.slice(0, MAX_PROBLEMS), `... and ${res.problems.length - MAX_PROBLEMS} more problems`]
      : res.problems;
  return {
    ok: res.problems.length === 0,
    problems,
    users: res.users,
    ledgerRows: res.ledgerRows,
    totalBalanceCents: res.totalBalanceCents,
  };
}

/** PRAGMA integrity_check; "ok" when sound. */
export function integrityCheck(dbFile: string): Promise<string> {
  return withDatabase<string>(dbFile, "out = '\\n'.join(str(r[0]) for r in con.execute('PRAGMA integrity_check').fetchall())");
}
