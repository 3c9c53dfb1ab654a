// TEMPORARY (helper "backups"): a minimal stand-in with the interface the soak helper's
// tests/soak/support/invariants.ts provides, so the restore drills run before that lands.
// The lead keeps the soak helper's version; drop this file in the merge.
//
// Read-only checks on a data.db through Python's sqlite3 (python3 is a CI dependency):
// every balance equals the sum of its user's ledger rows and is not negative; every order
// has its PROXY_PURCHASE row (reference order:<id>) of minus its total; every owned proxy's
// owner exists; the total of all balances equals the ledger's credits minus its debits.
import { execFile } from "node:child_process";

export interface InvariantReport {
  ok: boolean;
  problems: string[];
  users: number;
  ledgerRows: number;
  totalBalanceCents: number;
}

function python<T>(script: string, dbFile: string): Promise<T> {
  const program = [
    "import json, sqlite3, sys, urllib.parse",
    "con = sqlite3.connect('file:' + urllib.parse.quote(sys.argv[1]) + '?mode=ro', uri=True)",
    "con.row_factory = sqlite3.Row",
    "out = None",
    script,
    "sys.stdout.write(json.dumps(out))",
  ].join("\n");
  return new Promise((resolve, reject) => {
    execFile("python3", ["-c", program, dbFile], { maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) => {
      if (err) reject(new Error(`reading ${dbFile}: ${stderr.trim() || err.message}`));
      else resolve(JSON.parse(stdout) as T);
    });
  });
}

/** `PRAGMA integrity_check`: "ok" when the database is sound, else SQLite's findings. */
export function integrityCheck(dbFile: string): Promise<string> {
  return python<string>("out = '\\n'.join(r[0] for r in con.execute('PRAGMA integrity_check').fetchall())", dbFile);
}

const CHECK = String.raw`
problems = []
q = lambda sql: [dict(r) for r in con.execute(sql).fetchall()]
users = {r["id"] for r in q("SELECT id FROM users")}
sums = {}
for r in q("SELECT user_id, amount_cents FROM transactions"):
    sums[r["user_id"]] = sums.get(r["user_id"], 0) + r["amount_cents"]
total = 0
for r in q("SELECT user_id, balance_cents FROM balances"):
    total += r["balance_cents"]
    if r["balance_cents"] < 0:
        problems.append(f"balance of {r['user_id']} is negative: {r['balance_cents']}")
    if r["balance_cents"] != sums.get(r["user_id"], 0):
        problems.append(f"balance of {r['user_id']} is {r['balance_cents']}, its ledger sums to {sums.get(r['user_id'], 0)}")
ledger = {(r["user_id"], r["reference"]): r for r in q("SELECT user_id, reference, type, amount_cents FROM transactions WHERE reference != ''")}
for o in q("SELECT id, user_id, total_cents FROM proxy_orders"):
    row = ledger.get((o["user_id"], "order:" + o["id"]))
    if row is None or row["type"] != "PROXY_PURCHASE" or row["amount_cents"] != -o["total_cents"]:
        problems.append(f"order {o['id']} has no PROXY_PURCHASE row of -{o['total_cents']}")
for p in q("SELECT id, assigned_to_user_id AS owner_id FROM proxies WHERE status IN ('ASSIGNED', 'EXPIRED')"):
    if p["owner_id"] not in users:
        problems.append(f"proxy {p['id']} is owned by a missing user {p['owner_id']!r}")
credited = sum(v for (v,) in con.execute("SELECT amount_cents FROM transactions WHERE amount_cents > 0"))
spent = -sum(v for (v,) in con.execute("SELECT amount_cents FROM transactions WHERE amount_cents < 0"))
if total != credited - spent:
    problems.append(f"total of balances {total} != credited {credited} - spent {spent}")
out = {"ok": not problems, "problems": problems[:200], "users": len(users), "ledgerRows": con.execute("SELECT count(*) FROM transactions").fetchone()[0], "totalBalanceCents": total}
`;

/** The money invariants on `dbFile` (read-only). */
export function checkMoneyInvariants(dbFile: string): Promise<InvariantReport> {
  return python<InvariantReport>(CHECK, dbFile);
}
