// The damaged histories invariants.test.ts makes checkMoneyInvariants report: a name, the SQL
// that damages a copy of the shop's data.db (given the ids of its rows) and the report expected.
export type DamageCase = [name: string, sql: () => string, expected: RegExp];

export function damageCases(ids: Record<string, string>): DamageCase[] {
  return [
    [
      "an API key's orders past its monthly spend cap",
      () => `UPDATE api_keys SET spend_cap_cents = 1 WHERE id = '${ids["key"]}'`,
      /API key \w+ \(capped\) spent \d+ in 1 orders in \d{4}-\d{2}, past its monthly spend cap of 1/,
    ],
    [
      "an order made with another customer's API key",
      () => `UPDATE proxy_orders SET api_key_id = '${ids["key"]}' WHERE user_id = '${ids["b"]}'`,
      /order \w+ of \w+ was made with API key \w+ of \w+/,
    ],
    [
      "a balance changed without a ledger row",
      () => `UPDATE balances SET balance_cents = balance_cents + 1 WHERE user_id = '${ids["a"]}'`,
      /balance of \w+ is \d+ but its ledger rows sum to/,
    ],
    ["a negative balance", () => `UPDATE balances SET balance_cents = -5 WHERE user_id = '${ids["b"]}'`, /negative/],
    [
      "a purchase without its ledger row",
      () => `DELETE FROM transactions WHERE reference = 'order:${ids["order1"]}'`,
      /order \w+ of \w+ has no ledger row/,
    ],
    [
      "a ledger row whose running balance is wrong",
      () => `UPDATE transactions SET balance_after_cents = balance_after_cents + 100 WHERE reference = 'order:${ids["order1"]}'`,
      /balance_after_cents \d+ but the rows before it sum to/,
    ],
    [
      "a ledger row of the wrong sign",
      () => `UPDATE transactions SET type = 'CREDIT' WHERE reference = 'order:${ids["order1"]}'`,
      /wrong sign/,
    ],
    ["a ledger row for nothing", () => `UPDATE transactions SET reference = '' WHERE reference = 'welcome'`, /has no reference/],
    [
      "a proxy assigned without an order",
      () =>
        `UPDATE proxies SET status = 'ASSIGNED', assigned_to_user_id = '${ids["b"]}' WHERE id = (SELECT id FROM proxies WHERE status = 'AVAILABLE' LIMIT 1)`,
      /is held by \w+ but its latest purchase is none/,
    ],
    [
      "a proxy moved to another customer",
      () => `UPDATE proxies SET assigned_to_user_id = '${ids["b"]}' WHERE id = '${ids["proxy1"]}'`,
      /is held by \w+ but its latest purchase is/,
    ],
    [
      "a bought proxy back in stock without a refund",
      () => `UPDATE proxies SET status = 'AVAILABLE', assigned_to_user_id = '' WHERE id = '${ids["proxy1"]}'`,
      /was bought by \w+ in order \w+ .* but is AVAILABLE for nobody/,
    ],
    [
      "a proxy without an owner",
      () => `UPDATE proxies SET assigned_to_user_id = '' WHERE id = '${ids["proxy1"]}'`,
      /is ASSIGNED without an owner/,
    ],
    [
      "a proxy sold twice",
      () =>
        `UPDATE proxy_orders SET items = json_insert(items, '$[#]', json_object('id', '${ids["proxy1"]}', 'unit_price_cents', 0)), quantity = quantity + 1 WHERE user_id = '${ids["b"]}' AND kind = 'purchase'`,
      /sold twice/,
    ],
    [
      "an order total that differs from its ledger row",
      () => `UPDATE proxy_orders SET total_cents = total_cents + 1 WHERE id = '${ids["order1"]}'`,
      /does not match order/,
    ],
    [
      "an order marked refunded without a refund",
      () => `UPDATE proxy_orders SET status = 'refunded', refunded_at = '2026-01-01 00:00:00.000Z' WHERE id = '${ids["order1"]}'`,
      /is 'refunded' .* has no refund row/,
    ],
    [
      "a refund row whose order is not refunded",
      () => `UPDATE proxy_orders SET status = 'completed', refunded_at = '' WHERE id = '${ids["order2"]}'`,
      /does not match order .* status completed|is 'completed' .* has refund row/,
    ],
    [
      "a credited payment not marked paid",
      () => `UPDATE payments SET status = 'failed' WHERE id = '${ids["payment"]}'`,
      /payment \w+ is failed but has credit row/,
    ],
    [
      "a paid payment without its credit",
      () => `DELETE FROM transactions WHERE reference = 'payment:${ids["payment"]}'`,
      /payment \w+ is (paid|partially_refunded) but has no credit row/,
    ],
    [
      "a commission that is not 20% of the payment",
      () => `UPDATE commissions SET amount_cents = amount_cents + 1`,
      /commission \w+ of \d+ is for payment/,
    ],
    [
      "affiliate earnings that differ from the commissions",
      () => `UPDATE affiliates SET pending_earnings_cents = pending_earnings_cents + 7 WHERE total_earnings_cents > 0`,
      /affiliate \w+ shows \d+ earned/,
    ],
    [
      "an admin adjustment without its audit row",
      () => `DELETE FROM audit_logs WHERE action = 'users.balance_debit'`,
      /admin adjustment row \w+ of \w+ has no audit row/,
    ],
    [
      "money from nowhere, the ledger and balances agreeing",
      () => `UPDATE payments SET credits_cents = credits_cents + 50 WHERE id = '${ids["payment"]}'`,
      /records say|does not match payment/,
    ],
    ["a balance row missing", () => `DELETE FROM balances WHERE user_id = '${ids["b"]}'`, /user \w+ has no balance row/],
  ];
}
