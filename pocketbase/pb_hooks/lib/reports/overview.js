// @ts-check
// The console's Overview (get_admin_overview_stats in the spec): platform figures and the
// newest ledger rows. Shop admins only: anonymous 401, customers 403.

/** @type {typeof import("./revenue.js")} */
const revenue = require(`${__hooks}/lib/reports/revenue.js`);
/** @type {typeof import("../core/sql.js")} */
const sql = require(`${__hooks}/lib/core/sql.js`);

/**
 * The Overview figures: users, money received and kept (real, i.e. Stripe, payments minus
 * what Stripe refunded and lost disputes took back; a proxy refund gives credits back, not
 * money, so it does not lower revenue), test payments apart (no money moved), proxies in
 * customers' hands, and the 10 newest ledger rows with their user's e-mail.
 * @param {CoreApp} app
 */
function overviewFigures(app) {
  const figures = new DynamicModel({ total_users: 0, total_revenue_cents: 0, test_payments_cents: 0, active_proxies: 0 });
  app
    .db()
    .newQuery(
      `SELECT (SELECT COUNT(*) FROM users) AS total_users,
              (${revenue.TOTAL_KEPT_SQL}) AS total_revenue_cents,
              (${revenue.TOTAL_TEST_SQL}) AS test_payments_cents,
              (SELECT COUNT(*) FROM proxies WHERE status = 'ASSIGNED') AS active_proxies`,
    )
    .one(figures);
  const recent = sql.rowsLike({ id: "", user_id: "", user_email: "", type: "", amount_cents: 0, description: "", created: "" });
  app
    .db()
    .newQuery(
      `SELECT t.id, t.user_id, COALESCE(u.email, '') AS user_email, t.type, t.amount_cents, t.description, t.created
       FROM transactions t LEFT JOIN users u ON u.id = t.user_id
       ORDER BY t.created DESC, t.id DESC LIMIT 10`,
    )
    .all(recent);
  return {
    total_users: figures.total_users,
    total_revenue_cents: figures.total_revenue_cents,
    test_payments_cents: figures.test_payments_cents,
    active_proxies: figures.active_proxies,
    recent_transactions: recent.map((r) => ({ ...r })),
  };
}

/**
 * GET /api/admin/overview
 * -> {total_users, total_revenue_cents, test_payments_cents, active_proxies, recent_transactions:
 *    [{id, user_id, user_email, type, amount_cents, description, created}]}  (the 10 newest ledger rows)
 *
 * Revenue is money kept from Stripe payments (revenue.js), test payments apart.
 * @param {core.RequestEvent} e
 */
function overview(e) {
  require(`${__hooks}/lib/audit/admin.js`).requireAdmin(e);
  return e.json(200, overviewFigures(e.app));
}

module.exports = { overview };
