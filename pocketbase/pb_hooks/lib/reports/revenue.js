// @ts-check
// Revenue is the money kept from real payments: Stripe payments whose credits were booked,
// minus what Stripe refunded and what a lost dispute took back. A proxy refund gives
// credits back, not money, so it does not lower revenue. Test-provider payments moved no
// money and are counted apart (security review #13, findings 2 and 4). SQL pieces over the
// payments table, for the Overview, Analytics and the user drawer.

/** The statuses of a payment whose credits were booked (lib/money: CREDITED_STATUSES). */
const CREDITED = "('paid', 'partially_refunded', 'refunded', 'disputed')";

/** The money one payment row kept (Stripe only: guard with provider = 'stripe'). */
const KEPT_CENTS =
  "MAX(0, amount_cents - COALESCE(refunded_cents, 0) - CASE WHEN dispute_status = 'lost' THEN COALESCE(disputed_cents, 0) ELSE 0 END)";

/** A scalar query: all the money kept. */
const TOTAL_KEPT_SQL = `SELECT COALESCE(SUM(${KEPT_CENTS}), 0) FROM payments WHERE provider = 'stripe' AND status IN ${CREDITED}`;

/** A scalar query: what test payments would have brought. */
const TOTAL_TEST_SQL = `SELECT COALESCE(SUM(amount_cents), 0) FROM payments WHERE provider = 'test' AND status IN ${CREDITED}`;

module.exports = { CREDITED, KEPT_CENTS, TOTAL_KEPT_SQL, TOTAL_TEST_SQL };
