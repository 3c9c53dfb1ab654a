// @ts-check
// One user as the console's User Management drawer shows them. Raw SQL on indexes
// (1764300000_console_users.js), so it stays fast at 100,000 users.

/** @type {typeof import("../core/sql.js")} */
const sql = require(`${__hooks}/lib/core/sql.js`);
/** @type {typeof import("../reports/revenue.js")} */
const revenue = require(`${__hooks}/lib/reports/revenue.js`);

/** How much of each list the user detail shows (newest first; totals say how many exist). */
const DETAIL_LIMITS = { transactions: 20, proxies: 100, tickets: 20, orders: 20, payments: 20 };

/**
 * Everything the console's user drawer shows: profile, balance, the 20 newest ledger rows,
 * their proxies (no passwords), tickets, orders (each with whether it can be refunded) and
 * credit payments: provider ("test" moved no money, security review #13 finding 2), what
 * Stripe refunded or a dispute took (finding 4) and the money kept (the revenue rule of
 * lib/reports/revenue.js: paid minus refunds and a lost dispute; 0 for test payments).
 * @param {CoreApp} app
 * @param {string} id
 */
function userDetail(app, id) {
  /** @type {typeof import("../proxies/refunds.js")} */
  const refunds = require(`${__hooks}/lib/proxies/refunds.js`);
  const user = require(`${__hooks}/lib/accounts/user-admin.js`).findUser(app, id);
  const profile = new DynamicModel({ onboarding_completed: false, password_set: false, ip_allowlist: "" });
  app
    .db()
    .newQuery("SELECT onboarding_completed, password_set, COALESCE(ip_allowlist, '') AS ip_allowlist FROM users WHERE id = {:id}")
    .bind({ id })
    .one(profile);

  const transactions = sql.rowsLike({
    id: "",
    type: "",
    amount_cents: 0,
    balance_after_cents: 0,
    description: "",
    reference: "",
    created: "",
  });
  app
    .db()
    .newQuery(
      `SELECT id, type, amount_cents, balance_after_cents, description, reference, created FROM transactions
       WHERE user_id = {:id} ORDER BY created DESC, id DESC LIMIT ${DETAIL_LIMITS.transactions}`,
    )
    .bind({ id })
    .all(transactions);

  const proxies = sql.rowsLike({
    id: "",
    host: "",
    port: 0,
    username: "",
    type: "",
    country: "",
    state: "",
    city: "",
    status: "",
    expires_at: "",
    auto_renew: false,
  });
  app
    .db()
    .newQuery(
      `SELECT id, host, port, username, type, country, state, city, status, expires_at, auto_renew FROM proxies
       WHERE assigned_to_user_id = {:id} ORDER BY expires_at DESC, id LIMIT ${DETAIL_LIMITS.proxies}`,
    )
    .bind({ id })
    .all(proxies);

  const tickets = sql.rowsLike({ id: "", subject: "", status: "", priority: "", created: "" });
  app
    .db()
    .newQuery(
      `SELECT id, subject, status, priority, created FROM support_tickets WHERE user_id = {:id}
       ORDER BY created DESC, id DESC LIMIT ${DETAIL_LIMITS.tickets}`,
    )
    .bind({ id })
    .all(tickets);

  const payments = sql.rowsLike({
    id: "",
    package_id: "",
    provider: "",
    status: "",
    amount_cents: 0,
    credits_cents: 0,
    bonus_cents: 0,
    currency: "",
    refunded_cents: 0,
    disputed_cents: 0,
    dispute_status: "",
    kept_cents: 0,
    failure_reason: "",
    paid_at: "",
    reversed_at: "",
    created: "",
  });
  app
    .db()
    .newQuery(
      `SELECT id, package_id, provider, status, amount_cents, credits_cents, bonus_cents, currency,
              COALESCE(refunded_cents, 0) AS refunded_cents, COALESCE(disputed_cents, 0) AS disputed_cents,
              COALESCE(dispute_status, '') AS dispute_status,
              CASE WHEN provider = 'stripe' AND status IN ${revenue.CREDITED} THEN ${revenue.KEPT_CENTS} ELSE 0 END AS kept_cents,
              failure_reason, COALESCE(paid_at, '') AS paid_at, COALESCE(reversed_at, '') AS reversed_at, created
       FROM payments WHERE user_id = {:id} ORDER BY created DESC, id DESC LIMIT ${DETAIL_LIMITS.payments}`,
    )
    .bind({ id })
    .all(payments);

  const totals = new DynamicModel({ transactions: 0, proxies: 0, tickets: 0, orders: 0, payments: 0 });
  app
    .db()
    .newQuery(
      `SELECT (SELECT COUNT(*) FROM transactions WHERE user_id = {:id}) AS transactions,
              (SELECT COUNT(*) FROM proxies WHERE assigned_to_user_id = {:id}) AS proxies,
              (SELECT COUNT(*) FROM support_tickets WHERE user_id = {:id}) AS tickets,
              (SELECT COUNT(*) FROM proxy_orders WHERE user_id = {:id}) AS orders,
              (SELECT COUNT(*) FROM payments WHERE user_id = {:id}) AS payments`,
    )
    .bind({ id })
    .one(totals);

  return {
    user: { ...user, onboarding_completed: !!profile.onboarding_completed, password_set: !!profile.password_set },
    balance_cents: user.balance_cents,
    ip_allowlist: require(`${__hooks}/lib/accounts/ip-allowlist.js`).storedList(profile.ip_allowlist),
    transactions: transactions.map((r) => ({ ...r })),
    proxies: proxies.map((r) => ({ ...r, auto_renew: !!r.auto_renew })),
    tickets: tickets.map((r) => ({ ...r })),
    orders: refunds.ordersWithRefundability(app, id, DETAIL_LIMITS.orders),
    payments: payments.map((r) => ({ ...r })),
    totals: {
      transactions: totals.transactions,
      proxies: totals.proxies,
      tickets: totals.tickets,
      orders: totals.orders,
      payments: totals.payments,
    },
  };
}

/**
 * GET /api/admin/users/{id}
 * -> {user: {..list fields, onboarding_completed, password_set}, balance_cents,
 *    ip_allowlist (the addresses and ranges the user's proxies answer; [] = anywhere),
 *    transactions (20 newest), proxies (100, no passwords: id, host, port, username, type, country,
 *    state, city, status, expires_at, auto_renew), tickets (20: id, subject, status,
 *    priority, created), orders (20: id, number, kind, proxy_type, quantity, total_cents,
 *    status, created, refunded_at, refund_reason, refundable, within_promise,
 *    refundable_reason), payments (20 newest credit payments: id, package_id, provider
 *    (stripe | test: no money moved), status (pending, paid, failed, partially_refunded,
 *    refunded, disputed), amount_cents, credits_cents, bonus_cents, currency,
 *    refunded_cents, disputed_cents, dispute_status (open | won | lost | ""), kept_cents
 *    (money kept: Stripe only, minus refunds and a lost dispute), failure_reason, paid_at,
 *    reversed_at, created), totals: {transactions, proxies, tickets, orders, payments}};
 *    404 unknown user. Shop admins only.
 * @param {core.RequestEvent} e
 */
function detail(e) {
  require(`${__hooks}/lib/core/admin.js`).requireAdmin(e);
  return e.json(200, userDetail(e.app, e.request?.pathValue("id") ?? ""));
}

module.exports = { detail };
