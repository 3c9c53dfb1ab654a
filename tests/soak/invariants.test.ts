// The checks can fail: a small shop history made through the real routes (purchases, a
// renewal, a refund, admin credit and debit, a referred customer's Stripe payment with a
// bonus, its commission, a partial Stripe refund of it, and the welcome credit) passes every
// invariant; then each kind of damage, done
// to a copy of its database by hand, is reported by checkMoneyInvariants, and a torn page by
// integrityCheck.
import { execFileSync } from "node:child_process";
import { copyFileSync, existsSync, mkdtempSync, openSync, rmSync, writeSync, closeSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkMoneyInvariants, checkMoneyInvariantsOfEach, integrityCheck, type InvariantReport } from "./support/invariants.ts";
import { startTestPocketBase } from "../support/pocketbase.ts";
import { checkAgainstBook } from "./support/acknowledged.ts";
import { damageCases } from "./support/damage-cases.ts";
import { newBook, type Request } from "./support/book.ts";
import { sessionCompleted, stripeSignature } from "./support/load-payments.ts";
import { call, type Answer } from "./support/soak-client.ts";
import { queryRows } from "./support/sqlite.ts";
import { populate, startSoakShop, WEBHOOK_SECRET, type SoakShop } from "./support/soak-shop.ts";

let shop: SoakShop;
let dir: string;
let base: string;
const ids: Record<string, string> = {};

function ok(answer: Answer): Record<string, unknown> {
  if (answer.status !== 200) throw new Error(`${answer.status}: ${JSON.stringify(answer.body)}`);
  return answer.body;
}

/** Copies of the base database, each with its SQL applied (one Python process for all). */
function damaged(cases: { file: string; sql: string }[]): void {
  for (const c of cases) copyFileSync(base, c.file);
  const script =
    "import json,sqlite3,sys\nfor c in json.loads(sys.argv[1]):\n    con=sqlite3.connect(c['file'])\n    con.executescript(c['sql'])\n    con.commit()\n    con.close()";
  execFileSync("python3", ["-c", script, JSON.stringify(cases)]);
}

beforeAll(async () => {
  // Stripe (stripe-mock): only real payments earn commission (security review #13, finding 2).
  shop = await startSoakShop("stripe");
  const { admin, customers } = await populate(shop, { seed: 1, customers: 2, startCents: 3000, stockPerPlace: 4 });
  const [a, b] = customers;
  if (!a || !b) throw new Error("no customers");
  const key = (() => {
    let n = 0;
    return () => ({ "Idempotency-Key": `inv-${++n}` });
  })();
  const buy = (token: string, body: object) => call(shop.url, "POST", "/api/v1/proxies/purchase", { token, body, headers: key() });
  const order1 = ok(await buy(a.token, { type: "RESIDENTIAL", country: "US", state: "California", quantity: 2 }))["order"] as Record<
    string,
    unknown
  >;
  const order2 = ok(await buy(a.token, { type: "DATACENTER", country: "US", state: "Texas", quantity: 1 }))["order"] as Record<
    string,
    unknown
  >;
  ok(await buy(b.token, { type: "DATACENTER", country: "GB", quantity: 1 }));
  // A purchase through an API key with a monthly spend cap (issue #18): the order carries the key.
  const keyAnswer = await call(shop.url, "POST", "/api/v1/api-keys", {
    token: a.token,
    body: { name: "capped", scopes: ["purchase"], spend_cap_cents: 1000 },
  });
  expect(keyAnswer.status).toBe(201);
  const made = keyAnswer.body as { key: string; api_key: { id: string } };
  const keyed = ok(await buy(`Bearer ${made.key}`, { type: "DATACENTER", country: "US", state: "Texas", quantity: 1 }))["order"] as Record<
    string,
    unknown
  >;
  const items = order1["items"] as { id: string }[];
  ok(await call(shop.url, "POST", "/api/v1/proxies/renew", { token: a.token, body: { proxy_ids: [items[0]?.id] }, headers: key() }));
  ok(
    await call(shop.url, "POST", `/api/admin/orders/${String(order2["id"])}/refund`, {
      token: admin.token,
      body: { reason: "check" },
      headers: key(),
    }),
  );
  ok(
    await call(shop.url, "POST", `/api/admin/users/${a.id}/balance`, {
      token: admin.token,
      body: { transaction_type: "DEBIT", amount_cents: 100, description: "check" },
      headers: key(),
    }),
  );
  // A customer referred by the admin's affiliate code, verified (welcome credit), paying with a bonus (commission).
  const su = await shop.superuser();
  const code = (await su.collection("affiliates").getFirstListItem(`user_id = "${admin.id}"`))["code"] as string;
  const signup = ok(
    await call(shop.url, "POST", "/api/shop/signup", {
      body: { first_name: "Rita", last_name: "Referred", email: "rita@soak.test", country: "Spain", ref: code },
    }),
  );
  const rita = (signup["record"] as { id: string }).id;
  await su.collection("users").update(rita, { verified: true });
  const payment = ok(
    await call(shop.url, "POST", "/api/v1/credits/checkout", {
      token: String(signup["token"]),
      body: { package_id: "package-25" },
      headers: key(),
    }),
  );
  const paid = (payment["payment"] as Record<string, unknown>) ?? {};
  const webhook = (payload: string) =>
    call(shop.url, "POST", "/api/v1/payments/stripe/webhook", {
      raw: payload,
      headers: { "stripe-signature": stripeSignature(payload, WEBHOOK_SECRET) },
    });
  ok(await webhook(sessionCompleted(paid)));
  // A partial refund (a quarter of the money): a reversal row and a reduced commission.
  ok(
    await webhook(
      JSON.stringify({
        id: "evt_partial_refund",
        type: "charge.refunded",
        data: { object: { id: "ch_inv", payment_intent: `pi_${String(paid["id"])}`, amount: 2400, amount_refunded: 600, currency: "usd" } },
      }),
    ),
  );
  Object.assign(ids, {
    a: a.id,
    b: b.id,
    order1: String(order1["id"]),
    order2: String(order2["id"]),
    proxy1: items[1]?.id ?? "",
    payment: String((payment["payment"] as { id: string }).id),
    key: made.api_key.id,
    keyedOrder: String(keyed["id"]),
    rita,
  });
  await shop.kill9();
  dir = mkdtempSync(path.join(os.tmpdir(), "proxyshop-invariants-"));
  base = path.join(dir, "base.db");
  for (const suffix of ["", "-wal", "-shm"]) if (existsSync(shop.dbFile + suffix)) copyFileSync(shop.dbFile + suffix, base + suffix);
  // Fold the WAL into the copy, so each damaged copy is one file.
  execFileSync("python3", [
    "-c",
    "import sqlite3,sys\ncon=sqlite3.connect(sys.argv[1])\ncon.execute('PRAGMA wal_checkpoint(TRUNCATE)')\ncon.execute('PRAGMA journal_mode=DELETE')\ncon.close()",
    base,
  ]);
});

afterAll(async () => {
  await shop?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("checkMoneyInvariants and integrityCheck", () => {
  it("pass on a history made by the shop's own routes", async () => {
    expect(await integrityCheck(base)).toBe("ok");
    const report = await checkMoneyInvariants(base);
    expect(report.problems).toEqual([]);
    expect(report).toMatchObject({ ok: true, users: 4 });
    // Starting credits (2), 4 purchases (one with an API key), a renewal, a refund, a debit, the welcome credit, a payment, its bonus and its partial refund.
    expect(report.ledgerRows).toBe(13);
    const keyed = await queryRows<{ api_key_id: string }>(base, `SELECT api_key_id FROM proxy_orders WHERE id = '${ids["keyedOrder"]}'`);
    expect(keyed[0]?.api_key_id).toBe(ids["key"]);
    const rows = await queryRows<{ n: number }>(base, "SELECT COUNT(*) AS n FROM commissions");
    expect(rows[0]?.n).toBe(1);
  });

  it("pass on the demo seed's history (what `npm start` ships)", async () => {
    const demo = await startTestPocketBase({ SHOP_DEMO_SEED: "true" });
    try {
      const report = await checkMoneyInvariants(path.join(demo.dataDir, "data.db"));
      expect(report.problems).toEqual([]);
      expect(report.ledgerRows).toBeGreaterThan(0);
    } finally {
      await demo.stop();
    }
  });

  const cases = damageCases(ids);
  const reports = new Map<string, InvariantReport>();
  beforeAll(async () => {
    const files = cases.map(([name, sql]) => ({ name, file: path.join(dir, `${name.replace(/\W+/g, "-")}.db`), sql: sql() }));
    damaged(files);
    const results = await checkMoneyInvariantsOfEach(files.map((f) => f.file));
    files.forEach((f, i) => reports.set(f.name, results[i] as InvariantReport));
  });
  it.each(cases)("report %s", (name, _sql, expected) => {
    const report = reports.get(name);
    expect(report?.ok).toBe(false);
    expect(report?.problems.join("\n")).toMatch(expected);
  });

  it("checkAgainstBook reports what the client was told but is missing, refusals that left rows, and rows nobody asked for", async () => {
    const book = newBook();
    const request = (r: Omit<Request, "tries">): Request => ({ tries: 1, ...r });
    const ghost = {
      id: "ghostorder00000",
      userId: ids["a"] ?? "",
      kind: "purchase" as const,
      total: 450,
      transactionId: "ghosttx",
      proxyIds: [],
      shownProxyIds: [],
    };
    book.requests.set(
      "ghost",
      request({ key: "ghost", kind: "purchase", userId: ids["a"] ?? "", body: {}, state: "acked", order: ghost, cents: -450 }),
    );
    // inv-1 made order1: a client told "refused" for it would be wrong.
    book.requests.set(
      "inv-1",
      request({ key: "inv-1", kind: "purchase", userId: ids["a"] ?? "", body: {}, state: "refused", status: 409 }),
    );
    const found = (await checkAgainstBook(base, book, { adminId: "nobody", final: true, provider: "test" })).join("\n");
    expect(found).toMatch(/acknowledged purchase ghostorder00000 \(key ghost\) is missing/);
    expect(found).toMatch(/purchase inv-1 was refused \(409: undefined\) but left a row/);
    expect(found).toMatch(new RegExp(`order ${ids["order2"]} \\(key inv-2\\) was not asked for`));
    expect(found).toMatch(/payment \w+ \(key inv-\d+\) was not asked for/);
    expect(found).toMatch(/admin adjustment \w+ \(-100\) was not asked for/);
    expect(found).toMatch(
      new RegExp(
        `balance of ${ids["b"]} is \\d+, the client was told of moves summing to -450|balance of ${ids["b"]} is \\d+, the client was told of moves summing to 0`,
      ),
    );
  });

  it("integrityCheck reports a torn page", async () => {
    const file = path.join(dir, "torn.db");
    copyFileSync(base, file);
    const fd = openSync(file, "r+");
    // Garbage over the headers of pages 2-12 (4096-byte pages): b-tree pages of the shop's tables.
    for (let page = 1; page < 12; page++) writeSync(fd, Buffer.alloc(64, 0xa5), 0, 64, page * 4096);
    closeSync(fd);
    const result = await integrityCheck(file).catch((err: Error) => err.message);
    expect(result).not.toBe("ok");
  });
});
